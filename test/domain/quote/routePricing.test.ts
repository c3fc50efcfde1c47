import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PricedCurrency } from '../../../src/domain/quote/quoteAmounts';
import { getAmountIn, getAmountOut } from '../../../src/domain/quote/constantProduct';
import { computeRouteQuote, revalidateRouteQuote, type OrientedReserves, type RouteQuoteInput } from '../../../src/domain/quote/routePricing';
import { convertAmount, usdMicrosOf } from '../../../src/domain/money/usdValue';

// covers: failReason:SLIPPAGE

const ETH: PricedCurrency = { decimals: 18, priceUsdMicros: 3_000_000_000n };
const USDC: PricedCurrency = { decimals: 6, priceUsdMicros: 1_000_000n };
const POL: PricedCurrency = { decimals: 18, priceUsdMicros: 500_000n };

/** A pool priced near the fixture (±20%), deep or shallow, with a fee of 0–100 bps. */
const pool: fc.Arbitrary<OrientedReserves> = fc
  .record({
    depthUsd: fc.bigInt({ min: 10_000n, max: 100_000_000n }),
    skewPercent: fc.bigInt({ min: 80n, max: 120n }),
    feeBps: fc.bigInt({ min: 0n, max: 100n }),
  })
  .map(({ depthUsd, skewPercent, feeBps }) => ({
    // solver currency in = WETH (18 dec., $3000); out = USDC (6 dec.)
    reserveIn: (depthUsd * 10n ** 18n) / 3000n,
    reserveOut: (depthUsd * 10n ** 6n * skewPercent) / 100n,
    feeBps,
  }));

const tradeType = fc.constantFrom('EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT' as const);

function swapInput(overrides: Partial<RouteQuoteInput> & Pick<RouteQuoteInput, 'tradeType' | 'amount' | 'pool'>): RouteQuoteInput {
  return {
    currencyIn: ETH,
    currencyOut: USDC,
    solverCurrency: ETH,
    fillGasCost: { amount: 150_000n * 2_000_000_000n, currency: ETH },
    serviceFeeBps: 10n,
    slippageBps: 50n,
    ...overrides,
  };
}

/** Amount named by the trade type: 0.001–100 ETH in, or 1–100k USDC out. */
const amountFor = (type: string) => (type === 'EXACT_INPUT' ? fc.bigInt({ min: 10n ** 15n, max: 10n ** 20n }) : fc.bigInt({ min: 10n ** 6n, max: 10n ** 11n }));

describe('constant-product math (SPEC §2.2 rate and impact from real reserves)', () => {
  it('getAmountIn buys at least the amount; one unit less buys less', () => {
    fc.assert(
      fc.property(pool, fc.bigInt({ min: 1n, max: 10n ** 12n }), (p, amountOut) => {
        const amountIn = getAmountIn(amountOut, p.reserveIn, p.reserveOut, p.feeBps);
        if (amountIn === null) return amountOut >= p.reserveOut;
        expect(getAmountOut(amountIn, p.reserveIn, p.reserveOut, p.feeBps)).toBeGreaterThanOrEqual(amountOut);
        expect(getAmountOut(amountIn - 2n, p.reserveIn, p.reserveOut, p.feeBps)).toBeLessThan(amountOut);
        return true;
      }),
    );
  });

  it('the product of the reserves never falls through a swap', () => {
    fc.assert(
      fc.property(pool, fc.bigInt({ min: 1n, max: 10n ** 22n }), (p, amountIn) => {
        const out = getAmountOut(amountIn, p.reserveIn, p.reserveOut, p.feeBps);
        expect(out).toBeLessThan(p.reserveOut);
        expect((p.reserveIn + amountIn) * (p.reserveOut - out)).toBeGreaterThanOrEqual(p.reserveIn * p.reserveOut);
      }),
    );
  });
});

