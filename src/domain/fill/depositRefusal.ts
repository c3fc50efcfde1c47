import type { IndexedDeposit } from '../chain/observedDeposit';
import type { RequestRecord } from '../request/requestRecord';

/** The failReasons of a deposit refunded as it is, before any fill is tried (SPEC §7.2, §7.3). */
export type DepositRefusalReason =
  | 'DOUBLE_SPEND'
  | 'ORPHANED_DEPOSIT_REFUND'
  | 'DEPOSIT_CHAIN_MISMATCH'
  | 'DEPOSIT_ADDRESS_MISMATCH'
  | 'INCORRECT_DEPOSIT_CURRENCY'
  | 'ORIGIN_CURRENCY_MISMATCH'
  | 'ORDER_EXPIRED';

export interface DepositRefusalFacts {
  /** The request that holds the deposit: the one it names, or the record made for a stray deposit. */
  record: Pick<RequestRecord, 'id' | 'quote' | 'depositAddress'>;
  deposit: Pick<IndexedDeposit, 'requestId' | 'chainId' | 'currency'>;
  /** Whether a request with the id the deposit names exists (false: nobody quoted it). */
  namedRequestKnown: boolean;
  /** When the deposit was indexed, on the simulator's clock (unix ms). */
  indexedAtMs: number;
  /** Seconds a quote's order stays fillable (`quoteTtlSeconds`). */
  quoteTtlSeconds: number;
}

/**
 * The protocol order's deadline (SPEC §2.2 `orderData.output.deadline`, unix seconds): quote time
 * plus the quote TTL, as the quote computed it.
 */
export function orderDeadlineOf(quotedAtMs: number, quoteTtlSeconds: number): number {
  return Math.floor(quotedAtMs / 1000) + quoteTtlSeconds;
}

/**
 * Why a deposit is refunded instead of filled, or null when it may be filled. Checked in order:
 * - a deposit held by a record of its own (not the request it names) is a stray: a second deposit
 *   for a request that already had one (DOUBLE_SPEND, §7.2), or one naming no known request
 *   (ORPHANED_DEPOSIT_REFUND);
 * - made on another chain than the quoted origin: DEPOSIT_CHAIN_MISMATCH, or, for a request paid
 *   through a deposit address (the address is the same on every EVM chain), DEPOSIT_ADDRESS_MISMATCH;
 * - in another currency than quoted: INCORRECT_DEPOSIT_CURRENCY for a depository deposit (the
 *   user named the token), ORIGIN_CURRENCY_MISMATCH for a deposit address paid in another token;
 * - indexed after the order's deadline: ORDER_EXPIRED.
 */
export function depositRefusalReason(facts: DepositRefusalFacts): DepositRefusalReason | null {
  const { record, deposit } = facts;
  if (deposit.requestId.toLowerCase() !== record.id.toLowerCase()) return facts.namedRequestKnown ? 'DOUBLE_SPEND' : 'ORPHANED_DEPOSIT_REFUND';
  const viaDepositAddress = record.depositAddress !== null;
  if (deposit.chainId !== record.quote.originChainId) return viaDepositAddress ? 'DEPOSIT_ADDRESS_MISMATCH' : 'DEPOSIT_CHAIN_MISMATCH';
  if (deposit.currency.toLowerCase() !== record.quote.currencyIn.address.toLowerCase()) {
    return viaDepositAddress ? 'ORIGIN_CURRENCY_MISMATCH' : 'INCORRECT_DEPOSIT_CURRENCY';
  }
  if (Math.floor(facts.indexedAtMs / 1000) > orderDeadlineOf(record.quote.quotedAt, facts.quoteTtlSeconds)) return 'ORDER_EXPIRED';
  return null;
}
