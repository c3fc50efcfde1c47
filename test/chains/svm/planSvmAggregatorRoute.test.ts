import { describe, expect, it } from 'vitest';
import { planSvmAggregatorRoute, type SvmRouteResult } from '../../../src/chains/svm/planSvmAggregatorRoute';
import { SVM_AGGREGATOR_SOURCE, SVM_MARKET_TOKENS } from '../../../src/nodes/svm/svmAggregatorMarket';

function pathOf(result: SvmRouteResult): string[] {
  if (!result.ok) throw new Error(result.reason);
  return [result.hops[0]!.tokenIn, ...result.hops.map((hop) => hop.tokenOut)];
}

describe('the simulated aggregator plans an origin swap route (SPEC §4.1, §4.6)', () => {
  it('takes the longest route through the venues by default, each hop through a pool that holds both of its tokens', () => {
    const route = planSvmAggregatorRoute('MEME', 'USDC');
    expect(pathOf(route)).toEqual(['MEME', 'GOV', 'ORACLE', 'STSOL', 'WSOL', 'USDC']);
    if (!route.ok) return;
    for (const hop of route.hops) {
      expect([hop.pool.tokenA, hop.pool.tokenB].sort()).toEqual([hop.tokenIn, hop.tokenOut].sort());
      expect(hop.pool.venue).not.toBe(SVM_AGGREGATOR_SOURCE);
    }
    // every market token has a long default route, so every one of them meets the size rule
    for (const token of SVM_MARKET_TOKENS) expect(pathOf(planSvmAggregatorRoute(token.symbol, 'USDC')).length - 1).toBeGreaterThanOrEqual(5);
  });

  it('maxRouteLength caps the hops; the route stays the longest one within the cap', () => {
    for (const max of [1, 2, 3, 4]) {
      const path = pathOf(planSvmAggregatorRoute('GOV', 'USDC', { maxRouteLength: max }));
      expect(path.length - 1).toBe(max);
      expect(new Set(path).size).toBe(path.length);
      expect(path.at(-1)).toBe('USDC');
    }
  });

  it('includedOriginSwapSources: the aggregator source gives its direct route; venue names restrict the pools; names of no source are refused', () => {
    const direct = planSvmAggregatorRoute('ORACLE', 'USDC', { includedSources: [SVM_AGGREGATOR_SOURCE] });
    expect(pathOf(direct)).toEqual(['ORACLE', 'USDC']);
    expect(direct.ok && direct.hops[0]!.pool.venue).toBe(SVM_AGGREGATOR_SOURCE);
    const constantProduct = planSvmAggregatorRoute('MEME', 'USDC', { includedSources: ['intentsim-svm-constant-product'] });
    expect(constantProduct.ok && constantProduct.hops.every((hop) => hop.pool.venue === 'intentsim-svm-constant-product')).toBe(true);
    expect(pathOf(constantProduct)).toEqual(['MEME', 'WSOL', 'USDC']);
    const none = planSvmAggregatorRoute('MEME', 'USDC', { includedSources: ['no-such-venue'] });
    expect(none).toMatchObject({ ok: false, reason: expect.stringContaining(SVM_AGGREGATOR_SOURCE) });
    // the stable venue alone joins STSOL to WSOL and ORACLE to USDC: no route from MEME
    expect(planSvmAggregatorRoute('MEME', 'USDC', { includedSources: ['intentsim-svm-stable'] }).ok).toBe(false);
  });
});
