import type { ControlledChain } from '../../src/chains/ChainControl';
import type { RunningSimulator } from '../../src/simulator';

/**
 * A chain's adapter as its own class (`EvmChain`, `BvmChain`, …), for tests that reach past the
 * ChainAdapter interface (a ledger, viem clients, keys), with the control plane's cheat calls.
 * Fails clearly on a chain of another VM.
 */
export function chainAdapterOf<T>(sim: Pick<RunningSimulator, 'control'>, chainId: number, kind: abstract new (...args: never[]) => T): T & ControlledChain {
  const chain = sim.control.chain(chainId);
  if (!(chain instanceof kind)) throw new Error(`chain ${chainId} runs ${chain.vmType}, not a ${kind.name}`);
  return chain as T & ControlledChain;
}
