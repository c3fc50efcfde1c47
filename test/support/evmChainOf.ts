import type { ControlledChain } from '../../src/chains/ChainControl';
import { EvmChain } from '../../src/chains/evm/EvmChain';
import type { RunningSimulator } from '../../src/simulator';
import { chainAdapterOf } from './chainAdapterOf';

/**
 * The EVM adapter of a chain, for tests that reach past the ChainAdapter interface (viem
 * clients, contract addresses, the Anvil pid). Fails clearly on a chain of another VM.
 */
export function evmChainOf(sim: Pick<RunningSimulator, 'control'>, chainId: number): EvmChain & ControlledChain {
  return chainAdapterOf(sim, chainId, EvmChain);
}
