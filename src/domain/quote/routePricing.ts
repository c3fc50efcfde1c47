import type { QuoteAmounts, PricedCurrency, TradeType } from './quoteAmounts';
import { getAmountIn, getAmountOut } from './constantProduct';
import { convertAmount } from '../money/usdValue';

/** Pool reserves oriented for one swap: solver currency in, pool output out. */
export interface OrientedReserves {
  reserveIn: bigint;
  reserveOut: bigint;
  feeBps: bigint;
}

export interface RouteQuoteInput {
  tradeType: TradeType;
  /** The amount the user named: the input for EXACT_INPUT, the output otherwise. */
  amount: bigint;
  currencyIn: PricedCurrency;
  currencyOut: PricedCurrency;
  /** What the solver spends on the destination (see `planRoute`). */
  solverCurrency: PricedCurrency;
  /** Reserves read now for a swap; null when the destination pays without a pool (transfer, wrap, unwrap). */
  pool: OrientedReserves | null;
  /** What the destination fill costs the solver in gas, in the destination's native currency. */
  fillGasCost: { amount: bigint; currency: PricedCurrency };
  /** The service fee in basis points of the input. */
  serviceFeeBps: bigint;
  /** Slippage tolerance in basis points (0..10000). */
  slippageBps: bigint;
}

export interface RouteQuoteAmounts extends QuoteAmounts {
  /** What the solver spends from its inventory on the destination, in `solverCurrency` units. */
  destinationAmountIn: bigint;
}

export type RouteQuoteResult =
  | { ok: true; amounts: RouteQuoteAmounts }
  | { ok: false; reason: 'AMOUNT_TOO_LOW_FOR_FEES' | 'ZERO_AMOUNT' | 'INSUFFICIENT_LIQUIDITY' };

const BPS = 10_000n;

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** What `destinationAmountIn` of the solver currency delivers (through the pool, or 1:1 at fixture prices). */
export function deliveredFor(
  destinationAmountIn: bigint,
  route: { solverCurrency: PricedCurrency; currencyOut: PricedCurrency; pool: OrientedReserves | null },
): bigint {
  if (route.pool) return getAmountOut(destinationAmountIn, route.pool.reserveIn, route.pool.reserveOut, route.pool.feeBps);
  return convertAmount(destinationAmountIn, route.solverCurrency, route.currencyOut, 'down');
}

/** The solver currency needed to deliver `amountOut`, or null when the pool cannot. */
export function requiredFor(
  amountOut: bigint,
  route: { solverCurrency: PricedCurrency; currencyOut: PricedCurrency; pool: OrientedReserves | null },
): bigint | null {
  if (route.pool) return getAmountIn(amountOut, route.pool.reserveIn, route.pool.reserveOut, route.pool.feeBps);
  return convertAmount(amountOut, route.currencyOut, route.solverCurrency, 'up');
}

/** `deposited` less the fill gas and the bps fees, plus what a sponsor covers, in the input currency. */
function netOfFees(deposited: bigint, relayerGas: bigint, serviceFeeBps: bigint, sponsored = 0n): bigint {
  return deposited - relayerGas - ceilDiv(deposited * serviceFeeBps, BPS) + sponsored;
}

/**
 * The fee and trade-type model of every request type (docs/endpoints.md ("Fee model")), bigint throughout:
 *   relayerGas     = fill gas cost in the input currency, rounded up
 *   relayerService = ceil(amountIn × serviceFeeBps / 10000)
 *   the rest of the input crosses at fixture prices into the solver currency
 *   (rounded against the user), and the destination turns that into the output —
 *   1:1 at fixture prices, or through the pool's real reserves.
 * EXACT_INPUT fixes amountIn; EXPECTED_OUTPUT and EXACT_OUTPUT fix amountOut (SPEC §1.5).
 * minimumAmountOut applies the slippage tolerance except for EXACT_OUTPUT, which delivers
 * exactly amountOut or refunds.
 */
