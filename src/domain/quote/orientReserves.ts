import type { PoolInfo } from './planRoute';
import type { OrientedReserves } from './routePricing';

/** A pool's reserves (token0, token1) turned to face a swap that sells `tokenIn`. */
export function orientReserves(pool: PoolInfo, reserves: { reserve0: bigint; reserve1: bigint }, tokenIn: string): OrientedReserves {
  const inIs0 = pool.token0.address.toLowerCase() === tokenIn.toLowerCase();
  return {
    reserveIn: inIs0 ? reserves.reserve0 : reserves.reserve1,
    reserveOut: inIs0 ? reserves.reserve1 : reserves.reserve0,
    feeBps: pool.feeBps,
  };
}
