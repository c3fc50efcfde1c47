import type { Currency } from './currency';
import { computeRouteQuote, revalidateRouteQuote } from './routeQuote';

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

/**
 * The fee model of a bridge (README "Fee model"): the transfer case of `computeRouteQuote` —
 * the solver pays the output currency itself, 1:1 at fixture prices, no pool.
 */
export function computeBridgeQuote(input: BridgeQuoteInput): BridgeQuoteResult {
  const result = computeRouteQuote({ ...input, solverCurrency: input.currencyOut, pool: null });
  if (!result.ok) return { ok: false, reason: result.reason === 'ZERO_AMOUNT' ? 'ZERO_AMOUNT' : 'AMOUNT_TOO_LOW_FOR_FEES' };
  const { destinationAmountIn: _solverSpends, ...amounts } = result.amounts;
  return { ok: true, amounts };
}

export type FillDecision =
  | { kind: 'fill'; amountOut: bigint }
  | { kind: 'refund'; failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' | 'NEGATIVE_NEW_AMOUNT_AFTER_FEES' };

/**
 * What the solver pays for a deposit of `deposited` against a bridge quote (SPEC §1.4): the
 * transfer case of `revalidateRouteQuote` (no pool, so never SLIPPAGE).
 */
export function decideFillForDeposit(
  quote: { tradeType: TradeType; amounts: BridgeQuoteAmounts; currencyIn: PricedCurrency; currencyOut: PricedCurrency; serviceFeeBps: bigint },
  deposited: bigint,
): FillDecision {
  const decision = revalidateRouteQuote(
    { ...quote, amounts: { ...quote.amounts, destinationAmountIn: quote.amounts.amountOut }, solverCurrency: quote.currencyOut, quotedPool: null, poolNow: null },
    deposited,
  );
  if (decision.kind === 'fill') return { kind: 'fill', amountOut: decision.amountOut };
  return { kind: 'refund', failReason: decision.failReason === 'SLIPPAGE' ? 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' : decision.failReason };
}
