import type { ChainAdapter } from '../chains/ChainAdapter';
import type { TradeType } from '../domain/quote/quoteAmounts';
import { classifyRequest, OPERATION_OF } from '../domain/quote/classifyRequest';
import type { Currency } from '../domain/chain/currency';
import type { DestinationCall, QuoteRoute, RequestType } from '../domain/request/requestRecord';
import { planRoute } from '../domain/quote/planRoute';
import { orientedReserves } from '../chains/orientedReserves';
import { computeQuoteWithOptions, type QuoteOptionsInput, type QuoteWithOptions } from '../domain/quoteOptions/priceWithOptions';
import type { RouteQuoteAmounts } from '../domain/quote/routePricing';
import { formatUsd, usdMicrosOf } from '../domain/money/usdValue';
import { formatAmount } from '../domain/money/formatAmount';
import { maxUint256 } from 'viem';
import { AmountTooLowError, AmountTooLowForFeesError, InsufficientLiquidityError, NoRouteError, SolverCapacityExceededError } from '../errors/quoteErrors';

export interface PlanQuoteRouteParams {
  origin: ChainAdapter;
  destination: ChainAdapter;
  currencyIn: Currency;
  currencyOut: Currency;
  tradeType: TradeType;
  amount: bigint;
  calls: DestinationCall[];
  serviceFeeBps: bigint;
  slippageBps: bigint;
  /** Gas units of the fill measured by simulation, when known (replaces the calibrated estimate). */
  fillGasUnits?: bigint;
  /** SPEC §1.6 options priced into the quote (app fees, sponsorship, top-up, fixed rate). */
  options?: QuoteOptionsInput;
}

export interface PlannedQuoteRoute {
  requestType: RequestType;
  operation: (typeof OPERATION_OF)[RequestType];
  route: QuoteRoute;
  amounts: RouteQuoteAmounts;
  /** The service fee this route charges (0 for fee-free types). */
  serviceFeeBps: bigint;
  /** What the options added: app fees, spread, sponsorship (zeros without options). */
  priced: Omit<QuoteWithOptions, 'amounts'>;
}

const NO_OPTIONS: QuoteOptionsInput = { appFees: [], fixedRateSpreadBps: null, gasTopUp: 0n, sponsorship: null };

/** SPEC §7.1, §8: a same-chain swap worth more than $0 and less than this is rejected (micro-USD). */
export const SAME_CHAIN_SWAP_MINIMUM_USD_MICROS = 50_000n;

/** Request types whose fill the solver pays for without relayer fees (the real service self-executes them). */
const FEE_FREE: ReadonlySet<RequestType> = new Set(['Wrap', 'Unwrap']);

/**
 * The quote pipeline's middle: classification (SPEC §1.2), route planning (which inventory the
 * solver spends on the destination and how: transfer, wrap, unwrap, pool swap) and pricing
 * against the pool's real reserves read now (SPEC §2.2, §1.5).
 */
export async function planQuoteRoute(params: PlanQuoteRouteParams): Promise<PlannedQuoteRoute> {
  const { origin, destination, currencyIn, currencyOut } = params;
  const requestType = classifyRequest({
    originChainId: origin.chainId,
    destinationChainId: destination.chainId,
    currencyIn,
    currencyOut,
    wrappedNativeAddress: destination.liquidity().wrappedNative.address,
    callCount: params.calls.length,
  });
  if (requestType === 'Same-chain Swap') {
    const usd = params.tradeType === 'EXACT_INPUT' ? usdMicrosOf(params.amount, currencyIn) : usdMicrosOf(params.amount, currencyOut);
    if (usd > 0n && usd < SAME_CHAIN_SWAP_MINIMUM_USD_MICROS) {
      throw new AmountTooLowError(`same-chain swaps must be worth at least $0.05 (this one is worth $${formatUsd(usd)})`);
    }
  }
  const planned = planRoute(currencyIn, currencyOut, origin.liquidity(), destination.liquidity());
  if (!planned.ok) {
    throw new NoRouteError(`no route from ${currencyIn.symbol} on chain ${origin.chainId} to ${currencyOut.symbol} on chain ${destination.chainId}: ${planned.reason}`);
  }
  const { plan } = planned;
  const quotedPool = await orientedReserves(destination, plan.action);
  const feeFree = FEE_FREE.has(requestType);
  const fillGasCost =
    params.fillGasUnits === undefined ? destination.gasCosts.fill(plan.solverCurrency, plan.action.kind) : destination.gasCosts.ofGasUnits(params.fillGasUnits);
  const result = computeQuoteWithOptions({
    tradeType: params.tradeType,
    amount: params.amount,
    currencyIn,
    currencyOut,
    solverCurrency: plan.solverCurrency,
    pool: quotedPool,
    fillGasCost: feeFree ? { ...fillGasCost, amount: 0n } : fillGasCost,
    serviceFeeBps: feeFree ? 0n : params.serviceFeeBps,
    slippageBps: params.slippageBps,
  }, params.options ?? NO_OPTIONS);
  if (!result.ok) {
    if (result.reason === 'INSUFFICIENT_LIQUIDITY') {
      throw new InsufficientLiquidityError(`the ${currencyOut.symbol} pool on chain ${destination.chainId} cannot deliver ${formatAmount(params.amount, currencyOut)}`);
    }
    throw new AmountTooLowForFeesError(
      result.reason === 'ZERO_AMOUNT'
        ? 'amount must be greater than zero'
        : result.reason === 'FEES_EXCEED_INPUT'
          ? 'the service, app and fixed-rate fees together must be below 10000 bps'
          : 'amount is too low to cover the fees of this route',
    );
  }
  const { amounts, ...priced } = result.quote;
  // EXACT_OUTPUT near the top of the range: the input it needs can pass what a token amount can hold
  const largest = [amounts.amountIn, amounts.amountOut, amounts.destinationAmountIn].reduce((a, b) => (a > b ? a : b));
  if (largest > maxUint256) {
    throw new SolverCapacityExceededError(`this quote needs an amount above 2^256 - 1 (${largest}), more than any token can hold; quote a smaller amount`);
  }
  return {
    requestType,
    operation: OPERATION_OF[requestType],
    route: { solverCurrency: plan.solverCurrency, action: plan.action, destinationAmountIn: amounts.destinationAmountIn, quotedPool },
    amounts,
    serviceFeeBps: feeFree ? 0n : params.serviceFeeBps,
    priced,
  };
}
