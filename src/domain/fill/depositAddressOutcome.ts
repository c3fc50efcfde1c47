import type { RequestRecord } from '../request/requestRecord';

/**
 * How much of a deposit a request counts (SPEC §3 related rules): a strict deposit address
 * (`useDepositAddress` + `strict`) takes exactly the quoted input — an underpayment is refunded
 * whole, an overpayment counts the quoted input and its excess goes back in a separate refund
 * leg. Every other request — an open deposit address included — counts what arrived and is
 * revalidated against it (§1.4), like a depository deposit.
 */
export type CountedDeposit = { kind: 'refund'; failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' } | { kind: 'count'; counted: bigint; excess: bigint };

export function countDeposit(record: Pick<RequestRecord, 'quote' | 'depositAddress'>, deposited: bigint): CountedDeposit {
  if (record.depositAddress?.type !== 'strict') return { kind: 'count', counted: deposited, excess: 0n };
  const { amountIn } = record.quote.amounts;
  if (deposited < amountIn) return { kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' };
  return { kind: 'count', counted: amountIn, excess: deposited - amountIn };
}

/** Where refunds go (SPEC §2.3 `refundTo`): the request's `refundTo` when given, else the depositor. */
export function refundRecipientOf(record: Pick<RequestRecord, 'refundTo'>, depositor: string): string {
  return record.refundTo ?? depositor;
}
