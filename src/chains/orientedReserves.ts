import type { DestinationAction } from '../domain/routePlan';
import type { OrientedReserves } from '../domain/routeQuote';
import type { ChainAdapter } from './ChainAdapter';

/** A swap's pool reserves read now, oriented for its input token; null for a route without a pool. */
export async function orientedReserves(chain: ChainAdapter, action: DestinationAction): Promise<OrientedReserves | null> {
  if (action.kind !== 'swap') return null;
  const pool = chain.liquidity().pools.find((p) => p.address.toLowerCase() === action.pool.toLowerCase());
  if (!pool) throw new Error(`pool ${action.pool} is not on chain ${chain.chainId}`);
  const { reserve0, reserve1 } = await chain.readPoolReserves(pool.address);
  const inIs0 = pool.token0.address.toLowerCase() === action.tokenIn.toLowerCase();
  return { reserveIn: inIs0 ? reserve0 : reserve1, reserveOut: inIs0 ? reserve1 : reserve0, feeBps: pool.feeBps };
}
