import { SVM_AGGREGATOR_SOURCE, SVM_MARKET_POOLS, SVM_POOL_VENUES, type SvmPool } from '../../nodes/svm';

/** One hop of an aggregator route: through `pool`, from `tokenIn` to `tokenOut` (symbols). */
export interface SvmRouteHop {
  pool: SvmPool;
  tokenIn: string;
  tokenOut: string;
}

/** SPEC §4.1: what a quote says about its origin swap. */
export interface SvmRouteOptions {
  /** At most this many hops. */
  maxRouteLength?: number;
  /** Only these sources; naming the aggregator's source gives its own direct route. */
  includedSources?: readonly string[];
}

export type SvmRouteResult = { ok: true; hops: SvmRouteHop[] } | { ok: false; reason: string };

/** Without `maxRouteLength` the aggregator takes up to this many hops. */
export const SVM_DEFAULT_MAX_ROUTE_HOPS = 6;

/**
 * The simulated aggregator's route from `from` to `to` (symbols). By default it takes the longest
 * route through the venues' pools (the route a price-seeking aggregator that splits across many
 * pools builds, and the reason SPEC §4.6 has a size rule), at most `maxRouteLength` hops, on
 * `includedSources` only. Naming the aggregator's own source gives its direct route through its
 * own pool. Deterministic: among routes of equal length, the first in pool order.
 */
export function planSvmAggregatorRoute(from: string, to: string, options: SvmRouteOptions = {}): SvmRouteResult {
  const maxHops = Math.min(options.maxRouteLength ?? SVM_DEFAULT_MAX_ROUTE_HOPS, SVM_DEFAULT_MAX_ROUTE_HOPS);
  const sources = options.includedSources;
  let venues: readonly string[] = SVM_POOL_VENUES;
  if (sources !== undefined) {
    venues = sources.includes(SVM_AGGREGATOR_SOURCE) ? [SVM_AGGREGATOR_SOURCE] : SVM_POOL_VENUES.filter((venue) => sources.includes(venue));
    if (venues.length === 0) {
      return { ok: false, reason: `includedOriginSwapSources names no swap source of this chain (its sources: ${[SVM_AGGREGATOR_SOURCE, ...SVM_POOL_VENUES].join(', ')})` };
    }
  }
  const pools = SVM_MARKET_POOLS.filter((pool) => venues.includes(pool.venue));
  let best: SvmRouteHop[] | undefined;
  const visit = (token: string, path: SvmRouteHop[], seen: Set<string>): void => {
    if (token === to) {
      if (!best || path.length > best.length) best = [...path];
      return;
    }
    if (path.length === maxHops) return;
    for (const pool of pools) {
      const next = pool.tokenA === token ? pool.tokenB : pool.tokenB === token ? pool.tokenA : undefined;
      if (next === undefined || seen.has(next)) continue;
      seen.add(next);
      path.push({ pool, tokenIn: token, tokenOut: next });
      visit(next, path, seen);
      path.pop();
      seen.delete(next);
    }
  };
  visit(from, [], new Set([from]));
  if (!best || best.length === 0) {
    return { ok: false, reason: `the aggregator has no route from ${from} to ${to} in at most ${maxHops} hops through ${venues.join(', ')}` };
  }
  return { ok: true, hops: best };
}
