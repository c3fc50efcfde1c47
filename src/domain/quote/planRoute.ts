import type { Address } from 'viem';
import type { Currency } from '../chain/currency';

/** A constant-product pool on a chain (SPEC §2.2 `route.*.router` is its address). */
export interface PoolInfo {
  address: Address;
  token0: Currency;
  token1: Currency;
  feeBps: bigint;
}

/** What a chain offers the route planner: its native currency, wrapped native and pools. */
export interface ChainLiquidity {
  nativeCurrency: Currency;
  wrappedNative: Currency;
  pools: PoolInfo[];
  /**
   * The solver pays the chain's native currency from its own inventory whatever the origin asset
   * (a chain with no pools or wrapped native: BVM). Absent: false.
   */
  nativeFromInventory?: boolean;
}

/**
 * What the solver does on the destination to turn its own inventory (`solverCurrency`) into
 * `currencyOut` for the recipient:
 * - `transfer`: pay `currencyOut` directly (Bridge, Send);
 * - `wrap` / `unwrap`: through the wrapped-native contract, 1:1;
 * - `swap`: through a pool, then unwrap the output when `currencyOut` is native.
 */
export type DestinationAction =
  | { kind: 'transfer' }
  | { kind: 'wrap'; wrappedNative: Address }
  | { kind: 'unwrap'; wrappedNative: Address }
  | { kind: 'swap'; pool: Address; feeBps: bigint; tokenIn: Address; tokenOut: Address; unwrapOutput: boolean };

export interface RoutePlan {
  /** The currency the solver spends from its inventory on the destination. */
  solverCurrency: Currency;
  action: DestinationAction;
}

export type RoutePlanResult = { ok: true; plan: RoutePlan } | { ok: false; reason: string };

/** The asset behind a currency: the wrapped native counts as the native it wraps. */
function assetOf(currency: Currency, liquidity: ChainLiquidity): string {
  if (currency.isNative) return currency.symbol;
  return sameAddress(currency.address, liquidity.wrappedNative.address) ? liquidity.nativeCurrency.symbol : currency.symbol;
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * Plans the destination side of a request. The origin side is always a deposit of
 * `currencyIn` into the depository; the solver's inventory crosses chains at fixture prices,
 * so only the destination needs a plan:
 * - the same symbol on both sides: transfer it;
 * - the same asset, native vs. wrapped (ETH → WETH): wrap or unwrap;
 * - native of a chain that pays it from inventory (`nativeFromInventory`): transfer it;
 * - otherwise: swap through the destination pool that holds `currencyOut` (its wrapped form
 *   for native), spending the pool's other token, and unwrap the output for native.
 */
export function planRoute(currencyIn: Currency, currencyOut: Currency, origin: ChainLiquidity, destination: ChainLiquidity): RoutePlanResult {
  if (currencyIn.symbol === currencyOut.symbol) return { ok: true, plan: { solverCurrency: currencyOut, action: { kind: 'transfer' } } };
  const wrappedNative = destination.wrappedNative.address;
  if (assetOf(currencyIn, origin) === assetOf(currencyOut, destination)) {
    return currencyOut.isNative
      ? { ok: true, plan: { solverCurrency: destination.wrappedNative, action: { kind: 'unwrap', wrappedNative } } }
      : { ok: true, plan: { solverCurrency: destination.nativeCurrency, action: { kind: 'wrap', wrappedNative } } };
  }
  if (currencyOut.isNative && destination.nativeFromInventory) return { ok: true, plan: { solverCurrency: currencyOut, action: { kind: 'transfer' } } };
  const poolToken = currencyOut.isNative ? destination.wrappedNative : currencyOut;
  const pool = destination.pools.find((p) => sameAddress(p.token0.address, poolToken.address) || sameAddress(p.token1.address, poolToken.address));
  if (!pool) return { ok: false, reason: `no pool holds ${poolToken.symbol} on chain ${currencyOut.chainId}` };
  const solverCurrency = sameAddress(pool.token0.address, poolToken.address) ? pool.token1 : pool.token0;
  return {
    ok: true,
    plan: {
      solverCurrency,
      action: { kind: 'swap', pool: pool.address, feeBps: pool.feeBps, tokenIn: solverCurrency.address, tokenOut: poolToken.address, unwrapOutput: currencyOut.isNative },
    },
  };
}
