import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { actualAppFees, splitAppFees } from '../../../src/domain/quoteOptions/appFees';
import { TRADE_TYPES, type PricedCurrency } from '../../../src/domain/quote/quoteAmounts';
import { resolveFeeSponsorship, SPONSOR_COMPONENTS, type SponsorComponent } from '../../../src/domain/quoteOptions/feeSponsorship';
import { decideFixedRateFill } from '../../../src/domain/quoteOptions/fixedRate';
import { gasTopUpAmount, usdMicrosIn } from '../../../src/domain/quoteOptions/gasTopUp';
import { computeQuoteWithOptions } from '../../../src/domain/quoteOptions/priceWithOptions';
import { convertAmount, usdMicrosOf } from '../../../src/domain/money/usdValue';

const BPS = 10_000n;
const ETH: PricedCurrency = { decimals: 18, priceUsdMicros: 3_000_000_000n };
const USDC: PricedCurrency = { decimals: 6, priceUsdMicros: 1_000_000n };
const currency = fc.constantFrom(ETH, USDC);

const appFees = fc.array(fc.record({ recipient: fc.constantFrom('0xa', '0xb', '0xc'), bps: fc.bigInt({ min: 0n, max: 1000n }) }), { maxLength: 3 });
const components = fc.subarray([...SPONSOR_COMPONENTS] as SponsorComponent[]);

