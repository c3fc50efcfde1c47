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
   * Currencies the solver holds on the chain and pays straight from its inventory when no pool
   * holds them (the non-EVM chains: their native currency and USDC), priced at the fixture price
   * table. Absent: none (an EVM chain swaps through its pool).
   */
  inventory?: readonly Currency[];
  /** The sources an origin swap on this chain may name (SPEC §4.1 `includedOriginSwapSources`); absent: it has none. */
  originSwapSources?: readonly string[];
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
 * - a pool on the destination holds `currencyOut` (its wrapped form for native): swap through
 *   it, spending the pool's other token, and unwrap the output for native;
 * - no pool holds it but the solver keeps it in inventory there (`inventory`): transfer it, the
 *   price from the fixture price table.
 */
export function planRoute(currencyIn: Currency, currencyOut: Currency, origin: ChainLiquidity, destination: ChainLiquidity): RoutePlanResult {
  if (currencyIn.symbol === currencyOut.symbol) return { ok: true, plan: { solverCurrency: currencyOut, action: { kind: 'transfer' } } };
  const wrappedNative = destination.wrappedNative.address;
  if (assetOf(currencyIn, origin) === assetOf(currencyOut, destination)) {
    return currencyOut.isNative
      ? { ok: true, plan: { solverCurrency: destination.wrappedNative, action: { kind: 'unwrap', wrappedNative } } }
      : { ok: true, plan: { solverCurrency: destination.nativeCurrency, action: { kind: 'wrap', wrappedNative } } };
  }
  const poolToken = currencyOut.isNative ? destination.wrappedNative : currencyOut;
  const pool = destination.pools.find((p) => sameAddress(p.token0.address, poolToken.address) || sameAddress(p.token1.address, poolToken.address));
  if (!pool) {
    if (destination.inventory?.some((held) => sameAddress(held.address, currencyOut.address))) {
      return { ok: true, plan: { solverCurrency: currencyOut, action: { kind: 'transfer' } } };
    }
    return { ok: false, reason: `no pool holds ${poolToken.symbol} on chain ${currencyOut.chainId}, nor does the solver keep it in inventory there` };
  }
  const solverCurrency = sameAddress(pool.token0.address, poolToken.address) ? pool.token1 : pool.token0;
  return {
    ok: true,
    plan: {
      solverCurrency,
      action: { kind: 'swap', pool: pool.address, feeBps: pool.feeBps, tokenIn: solverCurrency.address, tokenOut: poolToken.address, unwrapOutput: currencyOut.isNative },
    },
  };
}
