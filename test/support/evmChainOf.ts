import { EvmChain } from '../../src/chains/evm/EvmChain';
import type { RunningSimulator } from '../../src/simulator';

/**
 * The EVM adapter of a chain, for tests that reach past the ChainAdapter interface (viem
 * clients, contract addresses, the Anvil pid). Fails clearly on a chain of another VM.
 */
export function evmChainOf(sim: Pick<RunningSimulator, 'control'>, chainId: number): EvmChain {
  const chain = sim.control.chain(chainId);
  if (!(chain instanceof EvmChain)) throw new Error(`chain ${chainId} runs ${chain.vmType}, not an EVM chain`);
  return chain;
}
