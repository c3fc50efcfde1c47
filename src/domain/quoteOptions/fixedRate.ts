import type { FillDecision } from '../quote/quoteAmounts';

/**
 * Fixed rate (SPEC §1.6, §2.2 `isFixedRate`): the quote's rate is held for the fill. The spread
 * (`fixedRate`, basis points of the input) is what the user pays for that guarantee; at fill
 * time the deposit is paid at exactly the quoted rate — no fee recomputation, no slippage:
 * the quoted input gets the quoted output, a larger deposit gets proportionally more, a smaller
 * one is refunded.
 */
export function decideFixedRateFill(quote: { amountIn: bigint; amountOut: bigint; exactOutput: boolean }, deposited: bigint): FillDecision {
  if (deposited < quote.amountIn) return { kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' };
  if (quote.exactOutput || deposited === quote.amountIn) return { kind: 'fill', amountOut: quote.amountOut };
  return { kind: 'fill', amountOut: (quote.amountOut * deposited) / quote.amountIn };
}
