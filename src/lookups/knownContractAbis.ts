import type { Abi } from 'viem';
import { contractArtifacts } from '../../fixtures/contracts/artifacts.generated';

export interface KnownContractAbi {
  name: string;
  /** The contract's functions and events: what an explorer decodes calls and logs with. */
  abi: Abi;
}

/** The simulator's own contracts and the fixture contracts Call requests target, by name. */
export function knownContractAbis(): KnownContractAbi[] {
  return Object.entries(contractArtifacts).map(([name, artifact]) => ({
    name,
    abi: (artifact.abi as Abi).filter((item) => item.type === 'function' || item.type === 'event'),
  }));
}