const scenario = fc.record({
  currency,
  tradeType: fc.constantFrom(...TRADE_TYPES),
  whole: fc.bigInt({ min: 1n, max: 1_000_000n }),
  serviceFeeBps: fc.bigInt({ min: 0n, max: 500n }),
  slippageBps: fc.bigInt({ min: 0n, max: 10_000n }),
  fillGasWei: fc.bigInt({ min: 0n, max: 10n ** 16n }),
  appFees,
  spreadBps: fc.option(fc.bigInt({ min: 0n, max: 500n }), { nil: null }),
  topUpWei: fc.bigInt({ min: 0n, max: 10n ** 15n }),
  sponsorship: fc.option(fc.record({ selected: components, capUsd: fc.option(fc.bigInt({ min: 0n, max: 100_000_000n }), { nil: null }) }), { nil: null }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;
function run(s: Scenario) {
  const cap = s.sponsorship?.capUsd ?? null;
  return computeQuoteWithOptions(
    {
      tradeType: s.tradeType,
      amount: s.whole * 10n ** BigInt(s.currency.decimals - 3),
      currencyIn: s.currency,
      currencyOut: s.currency,
      solverCurrency: s.currency,
      pool: null,
      fillGasCost: { amount: s.fillGasWei, currency: ETH },
      serviceFeeBps: s.serviceFeeBps,
      slippageBps: s.slippageBps,
    },
    {
      appFees: s.appFees,
      fixedRateSpreadBps: s.spreadBps,
      gasTopUp: s.topUpWei,
      sponsorship: s.sponsorship ? { selected: s.sponsorship.selected, cap: cap === null ? null : usdMicrosIn(cap, s.currency) } : null,
    },
  );
}

describe('quote options math (bigint, pure)', () => {
  it('amounts are never negative; input + sponsored = output + fees, exactly for a bridge of one currency', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const result = run(s);
        if (!result.ok) return;
        const q = result.quote;
        for (const value of [q.amounts.amountIn, q.amounts.amountOut, q.amounts.minimumAmountOut, q.amounts.relayerGas, q.amounts.relayerService, q.appFee, q.spread, q.sponsored]) {
          expect(value >= 0n).toBe(true);
        }
        expect(q.amounts.minimumAmountOut <= q.amounts.amountOut).toBe(true);
        expect(q.appFees.reduce((sum, fee) => sum + fee.amount, 0n)).toBe(q.appFee);
        const fees = q.amounts.relayer + q.appFee + q.spread;
        const lhs = q.amounts.amountIn + q.sponsored;
        const rhs = q.amounts.amountOut + fees;
        if (s.tradeType === 'EXACT_INPUT') expect(lhs).toBe(rhs);
        // output trade types round the input up: never short, at most the bps rounding over
        else expect(lhs - rhs >= 0n && lhs - rhs <= 2n).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('sponsorship never exceeds its cap nor the selected buckets, and capHit says whether the cap bit', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const result = run(s);
        if (!result.ok || !result.quote.sponsorship) return;
        const sp = result.quote.sponsorship;
        if (sp.cap !== null) expect(sp.sponsoredTotal <= sp.cap).toBe(true);
        let selectedTotal = 0n;
        for (const c of SPONSOR_COMPONENTS) {
          const b = sp.components[c];
          expect(b.sponsored + b.userPays).toBe(b.total);
          expect(b.sponsored >= 0n && b.userPays >= 0n).toBe(true);
          if (!b.selected) expect(b.sponsored).toBe(0n);
          else selectedTotal += b.total;
        }
        expect(sp.capHit).toBe(sp.cap !== null && selectedTotal > sp.cap);
        expect(result.quote.sponsored).toBe(sp.sponsoredTotal);
      }),
      { numRuns: 500 },
    );
  });

  it('a sponsored quote never costs the user more, nor delivers less, than the same quote unsponsored', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const sponsored = run(s);
        const plain = run({ ...s, sponsorship: null });
        if (!sponsored.ok || !plain.ok) return;
        expect(sponsored.quote.amounts.amountIn <= plain.quote.amounts.amountIn).toBe(true);
        expect(sponsored.quote.amounts.amountOut >= plain.quote.amounts.amountOut).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('an app fee is bps of the input, paid on top: EXACT_INPUT delivers less, EXACT_OUTPUT charges more', () => {
    const base = { amount: 10n ** 18n, currencyIn: ETH, currencyOut: ETH, solverCurrency: ETH, pool: null, fillGasCost: { amount: 10n ** 14n, currency: ETH }, serviceFeeBps: 10n, slippageBps: 50n };
    const none = { appFees: [], fixedRateSpreadBps: null, gasTopUp: 0n, sponsorship: null };
    const withFee = { ...none, appFees: [{ recipient: '0xa', bps: 100n }, { recipient: '0xb', bps: 50n }] };
    const exactIn = computeQuoteWithOptions({ ...base, tradeType: 'EXACT_INPUT' }, withFee);
    const exactInPlain = computeQuoteWithOptions({ ...base, tradeType: 'EXACT_INPUT' }, none);
    if (!exactIn.ok || !exactInPlain.ok) throw new Error('quote failed');
    // one rounding over all bps fees (ceil(1e18 × 160 / 1e4)), then split by bps
    expect(exactIn.quote.appFee).toBe(15n * 10n ** 15n);
    expect(exactIn.quote.appFees.map((f) => f.amount)).toEqual([10n ** 16n, 5n * 10n ** 15n]);
    expect(exactInPlain.quote.amounts.amountOut - exactIn.quote.amounts.amountOut).toBe(15n * 10n ** 15n);

    const exactOut = computeQuoteWithOptions({ ...base, tradeType: 'EXACT_OUTPUT' }, withFee);
    const exactOutPlain = computeQuoteWithOptions({ ...base, tradeType: 'EXACT_OUTPUT' }, none);
    if (!exactOut.ok || !exactOutPlain.ok) throw new Error('quote failed');
    expect(exactOut.quote.amounts.amountOut).toBe(10n ** 18n);
    expect(exactOut.quote.amounts.amountIn > exactOutPlain.quote.amounts.amountIn).toBe(true);
  });

  it('fees of 10000 bps or more are refused rather than dividing by zero', () => {
    const result = computeQuoteWithOptions(
      { tradeType: 'EXACT_OUTPUT', amount: 1000n, currencyIn: USDC, currencyOut: USDC, solverCurrency: USDC, pool: null, fillGasCost: { amount: 0n, currency: ETH }, serviceFeeBps: 10n, slippageBps: 0n },
      { appFees: [{ recipient: '0xa', bps: 9990n }], fixedRateSpreadBps: null, gasTopUp: 0n, sponsorship: null },
    );
    expect(result).toEqual({ ok: false, reason: 'FEES_EXCEED_INPUT' });
  });

  it('a fixed-rate quote has no slippage: its minimum is its output', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const result = run({ ...s, spreadBps: s.spreadBps ?? 0n });
        if (!result.ok) return;
        expect(result.quote.amounts.minimumAmountOut).toBe(result.quote.amounts.amountOut);
      }),
      { numRuns: 200 },
    );
  });
});

