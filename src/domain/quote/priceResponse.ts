import type { QuoteResponse } from './quoteResponse';

/**
 * `POST /price` (SPEC §4.7): the quote's `fees` and the lightweight part of its `details`
 * (the fields the service's published `/price` response names) — no steps, no calldata.
 */
export function buildPriceResponse(quote: QuoteResponse) {
  const d = quote.details;
  return {
    fees: quote.fees,
    details: {
      operation: d.operation,
      sender: d.sender,
      recipient: d.recipient,
      currencyIn: d.currencyIn,
      currencyOut: d.currencyOut,
      totalImpact: d.totalImpact,
      swapImpact: d.swapImpact,
      rate: d.rate,
      slippageTolerance: d.slippageTolerance,
      timeEstimate: d.timeEstimate,
      userBalance: d.userBalance,
    },
  };
}
