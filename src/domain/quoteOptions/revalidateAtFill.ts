import { decideFixedRateFill } from './fixedRate';
import type { QuoteOptionFacts } from './storedOptionFacts';
import { revalidateRouteQuote, type RevalidationInput, type RouteFillDecision } from '../quote/routePricing';

/**
 * SPEC §1.4 revalidation with the quote's options (§1.6): a fixed-rate quote pays at its fixed
 * rate (the solver's inventory spent pro rata); otherwise the route rule with every bps fee
 * (service + app) recomputed on the deposit and the sponsored amount kept on the user's side.
 */
export function revalidateWithOptions(quote: RevalidationInput, options: QuoteOptionFacts | undefined, deposited: bigint): RouteFillDecision {
  if (options?.fixedRate) {
    const { amountIn, amountOut, destinationAmountIn } = quote.amounts;
    const decision = decideFixedRateFill({ amountIn, amountOut, exactOutput: quote.tradeType === 'EXACT_OUTPUT' }, deposited);
    if (decision.kind === 'refund') return decision;
    const scaled = decision.amountOut === amountOut ? destinationAmountIn : (destinationAmountIn * deposited) / amountIn;
    return { kind: 'fill', amountOut: decision.amountOut, destinationAmountIn: scaled };
  }
  return revalidateRouteQuote({ ...quote, serviceFeeBps: quote.serviceFeeBps + (options?.appFeeBps ?? 0n), sponsored: options?.sponsored ?? 0n }, deposited);
}
