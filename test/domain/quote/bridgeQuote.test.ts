import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TRADE_TYPES, type FillDecision, type PricedCurrency, type QuoteAmounts, type TradeType } from '../../../src/domain/quote/quoteAmounts';
import { computeRouteQuote, revalidateRouteQuote } from '../../../src/domain/quote/routePricing';
import { convertAmount } from '../../../src/domain/money/usdValue';

// covers: failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL, failReason:NEGATIVE_NEW_AMOUNT_AFTER_FEES

const BPS = 10_000n;

/**
 * A bridge is the transfer case of the route math (docs/endpoints.md ("Fee model")): the solver pays the
 * output currency itself, 1:1 at fixture prices, through no pool.
 */
interface BridgeQuoteInput {
  tradeType: TradeType;
  amount: bigint;
  currencyIn: PricedCurrency;
  currencyOut: PricedCurrency;
  fillGasCost: { amount: bigint; currency: PricedCurrency };
  serviceFeeBps: bigint;
  slippageBps: bigint;
}

function computeBridgeQuote(input: BridgeQuoteInput): { ok: true; amounts: QuoteAmounts } | { ok: false; reason: 'AMOUNT_TOO_LOW_FOR_FEES' | 'ZERO_AMOUNT' } {
  const result = computeRouteQuote({ ...input, solverCurrency: input.currencyOut, pool: null });
  if (!result.ok) return { ok: false, reason: result.reason === 'ZERO_AMOUNT' ? 'ZERO_AMOUNT' : 'AMOUNT_TOO_LOW_FOR_FEES' };
  const { destinationAmountIn: _solverSpends, ...amounts } = result.amounts;
  return { ok: true, amounts };
}

/** The bridge case of fill-time revalidation (no pool, so never SLIPPAGE). */
function decideFillForDeposit(
  quote: { tradeType: TradeType; amounts: QuoteAmounts; currencyIn: PricedCurrency; currencyOut: PricedCurrency; serviceFeeBps: bigint },
  deposited: bigint,
): FillDecision {
  const decision = revalidateRouteQuote(
    { ...quote, amounts: { ...quote.amounts, destinationAmountIn: quote.amounts.amountOut }, solverCurrency: quote.currencyOut, quotedPool: null, poolNow: null },
    deposited,
  );
  if (decision.kind === 'fill') return { kind: 'fill', amountOut: decision.amountOut };
  return { kind: 'refund', failReason: decision.failReason === 'SLIPPAGE' ? 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' : decision.failReason };
}

/** Realistic micro-USD prices (USD per whole unit × 1e6). */
const ETH: PricedCurrency = { decimals: 18, priceUsdMicros: 3_000_000_000n };
const USDC: PricedCurrency = { decimals: 6, priceUsdMicros: 1_000_000n };
const POL: PricedCurrency = { decimals: 18, priceUsdMicros: 500_000n };
const BTC: PricedCurrency = { decimals: 8, priceUsdMicros: 60_000_000_000n };
const SOL: PricedCurrency = { decimals: 9, priceUsdMicros: 150_000_000n };

const fixedCurrency = fc.constantFrom(ETH, USDC, POL, BTC, SOL);
const anyCurrency: fc.Arbitrary<PricedCurrency> = fc.oneof(
  fixedCurrency,
  fc.record({
    decimals: fc.constantFrom(6, 8, 9, 18),
    // from a hundredth of a cent to 100k USD per whole unit
    priceUsdMicros: fc.bigInt({ min: 10_000n, max: 100_000_000_000n }),
  }),
);

/** Same currency on both sides (a bridge) or two different ones (different decimals/prices). */
const currencyPair = fc.oneof(
  fixedCurrency.map((c) => [c, c] as const),
  fc.tuple(anyCurrency, anyCurrency),
);

const tradeType = fc.constantFrom<TradeType>(...TRADE_TYPES);

/** An amount in whole units 0.000001 .. 10^7 of the currency, in its smallest unit (plus dust). */
function amountFor(currency: PricedCurrency): fc.Arbitrary<bigint> {
  const unit = 10n ** BigInt(currency.decimals);
  return fc.oneof(
    fc.bigInt({ min: 1n, max: 10_000_000n * unit }),
    fc.bigInt({ min: 1n, max: 1000n }),
  );
}

const quoteInput: fc.Arbitrary<BridgeQuoteInput> = fc
  .tuple(currencyPair, tradeType, fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: 10_000n }))
  .chain(([[currencyIn, currencyOut], type, serviceFeeBps, slippageBps]) =>
    fc.record({
      tradeType: fc.constant(type),
      amount: amountFor(type === 'EXACT_INPUT' ? currencyIn : currencyOut),
      currencyIn: fc.constant(currencyIn),
      currencyOut: fc.constant(currencyOut),
      // a fill costs 0 .. 0.01 ETH of gas (21k–300k gas at up to ~30 gwei)
      fillGasCost: fc.record({ amount: fc.bigInt({ min: 0n, max: 10n ** 16n }), currency: fc.constant(ETH) }),
      serviceFeeBps: fc.constant(serviceFeeBps),
      slippageBps: fc.constant(slippageBps),
    }),
  );

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function quoteOf(input: BridgeQuoteInput, amounts: QuoteAmounts) {
  return { tradeType: input.tradeType, amounts, currencyIn: input.currencyIn, currencyOut: input.currencyOut, serviceFeeBps: input.serviceFeeBps };
}

