import { decideFillForDeposit, type FillDecision } from './bridgeQuote';
import type { RequestRecord } from './requestRecord';

/** A fill decision plus the part of the deposit paid back in a separate refund leg. */
export type RequestFillDecision = (FillDecision & { kind: 'refund' }) | { kind: 'fill'; amountOut: bigint; excess: bigint };

/**
 * What the solver does with `deposited` for a request (SPEC §1.4 revalidation, §3 related rules).
 * A strict deposit address (`useDepositAddress` + `strict`) takes exactly the quoted input: an
 * exact payment fills the quoted output, an underpayment is refunded whole, an overpayment fills
 * the quoted output and pays the excess back. Every other request — an open deposit address
 * included — is revalidated against what arrived, like a depository deposit.
 */
export function decideFillForRequest(record: Pick<RequestRecord, 'quote' | 'depositAddress'>, deposited: bigint): RequestFillDecision {
  const { quote } = record;
  if (record.depositAddress?.type === 'strict') {
    if (deposited < quote.amounts.amountIn) return { kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' };
    return { kind: 'fill', amountOut: quote.amounts.amountOut, excess: deposited - quote.amounts.amountIn };
  }
  const decision = decideFillForDeposit(quote, deposited);
  return decision.kind === 'fill' ? { ...decision, excess: 0n } : decision;
}

/** Where refunds go (SPEC §2.3 `refundTo`): the request's `refundTo` when given, else the depositor. */
export function refundRecipientOf(record: Pick<RequestRecord, 'refundTo'>, depositor: string): string {
  return record.refundTo ?? depositor;
}
