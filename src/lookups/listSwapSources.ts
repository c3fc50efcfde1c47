import type { ChainAdapter } from '../chains/ChainAdapter';

/** The name the simulator's constant-product pools go by as a swap source. */
export const SIMULATOR_POOL_SOURCE = 'intentsim-constant-product';

/**
 * `GET /swap-sources`: the sources of the chains' real pools (one kind on the EVM chains) and of
 * their origin swaps (the SVM chain's aggregator and its venues), for one chain or all.
 */
export function listSwapSources(chains: readonly ChainAdapter[]): string[] {
  const pools = chains.some((chain) => chain.liquidity().pools.length > 0) ? [SIMULATOR_POOL_SOURCE] : [];
  return [...new Set([...pools, ...chains.flatMap((chain) => chain.liquidity().originSwapSources ?? [])])];
}