function mustQuote(input: BridgeQuoteInput): QuoteAmounts {
  const result = computeBridgeQuote(input);
  if (!result.ok) throw new Error(`expected a quote, got ${result.reason}`);
  return result.amounts;
}

describe('computeBridgeQuote properties', () => {
  it('never produces a negative amount, and relayer = relayerGas + relayerService', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const result = computeBridgeQuote(input);
        if (!result.ok) return;
        const a = result.amounts;
        for (const value of [a.amountIn, a.amountOut, a.minimumAmountOut, a.relayerGas, a.relayerService, a.relayer]) {
          expect(value).toBeGreaterThanOrEqual(0n);
        }
        expect(a.amountIn).toBeGreaterThan(0n);
        expect(a.amountOut).toBeGreaterThan(0n);
        expect(a.relayer).toBe(a.relayerGas + a.relayerService);
        expect(a.minimumAmountOut).toBeLessThanOrEqual(a.amountOut);
      }),
      { numRuns: 500 },
    );
  });

  it('amountIn == value(amountOut in input units, rounded up) + relayerGas + relayerService, within one output unit of rounding', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const result = computeBridgeQuote(input);
        if (!result.ok) return;
        const a = result.amounts;
        const outInInputUnits = convertAmount(a.amountOut, input.currencyOut, input.currencyIn, 'up');
        const rebuilt = outInInputUnits + a.relayerGas + a.relayerService;
        if (input.tradeType === 'EXACT_INPUT') {
          // amountOut was rounded down from the net input: the rebuilt input may fall short of
          // amountIn by less than one output unit (expressed in input units), never exceed it
          const oneOutputUnit = convertAmount(1n, input.currencyOut, input.currencyIn, 'up');
          expect(rebuilt).toBeLessThanOrEqual(a.amountIn);
          expect(a.amountIn - rebuilt).toBeLessThanOrEqual(oneOutputUnit);
        } else {
          expect(rebuilt).toBe(a.amountIn);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('relayerGas is the fill gas converted into the input currency, rounded up', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const result = computeBridgeQuote(input);
        if (!result.ok) return;
        const expected = convertAmount(input.fillGasCost.amount, input.fillGasCost.currency, input.currencyIn, 'up');
        expect(result.amounts.relayerGas).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('the service fee is ceil(amountIn × bps / 10000) (EXACT_INPUT by construction, and the other trade types too)', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const result = computeBridgeQuote(input);
        if (!result.ok) return;
        expect(result.amounts.relayerService).toBe(ceilDiv(result.amounts.amountIn * input.serviceFeeBps, BPS));
      }),
      { numRuns: 500 },
    );
  });

  it('EXACT_INPUT keeps the amount as amountIn and minimumAmountOut == floor(amountOut × (10000 − slippage) / 10000)', () => {
    fc.assert(
      fc.property(
        quoteInput.filter((input) => input.tradeType === 'EXACT_INPUT'),
        (input) => {
          const result = computeBridgeQuote(input);
          if (!result.ok) return;
          expect(result.amounts.amountIn).toBe(input.amount);
          expect(result.amounts.minimumAmountOut).toBe((result.amounts.amountOut * (BPS - input.slippageBps)) / BPS);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('EXPECTED_OUTPUT quotes exactly the named output and applies the slippage tolerance to it', () => {
    fc.assert(
      fc.property(
        quoteInput.filter((input) => input.tradeType === 'EXPECTED_OUTPUT'),
        (input) => {
          const a = mustQuote(input);
          expect(a.amountOut).toBe(input.amount);
          expect(a.minimumAmountOut).toBe((a.amountOut * (BPS - input.slippageBps)) / BPS);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("EXACT_OUTPUT's minimumAmountOut == amountOut == the named amount, whatever the slippage", () => {
    fc.assert(
      fc.property(
        quoteInput.filter((input) => input.tradeType === 'EXACT_OUTPUT'),
        (input) => {
          const a = mustQuote(input);
          expect(a.amountOut).toBe(input.amount);
          expect(a.minimumAmountOut).toBe(a.amountOut);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an amount of 0 (or less) is ZERO_AMOUNT for every trade type', () => {
    fc.assert(
      fc.property(quoteInput, fc.bigInt({ min: -(10n ** 20n), max: 0n }), (input, amount) => {
        expect(computeBridgeQuote({ ...input, amount })).toEqual({ ok: false, reason: 'ZERO_AMOUNT' });
      }),
      { numRuns: 200 },
    );
  });

  it('EXACT_INPUT is AMOUNT_TOO_LOW_FOR_FEES exactly when the fees leave nothing to deliver', () => {
    fc.assert(
      fc.property(
        quoteInput.filter((input) => input.tradeType === 'EXACT_INPUT'),
        (input) => {
          const gas = convertAmount(input.fillGasCost.amount, input.fillGasCost.currency, input.currencyIn, 'up');
          const service = ceilDiv(input.amount * input.serviceFeeBps, BPS);
          const net = input.amount - gas - service;
          const out = net > 0n ? convertAmount(net, input.currencyIn, input.currencyOut, 'down') : 0n;
          const result = computeBridgeQuote(input);
          if (out <= 0n) expect(result).toEqual({ ok: false, reason: 'AMOUNT_TOO_LOW_FOR_FEES' });
          else expect(result.ok).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('EXACT_INPUT fees that exceed the input give AMOUNT_TOO_LOW_FOR_FEES', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 1000n }),
        (gas, extra, serviceFeeBps) => {
          // gas alone is at least the whole input
          const amount = gas > extra ? gas - extra : gas;
          const result = computeBridgeQuote({
            tradeType: 'EXACT_INPUT',
            amount,
            currencyIn: ETH,
            currencyOut: ETH,
            fillGasCost: { amount: gas, currency: ETH },
            serviceFeeBps,
            slippageBps: 50n,
          });
          expect(result).toEqual({ ok: false, reason: 'AMOUNT_TOO_LOW_FOR_FEES' });
        },
      ),
    );
  });

  it('the output trade types never reject a positive amount for fees (the input grows instead)', () => {
    fc.assert(
      fc.property(
        quoteInput.filter((input) => input.tradeType !== 'EXACT_INPUT'),
        (input) => {
          const result = computeBridgeQuote(input);
          expect(result.ok).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('decideFillForDeposit properties', () => {
  const quotedInput = quoteInput.filter((input) => computeBridgeQuote(input).ok);

  it('a deposit exactly equal to amountIn fills exactly amountOut, for every trade type', () => {
    fc.assert(
      fc.property(quotedInput, (input) => {
        const amounts = mustQuote(input);
        expect(decideFillForDeposit(quoteOf(input, amounts), amounts.amountIn)).toEqual({ kind: 'fill', amountOut: amounts.amountOut });
      }),
      { numRuns: 500 },
    );
  });

  it('EXACT_OUTPUT: a deposit ≥ amountIn fills exactly amountOut; a deposit < amountIn refunds', () => {
    fc.assert(
      fc.property(
        quotedInput.filter((input) => input.tradeType === 'EXACT_OUTPUT'),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.boolean(),
        (input, delta, over) => {
          const amounts = mustQuote(input);
          const quote = quoteOf(input, amounts);
          if (over) {
            expect(decideFillForDeposit(quote, amounts.amountIn + delta)).toEqual({ kind: 'fill', amountOut: amounts.amountOut });
          } else {
            const deposited = amounts.amountIn - 1n - (delta % amounts.amountIn);
            expect(deposited).toBeGreaterThanOrEqual(0n);
            expect(decideFillForDeposit(quote, deposited)).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('EXACT_INPUT / EXPECTED_OUTPUT: a deposit above amountIn fills at least amountOut, never less', () => {
    fc.assert(
      fc.property(
        quotedInput.filter((input) => input.tradeType !== 'EXACT_OUTPUT'),
        fc.bigInt({ min: 1n, max: 10n ** 22n }),
        (input, extra) => {
          const amounts = mustQuote(input);
          const decision = decideFillForDeposit(quoteOf(input, amounts), amounts.amountIn + extra);
          expect(decision.kind).toBe('fill');
          if (decision.kind === 'fill') expect(decision.amountOut).toBeGreaterThanOrEqual(amounts.amountOut);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('EXACT_INPUT / EXPECTED_OUTPUT: an underpayment fills at least minimumAmountOut (priced at the quoted fees) or refunds', () => {
    fc.assert(
      fc.property(
        quotedInput.filter((input) => input.tradeType !== 'EXACT_OUTPUT'),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        (input, shortfallSeed) => {
          const amounts = mustQuote(input);
          const deposited = amounts.amountIn - 1n - ((shortfallSeed - 1n) % amounts.amountIn);
          const decision = decideFillForDeposit(quoteOf(input, amounts), deposited);
          const service = ceilDiv(deposited * input.serviceFeeBps, BPS);
          const net = deposited - amounts.relayerGas - service;
          if (net <= 0n) {
            expect(decision).toEqual({ kind: 'refund', failReason: 'NEGATIVE_NEW_AMOUNT_AFTER_FEES' });
            return;
          }
          const worth = convertAmount(net, input.currencyIn, input.currencyOut, 'down');
          if (worth < amounts.minimumAmountOut) {
            expect(decision).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
          } else {
            expect(decision).toEqual({ kind: 'fill', amountOut: worth });
            expect(worth).toBeLessThanOrEqual(amounts.amountOut);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('computeBridgeQuote / decideFillForDeposit fixed examples (hand-computed)', () => {
  it('1 ETH → ETH, EXACT_INPUT, 21000 gas at 1 gwei, 10 bps fee, 50 bps slippage', () => {
    const input: BridgeQuoteInput = {
      tradeType: 'EXACT_INPUT',
      amount: 10n ** 18n,
      currencyIn: ETH,
      currencyOut: ETH,
      fillGasCost: { amount: 21_000n * 1_000_000_000n, currency: ETH },
      serviceFeeBps: 10n,
      slippageBps: 50n,
    };
    // relayerGas = 2.1e13; service = 1e18 × 10 / 10000 = 1e15; out = 1e18 − 2.1e13 − 1e15
    expect(computeBridgeQuote(input)).toEqual({
      ok: true,
      amounts: {
        amountIn: 1_000_000_000_000_000_000n,
        amountOut: 998_979_000_000_000_000n,
        // 998979e12 × 9950 / 10000
        minimumAmountOut: 993_984_105_000_000_000n,
        relayerGas: 21_000_000_000_000n,
        relayerService: 1_000_000_000_000_000n,
        relayer: 1_021_000_000_000_000n,
      },
    });
  });

  it('25 USDC → USDC, EXACT_OUTPUT, 0.0002 ETH of gas (= 0.6 USDC), 10 bps fee', () => {
    const input: BridgeQuoteInput = {
      tradeType: 'EXACT_OUTPUT',
      amount: 25_000_000n,
      currencyIn: USDC,
      currencyOut: USDC,
      fillGasCost: { amount: 200_000_000_000_000n, currency: ETH },
      serviceFeeBps: 10n,
      slippageBps: 50n,
    };
    // relayerGas = 2e14 wei × 3000 USD = 0.6 USD = 600000; amountIn = ceil(25.6e6 × 10000 / 9990) = 25625626
    const amounts = mustQuote(input);
    expect(amounts).toEqual({
      amountIn: 25_625_626n,
      amountOut: 25_000_000n,
      minimumAmountOut: 25_000_000n,
      relayerGas: 600_000n,
      relayerService: 25_626n,
      relayer: 625_626n,
    });
    const quote = quoteOf(input, amounts);
    expect(decideFillForDeposit(quote, 25_625_626n)).toEqual({ kind: 'fill', amountOut: 25_000_000n });
    expect(decideFillForDeposit(quote, 30_000_000n)).toEqual({ kind: 'fill', amountOut: 25_000_000n });
    expect(decideFillForDeposit(quote, 25_625_625n)).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
  });

  it('0.01 ETH (18 decimals) → USDC (6 decimals), EXACT_INPUT, 1e14 wei of gas, 100 bps slippage', () => {
    const input: BridgeQuoteInput = {
      tradeType: 'EXACT_INPUT',
      amount: 10_000_000_000_000_000n,
      currencyIn: ETH,
      currencyOut: USDC,
      fillGasCost: { amount: 100_000_000_000_000n, currency: ETH },
      serviceFeeBps: 10n,
      slippageBps: 100n,
    };
    // net = 1e16 − 1e14 − 1e13 = 9.89e15 wei = 29.67 USD
    const amounts = mustQuote(input);
    expect(amounts).toEqual({
      amountIn: 10_000_000_000_000_000n,
      amountOut: 29_670_000n,
      minimumAmountOut: 29_373_300n,
      relayerGas: 100_000_000_000_000n,
      relayerService: 10_000_000_000_000n,
      relayer: 110_000_000_000_000n,
    });
    const quote = quoteOf(input, amounts);
    // half the deposit: net = 5e15 − 1e14 − 5e12 = 4.895e15 wei = 14.685 USD < 29.3733 → refund
    expect(decideFillForDeposit(quote, 5_000_000_000_000_000n)).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
    // 0.0099 ETH: net = 9.9e15 − 1e14 − 9.9e12 = 9.7901e15 wei = 29.3703 USD < 29.3733 → refund
    expect(decideFillForDeposit(quote, 9_900_000_000_000_000n)).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
    // 0.00991 ETH: net = 9.91e15 − 1e14 − 9.91e12 = 9.80009e15 wei = 29.40027 USD ≥ 29.3733 → fill
    expect(decideFillForDeposit(quote, 9_910_000_000_000_000n)).toEqual({ kind: 'fill', amountOut: 29_400_270n });
    // 0.02 ETH: net = 2e16 − 1e14 − 2e13 = 1.988e16 wei = 59.64 USD
    expect(decideFillForDeposit(quote, 20_000_000_000_000_000n)).toEqual({ kind: 'fill', amountOut: 59_640_000n });
    // less than the gas alone
    expect(decideFillForDeposit(quote, 99_000_000_000_000n)).toEqual({ kind: 'refund', failReason: 'NEGATIVE_NEW_AMOUNT_AFTER_FEES' });
  });

  it('rounds the service fee up: 12345 units at 10 bps pay 13 (12.345 rounded up)', () => {
    const amounts = mustQuote({
      tradeType: 'EXACT_INPUT',
      amount: 12_345n,
      currencyIn: USDC,
      currencyOut: USDC,
      fillGasCost: { amount: 0n, currency: ETH },
      serviceFeeBps: 10n,
      slippageBps: 0n,
    });
    expect(amounts).toMatchObject({ relayerService: 13n, relayerGas: 0n, amountOut: 12_332n, minimumAmountOut: 12_332n });
  });

  it('1 unit of USDC cannot pay for any gas: AMOUNT_TOO_LOW_FOR_FEES; 0 is ZERO_AMOUNT', () => {
    const base: BridgeQuoteInput = {
      tradeType: 'EXACT_INPUT',
      amount: 1n,
      currencyIn: USDC,
      currencyOut: USDC,
      fillGasCost: { amount: 21_000n * 1_000_000_000n, currency: ETH },
      serviceFeeBps: 10n,
      slippageBps: 50n,
    };
    expect(computeBridgeQuote(base)).toEqual({ ok: false, reason: 'AMOUNT_TOO_LOW_FOR_FEES' });
    expect(computeBridgeQuote({ ...base, amount: 0n })).toEqual({ ok: false, reason: 'ZERO_AMOUNT' });
    expect(computeBridgeQuote({ ...base, tradeType: 'EXACT_OUTPUT', amount: 0n })).toEqual({ ok: false, reason: 'ZERO_AMOUNT' });
  });
});