describe('app fee shares, gas top-up and fixed-rate fills', () => {
  it('shares add up to the total exactly and follow the bps', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), appFees, (total, entries) => {
        const shares = splitAppFees(total, entries);
        const bps = entries.reduce((sum, e) => sum + e.bps, 0n);
        expect(shares.reduce((sum, s) => sum + s.amount, 0n)).toBe(bps === 0n ? 0n : total);
        for (const share of shares) expect(share.amount >= 0n).toBe(true);
        for (const [i, share] of shares.entries()) if (entries[i]!.bps === 0n) expect(share.amount).toBe(0n);
      }),
    );
  });

  it('actual app fees equal the quoted ones for the quoted deposit and scale with another deposit', () => {
    const quoted = [{ recipient: '0xa', bps: 100n, amount: 1000n }];
    expect(actualAppFees(quoted, 100_000n, 100_000n)).toEqual(quoted);
    expect(actualAppFees(quoted, 100_000n, 50_000n)[0]!.amount).toBe(500n);
  });

  it('a top-up is its USD value in the destination native currency, rounded down, never negative', () => {
    expect(gasTopUpAmount(2_000_000n, ETH)).toBe((2n * 10n ** 18n) / 3000n);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 9n), max: 10n ** 12n }), currency, (usd, c) => {
        const amount = gasTopUpAmount(usd, c);
        expect(amount >= 0n).toBe(true);
        if (usd > 0n) expect(usdMicrosOf(amount, c) <= usd).toBe(true);
      }),
    );
  });

  it('a fixed-rate fill pays the quoted rate: exact for the quoted input, pro rata above, refund below', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.bigInt({ min: 0n, max: 10n ** 21n }), fc.boolean(), (amountIn, amountOut, deposited, exactOutput) => {
        const decision = decideFixedRateFill({ amountIn, amountOut, exactOutput }, deposited);
        if (deposited < amountIn) expect(decision).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
        else if (exactOutput || deposited === amountIn) expect(decision).toEqual({ kind: 'fill', amountOut });
        else {
          expect(decision.kind).toBe('fill');
          if (decision.kind === 'fill') expect(decision.amountOut).toBe((amountOut * deposited) / amountIn);
        }
      }),
    );
  });

  it('the sponsorship cap is read in USD micro-units and converted into the input currency rounding down', () => {
    expect(usdMicrosIn(3_000_000_000n, ETH)).toBe(10n ** 18n);
    expect(convertAmount(usdMicrosIn(1_500_000n, USDC), USDC, USDC, 'down')).toBe(1_500_000n);
    const resolution = resolveFeeSponsorship({ totals: { execution: 700n, swap: 0n, platform: 500n, app: 300n, rent: 50n }, selected: ['execution', 'platform', 'app'], cap: 1000n });
    expect(resolution.components.execution.sponsored).toBe(700n);
    expect(resolution.components.platform.sponsored).toBe(300n);
    expect(resolution.components.app.sponsored).toBe(0n);
    expect(resolution.capHit).toBe(true);
    expect(resolution.userPaysTotal).toBe(550n);
    expect(BPS).toBe(10_000n);
  });
});