describe('route quotes through a pool, every trade type (SPEC §1.5)', () => {
  it('amounts are never negative, and the minimum never exceeds the output', () => {
    fc.assert(
      fc.property(pool, tradeType.chain((type) => fc.tuple(fc.constant(type), amountFor(type))), (p, [type, amount]) => {
        const result = computeRouteQuote(swapInput({ tradeType: type, amount, pool: p }));
        if (!result.ok) return true;
        for (const value of Object.values(result.amounts)) expect(value).toBeGreaterThanOrEqual(0n);
        expect(result.amounts.minimumAmountOut).toBeLessThanOrEqual(result.amounts.amountOut);
        if (type === 'EXACT_OUTPUT') expect(result.amounts.minimumAmountOut).toBe(result.amounts.amountOut);
        return true;
      }),
    );
  });

  it('input = output + fees + swap impact, in USD, within rounding', () => {
    fc.assert(
      fc.property(pool, tradeType.chain((type) => fc.tuple(fc.constant(type), amountFor(type))), (p, [type, amount]) => {
        const result = computeRouteQuote(swapInput({ tradeType: type, amount, pool: p }));
        if (!result.ok) return true;
        const a = result.amounts;
        const usdIn = usdMicrosOf(a.amountIn, ETH);
        const usdFees = usdMicrosOf(a.relayer, ETH);
        const usdOut = usdMicrosOf(a.amountOut, USDC);
        // what the pool kept (negative when the pool sits above the fixture price)
        const swapImpact = usdMicrosOf(a.destinationAmountIn, ETH) - usdOut;
        // rounding: a few micro-USD from truncations, plus one smallest unit of ETH of ceil/floor slack
        const slack = usdIn - (usdOut + usdFees + swapImpact);
        expect(slack).toBeGreaterThanOrEqual(-3n);
        expect(slack).toBeLessThanOrEqual(3n + usdMicrosOf(2n * 10n ** 12n, ETH) / 10n ** 6n + 1n);
        return true;
      }),
    );
  });

  it('EXACT_OUTPUT delivers exactly the amount or refunds, whatever the pool did since the quote', () => {
    fc.assert(
      fc.property(pool, amountFor('EXACT_OUTPUT'), fc.bigInt({ min: 50n, max: 150n }), fc.bigInt({ min: 0n, max: 2n }), (p, amount, movePercent, depositDelta) => {
        const input = swapInput({ tradeType: 'EXACT_OUTPUT', amount, pool: p });
        const result = computeRouteQuote(input);
        if (!result.ok) return true;
        const poolNow = { ...p, reserveOut: (p.reserveOut * movePercent) / 100n };
        const deposited = result.amounts.amountIn - 1n + depositDelta;
        const decision = revalidateRouteQuote(
          { tradeType: 'EXACT_OUTPUT', amounts: result.amounts, currencyIn: ETH, currencyOut: USDC, solverCurrency: ETH, serviceFeeBps: 10n, quotedPool: p, poolNow },
          deposited,
        );
        if (decision.kind === 'fill') {
          expect(decision.amountOut).toBe(amount);
          expect(deposited).toBeGreaterThanOrEqual(result.amounts.amountIn);
          // the solver spends no more than the deposit is worth after fees
          expect(getAmountOut(decision.destinationAmountIn, poolNow.reserveIn, poolNow.reserveOut, p.feeBps)).toBeGreaterThanOrEqual(amount);
        } else {
          expect(['DEPOSITED_AMOUNT_TOO_LOW_TO_FILL', 'SLIPPAGE']).toContain(decision.failReason);
        }
        if (movePercent >= 100n && deposited >= result.amounts.amountIn) expect(decision.kind).toBe('fill');
        if (deposited < result.amounts.amountIn) expect(decision).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
        return true;
      }),
    );
  });

  it('EXACT_INPUT and EXPECTED_OUTPUT deliver at least the minimum or refund with SLIPPAGE when only the pool moved', () => {
    fc.assert(
      fc.property(pool, fc.constantFrom('EXACT_INPUT', 'EXPECTED_OUTPUT' as const), fc.bigInt({ min: 50n, max: 150n }), (p, type, movePercent) => {
        const amount = type === 'EXACT_INPUT' ? 10n ** 18n : 2_000n * 10n ** 6n;
        const result = computeRouteQuote(swapInput({ tradeType: type, amount, pool: p }));
        if (!result.ok) return true;
        const poolNow = { ...p, reserveOut: (p.reserveOut * movePercent) / 100n };
        const decision = revalidateRouteQuote(
          { tradeType: type, amounts: result.amounts, currencyIn: ETH, currencyOut: USDC, solverCurrency: ETH, serviceFeeBps: 10n, quotedPool: p, poolNow },
          result.amounts.amountIn,
        );
        if (decision.kind === 'fill') expect(decision.amountOut).toBeGreaterThanOrEqual(result.amounts.minimumAmountOut);
        else expect(decision.failReason).toBe('SLIPPAGE');
        if (movePercent >= 100n) expect(decision).toMatchObject({ kind: 'fill' });
        return true;
      }),
    );
  });

  it('without a pool (bridge, send, wrap) the route quote is the bridge fee model: output crosses 1:1 at fixture prices', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 10n ** 15n, max: 10n ** 21n }), (amount) => {
        const result = computeRouteQuote(swapInput({ tradeType: 'EXACT_INPUT', amount, pool: null, currencyOut: POL, solverCurrency: POL }));
        if (!result.ok) return true;
        expect(result.amounts.amountOut).toBe(convertAmount(amount - result.amounts.relayer, ETH, POL, 'down'));
        return true;
      }),
    );
  });
});
