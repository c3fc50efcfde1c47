import type { ChainAdapter } from '../chains/ChainAdapter';

/**
 * `GET /chains/health`: a chain is healthy when its node answers a read now (the solver's native
 * balance, the read every fill depends on); a failed or refused read is unhealthy, never an error.
 */
export async function probeChainHealth(chain: Pick<ChainAdapter, 'describe' | 'nativeCurrency' | 'balanceOf'>): Promise<boolean> {
  try {
    await chain.balanceOf(chain.describe().solverAddress, chain.nativeCurrency());
    return true;
  } catch {
    return false;
  }
}
