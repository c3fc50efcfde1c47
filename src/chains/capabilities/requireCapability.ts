import { chainMetadataFor } from '../../../fixtures/chains';
import { UnsupportedOnChainError } from '../../errors/chainErrors';
import type { ChainAdapter } from '../ChainAdapter';
import type { ChainCheats, OptionalCheatName } from './ChainCheats';
import type { DepositAddressCapability } from './DepositAddressCapability';

/** The optional capabilities of a chain (ChainAdapter's optional properties). */
export type ChainCapabilityName = 'cheats' | 'userWallet' | 'depositAddresses' | 'fixtureContracts' | 'gaslessRelay';

/** What a chain without the capability (or the member) lacks, in words. */
const LACKS: Record<ChainCapabilityName | OptionalCheatName | CheatCapabilityName | 'sweep', string> = {
  cheats: 'cheat calls',
  userWallet: "user's wallet",
  depositAddresses: 'deposit addresses',
  fixtureContracts: 'fixture contracts (they are EVM contracts)',
  gaslessRelay: 'gasless relayer (it runs on the EVM chains)',
  setAutomine: 'automine switch',
  setCode: 'code to replace',
  snapshot: 'snapshots',
  revert: 'snapshots',
  reorg: 'reorgs',
  doubleSpends: 'double spend of a deposit (Bitcoin-style chains have one)',
  transactionFaults: 'dropped transactions (the embedded Solana ledger simulates them)',
  exchangeAccounts: 'exchange accounts to pause, revoke or fund (only the exchange chain has)',
  sweep: 'deposit address to sweep (a deposit address is the solver’s own key)',
};

/**
 * SPEC §7.1 `UNSUPPORTED_ON_CHAIN` (400): the one place it is raised for what a chain lacks, in
 * one shape — `<what was asked>: <Chain> (<id>) has no <capability>`. A method that refuses one
 * argument value (Bitcoin's `setAutomine(true)`) throws its own, naming the value.
 */
function lacking(chain: ChainAdapter, lacks: keyof typeof LACKS, what: string): UnsupportedOnChainError {
  return new UnsupportedOnChainError(`${what}: ${chainMetadataFor(chain.chainId).displayName} (${chain.chainId}) has no ${LACKS[lacks]}`);
}

/** The chain's `capability`, or UNSUPPORTED_ON_CHAIN naming `what` was asked of it (e.g. `useDepositAddress`, `a reorg of depth 2`). */
export function requireCapability<K extends ChainCapabilityName>(chain: ChainAdapter, capability: K, what: string): NonNullable<ChainAdapter[K]> {
  const found = chain[capability];
  if (found === undefined) throw lacking(chain, capability, what);
  return found as NonNullable<ChainAdapter[K]>;
}

/** One of the cheat calls a chain may lack, bound to the chain's cheats; UNSUPPORTED_ON_CHAIN when it has none. */
export function requireCheat<K extends OptionalCheatName>(chain: ChainAdapter, cheat: K, what: string): NonNullable<ChainCheats[K]> {
  const cheats = requireCapability(chain, 'cheats', what);
  const call = cheats[cheat];
  if (call === undefined) throw lacking(chain, cheat, what);
  return (call as (...args: never[]) => unknown).bind(cheats) as NonNullable<ChainCheats[K]>;
}

/** The sweep of a paid deposit address; UNSUPPORTED_ON_CHAIN on a chain whose deposit addresses are the solver's own keys. */
export function requireSweep(chain: ChainAdapter, what: string): NonNullable<DepositAddressCapability['sweep']> {
  const addresses = requireCapability(chain, 'depositAddresses', what);
  if (!addresses.sweep) throw lacking(chain, 'sweep', what);
  return addresses.sweep.bind(addresses);
}

/** The cheats that are capabilities of their own, on the chains that have them. */
export type CheatCapabilityName = 'doubleSpends' | 'exchangeAccounts' | 'transactionFaults';

/**
 * One of the cheats that is a capability of its own (a user's double spend on Bitcoin-style chains,
 * the exchange's account faults, the embedded Solana ledger's dropped transactions);
 * UNSUPPORTED_ON_CHAIN on a chain without it.
 */
export function requireCheatCapability<K extends CheatCapabilityName>(chain: ChainAdapter, capability: K, what: string): NonNullable<ChainCheats[K]> {
  const found = requireCapability(chain, 'cheats', what)[capability];
  if (found === undefined) throw lacking(chain, capability, what);
  return found as NonNullable<ChainCheats[K]>;
}
