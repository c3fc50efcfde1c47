import type { RequestRecord } from '../request/requestRecord';

/** One recipient's share of a request's app fees, as the balance it adds to. */
export interface AppFeeCreditEntry {
  requestId: string;
  /** Index in `appFees.actual`: a request credits each entry once. */
  position: number;
  wallet: string;
  chainId: number;
  currency: string;
  amount: bigint;
}

/**
 * SPEC §1.6: what a request that reached `success` adds to its app fee recipients' balances:
 * each non-zero share of `appFees.actual`, in the currency the fees were collected in (the origin
 * chain's stablecoin). Nothing for a request in any other status, or without actual app fees.
 */
export function appFeeCreditsOf(record: RequestRecord): AppFeeCreditEntry[] {
  if (record.status !== 'success' || !record.appFees) return [];
  const { currency } = record.appFees;
  return record.appFees.actual
    .map((fee, position) => ({ requestId: record.id, position, wallet: fee.recipient, chainId: currency.chainId, currency: currency.address, amount: fee.amount }))
    .filter((credit) => credit.amount > 0n);
}
