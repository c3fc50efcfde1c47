import type { Currency } from './currency';
import { convertAmount } from './usdValue';

export const TRADE_TYPES = ['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT'] as const;
export type TradeType = (typeof TRADE_TYPES)[number];

export type PricedCurrency = Pick<Currency, 'decimals' | 'priceUsdMicros'>;

export interface BridgeQuoteInput {
  tradeType: TradeType;
  /** The amount the user named: the input for EXACT_INPUT, the output otherwise. */
  amount: bigint;
  currencyIn: PricedCurrency;
  currencyOut: PricedCurrency;
  /** What the destination fill costs the solver in gas, in the destination's native currency. */
  fillGasCost: { amount: bigint; currency: PricedCurrency };
  /** The service fee in basis points of the input. */
  serviceFeeBps: bigint;
  /** Slippage tolerance in basis points (0..10000). */
  slippageBps: bigint;
}

export interface BridgeQuoteAmounts {
  amountIn: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
  /** Fill gas, charged in the input currency. */
  relayerGas: bigint;
  /** Service fee, charged in the input currency. */
  relayerService: bigint;
  /** relayerGas + relayerService. */
  relayer: bigint;
}

export type BridgeQuoteResult = { ok: true; amounts: BridgeQuoteAmounts } | { ok: false; reason: 'AMOUNT_TOO_LOW_FOR_FEES' | 'ZERO_AMOUNT' };

const BPS = 10_000n;

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/**
 * The fee model of a bridge (README "Fee model"), all in bigint smallest units:
 *   relayerGas     = fill gas cost converted into the input currency, rounded up
 *   relayerService = ceil(amountIn × serviceFeeBps / 10000)
 *   amountIn       = value(amountOut, in input units, rounded up) + relayerGas + relayerService
 * EXACT_INPUT fixes amountIn and derives amountOut (rounded down); EXPECTED_OUTPUT and
 * EXACT_OUTPUT fix amountOut and derive amountIn. minimumAmountOut applies the slippage
 * tolerance except for EXACT_OUTPUT, which delivers exactly amountOut or refunds (SPEC §1.5).
 */
export function computeBridgeQuote(input: BridgeQuoteInput): BridgeQuoteResult {
  if (input.amount <= 0n) return { ok: false, reason: 'ZERO_AMOUNT' };
  const relayerGas = convertAmount(input.fillGasCost.amount, input.fillGasCost.currency, input.currencyIn, 'up');

  let amountIn: bigint;
  let amountOut: bigint;
  let relayerService: bigint;
  if (input.tradeType === 'EXACT_INPUT') {
    amountIn = input.amount;
    relayerService = ceilDiv(amountIn * input.serviceFeeBps, BPS);
    const net = amountIn - relayerGas - relayerService;
    if (net <= 0n) return { ok: false, reason: 'AMOUNT_TOO_LOW_FOR_FEES' };
    amountOut = convertAmount(net, input.currencyIn, input.currencyOut, 'down');
    if (amountOut <= 0n) return { ok: false, reason: 'AMOUNT_TOO_LOW_FOR_FEES' };
  } else {
    amountOut = input.amount;
    const netIn = convertAmount(amountOut, input.currencyOut, input.currencyIn, 'up');
    amountIn = ceilDiv((netIn + relayerGas) * BPS, BPS - input.serviceFeeBps);
    relayerService = amountIn - netIn - relayerGas;
  }

  const minimumAmountOut =
    input.tradeType === 'EXACT_OUTPUT' ? amountOut : (amountOut * (BPS - input.slippageBps)) / BPS;
  return {
    ok: true,
    amounts: { amountIn, amountOut, minimumAmountOut, relayerGas, relayerService, relayer: relayerGas + relayerService },
  };
}

export type FillDecision =
  | { kind: 'fill'; amountOut: bigint }
  | { kind: 'refund'; failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' | 'NEGATIVE_NEW_AMOUNT_AFTER_FEES' };

/**
 * What the solver pays for a deposit of `deposited` against a quote (SPEC §1.4: quotes are
 * revalidated when filled). EXACT_INPUT and EXPECTED_OUTPUT pay what the deposit is worth after
 * the quoted fees (at least minimumAmountOut, or refund); EXACT_OUTPUT pays exactly amountOut
 * when the deposit covers amountIn, else refunds.
 */
export function decideFillForDeposit(
  quote: { tradeType: TradeType; amounts: BridgeQuoteAmounts; currencyIn: PricedCurrency; currencyOut: PricedCurrency; serviceFeeBps: bigint },
  deposited: bigint,
): FillDecision {
  const { amounts } = quote;
  if (quote.tradeType === 'EXACT_OUTPUT') {
    return deposited >= amounts.amountIn
      ? { kind: 'fill', amountOut: amounts.amountOut }
      : { kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' };
  }
  if (deposited === amounts.amountIn) return { kind: 'fill', amountOut: amounts.amountOut };
  const service = ceilDiv(deposited * quote.serviceFeeBps, BPS);
  const net = deposited - amounts.relayerGas - service;
  if (net <= 0n) return { kind: 'refund', failReason: 'NEGATIVE_NEW_AMOUNT_AFTER_FEES' };
  const amountOut = convertAmount(net, quote.currencyIn, quote.currencyOut, 'down');
  if (amountOut < amounts.minimumAmountOut) return { kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' };
  return { kind: 'fill', amountOut };
}