export function computeRouteQuote(input: RouteQuoteInput): RouteQuoteResult {
  if (input.amount <= 0n) return { ok: false, reason: 'ZERO_AMOUNT' };
  const relayerGas = convertAmount(input.fillGasCost.amount, input.fillGasCost.currency, input.currencyIn, 'up');

  let amountIn: bigint;
  let amountOut: bigint;
  let relayerService: bigint;
  let destinationAmountIn: bigint;
  if (input.tradeType === 'EXACT_INPUT') {
    amountIn = input.amount;
    relayerService = ceilDiv(amountIn * input.serviceFeeBps, BPS);
    const net = amountIn - relayerGas - relayerService;
    if (net <= 0n) return { ok: false, reason: 'AMOUNT_TOO_LOW_FOR_FEES' };
    destinationAmountIn = convertAmount(net, input.currencyIn, input.solverCurrency, 'down');
    amountOut = deliveredFor(destinationAmountIn, input);
    if (amountOut <= 0n) return { ok: false, reason: 'AMOUNT_TOO_LOW_FOR_FEES' };
  } else {
    amountOut = input.amount;
    const required = requiredFor(amountOut, input);
    if (required === null) return { ok: false, reason: 'INSUFFICIENT_LIQUIDITY' };
    destinationAmountIn = required;
    const netIn = convertAmount(destinationAmountIn, input.solverCurrency, input.currencyIn, 'up');
    amountIn = ceilDiv((netIn + relayerGas) * BPS, BPS - input.serviceFeeBps);
    relayerService = amountIn - netIn - relayerGas;
  }

  const minimumAmountOut = input.tradeType === 'EXACT_OUTPUT' ? amountOut : (amountOut * (BPS - input.slippageBps)) / BPS;
  return {
    ok: true,
    amounts: { amountIn, amountOut, minimumAmountOut, relayerGas, relayerService, relayer: relayerGas + relayerService, destinationAmountIn },
  };
}

export type RouteFillDecision =
  | { kind: 'fill'; amountOut: bigint; destinationAmountIn: bigint }
  | { kind: 'refund'; failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' | 'NEGATIVE_NEW_AMOUNT_AFTER_FEES' | 'SLIPPAGE' };

export interface RevalidationInput {
  tradeType: TradeType;
  amounts: RouteQuoteAmounts;
  currencyIn: PricedCurrency;
  currencyOut: PricedCurrency;
  solverCurrency: PricedCurrency;
  /** Every bps fee of the quote (service, plus app fees when the quote has them). */
  serviceFeeBps: bigint;
  /** A flat amount a sponsor covers (input units; SPEC §1.6 fee sponsorship). */
  sponsored?: bigint;
  /** The pool as quoted (null without a pool). */
  quotedPool: OrientedReserves | null;
  /** The pool as it is now, at fill time. */
  poolNow: OrientedReserves | null;
}

/**
 * What the solver does with a deposit of `deposited` (SPEC §1.4: quotes are revalidated when
 * filled). EXACT_INPUT and EXPECTED_OUTPUT deliver what the deposit is worth after the quoted
 * fees at today's reserves, at least minimumAmountOut; EXACT_OUTPUT delivers exactly amountOut
 * when the deposit covers amountIn and today's pool still sells amountOut for what the deposit
 * is worth. Refund reasons: the deposit itself is short → DEPOSITED_AMOUNT_TOO_LOW_TO_FILL (or
 * NEGATIVE_NEW_AMOUNT_AFTER_FEES when nothing is left after fees); the pool moved → SLIPPAGE.
 */
export function revalidateRouteQuote(quote: RevalidationInput, deposited: bigint): RouteFillDecision {
  const { amounts } = quote;
  const now = { solverCurrency: quote.solverCurrency, currencyOut: quote.currencyOut, pool: quote.poolNow };
  if (quote.tradeType === 'EXACT_OUTPUT') {
    if (deposited < amounts.amountIn) return { kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' };
    const available = convertAmount(netOfFees(deposited, amounts.relayerGas, quote.serviceFeeBps, quote.sponsored), quote.currencyIn, quote.solverCurrency, 'down');
    const needed = requiredFor(amounts.amountOut, now);
    if (needed === null || needed > available) return { kind: 'refund', failReason: 'SLIPPAGE' };
    return { kind: 'fill', amountOut: amounts.amountOut, destinationAmountIn: needed };
  }
  let destinationAmountIn = amounts.destinationAmountIn;
  if (deposited !== amounts.amountIn) {
    const net = netOfFees(deposited, amounts.relayerGas, quote.serviceFeeBps, quote.sponsored);
    if (net <= 0n) return { kind: 'refund', failReason: 'NEGATIVE_NEW_AMOUNT_AFTER_FEES' };
    destinationAmountIn = convertAmount(net, quote.currencyIn, quote.solverCurrency, 'down');
  }
  const asQuoted = deliveredFor(destinationAmountIn, { ...now, pool: quote.quotedPool });
  if (asQuoted < amounts.minimumAmountOut) return { kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' };
  const amountOut = deliveredFor(destinationAmountIn, now);
  if (amountOut < amounts.minimumAmountOut) return { kind: 'refund', failReason: 'SLIPPAGE' };
  return { kind: 'fill', amountOut, destinationAmountIn };
}
