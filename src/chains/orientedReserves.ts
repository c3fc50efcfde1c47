import type { DestinationAction } from '../domain/quote/planRoute';
import type { OrientedReserves } from '../domain/quote/routePricing';
import { orientReserves } from '../domain/quote/orientReserves';
import type { ChainAdapter } from './ChainAdapter';

/** A swap's pool reserves read now, oriented for its input token; null for a route without a pool. */
export async function orientedReserves(chain: ChainAdapter, action: DestinationAction): Promise<OrientedReserves | null> {
  if (action.kind !== 'swap') return null;
  const pool = chain.liquidity().pools.find((p) => p.address.toLowerCase() === action.pool.toLowerCase());
  if (!pool || !chain.readPoolReserves) throw new Error(`pool ${action.pool} is not on chain ${chain.chainId}`);
  return orientReserves(pool, await chain.readPoolReserves(pool.address), action.tokenIn);
}
