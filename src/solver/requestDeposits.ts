import type { Address } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { IndexedDeposit } from '../domain/chain/observedDeposit';
import { duplicateDepositRecord, orphanDepositRecord, strayDepositRecordId } from '../domain/fill/strayDepositRecord';
import type { RequestRecord } from '../domain/request/requestRecord';
import type { RequestStatus } from '../domain/request/requestStatus';
import { createRequest, type RequestLifecycle } from '../lifecycle/transitionRequest';
import type { ChainIndexStore } from '../store/ChainIndexStore';
import type { RequestStore } from '../store/RequestStore';

/** Which deposits belong to which request record, as the solver reads them. */

function holds(record: RequestRecord | undefined, deposit: Pick<IndexedDeposit, 'chainId' | 'txHash'>): record is RequestRecord {
  return record?.inTxs.some((tx) => tx.chainId === deposit.chainId && tx.txHash.toLowerCase() === deposit.txHash.toLowerCase()) ?? false;
}

/** The record that already holds this deposit: the request it names, or the stray deposit's own record. */
export function recordHoldingDeposit(requests: RequestStore, named: RequestRecord | undefined, deposit: IndexedDeposit): RequestRecord | undefined {
  if (holds(named, deposit)) return named;
  const stray = requests.get(strayDepositRecordId(deposit));
  return holds(stray, deposit) ? stray : undefined;
}

/**
 * The deposit a request took (its first `inTxs` deposit), as the chain index has it now, while
 * it is canonical. Another deposit naming the same request (a duplicate, on any chain) is not it.
 */
export function depositHeldBy(chainIndex: ChainIndexStore, record: RequestRecord): IndexedDeposit | undefined {
  const entry = record.inTxs.find((tx) => tx.type === 'deposit');
  if (!entry) return undefined;
  return chainIndex
    .depositsInTransaction(entry.chainId, entry.txHash)
    .find((deposit) => (entry.data.logIndex === undefined || deposit.logIndex === entry.data.logIndex) && deposit.state === 'canonical');
}

/** When a request first reached `status` (the simulator's clock, unix ms), if it did. */
export function firstStatusAt(requests: RequestStore, requestId: string, status: RequestStatus): number | undefined {
  return requests.eventsFor(requestId).find((event) => event.toStatus === status)?.at;
}

/**
 * Creates (in `waiting`) the record of a deposit no request can take (see `strayDepositRecord`):
 * a duplicate of `named`'s quote, or, when no request has the id the deposit names, an orphan's.
 * A record made before (the same deposit seen again before it moved on) is returned as it is.
 * Undefined: an orphan in a currency the chain does not know, which nothing can describe or refund.
 */
export function openStrayDepositRecord(
  lifecycle: RequestLifecycle,
  chain: ChainAdapter,
  named: RequestRecord | undefined,
  deposit: IndexedDeposit,
  now: number,
): RequestRecord | undefined {
  const existing = lifecycle.requests.get(strayDepositRecordId(deposit));
  if (existing) return existing.status === 'waiting' ? existing : undefined;
  let record: RequestRecord;
  if (named) {
    record = duplicateDepositRecord(named, deposit, now);
  } else {
    const currency = chain.findCurrency(deposit.currency);
    if (!currency) return undefined;
    record = orphanDepositRecord(deposit, currency, chain.describe().depository as Address, now);
  }
  createRequest(lifecycle, record);
  return record;
}
