import type { RequestRecord, TransactionEntry } from '../../domain/request/requestRecord';
import { orderRequestTimeline, timelineKeys, type TimelineClockItem, type TimelineTransaction } from '../../domain/request/requestTimelineOrder';
import type { RequestEventRow } from '../../store/RequestStore';
import type { WebhookAttempt, WebhookDelivery } from '../../store/WebhookStore';

/** The hashes a status event reported (SPEC §6.1 `inTxHashes`, `txHashes`), lower-cased. */
export function reportedHashesOf(event: RequestEventRow): { inTxHashes: string[]; txHashes: string[] } {
  const hashes = event.payload as { inTxHashes?: string[]; txHashes?: string[] };
  return { inTxHashes: hashes.inTxHashes ?? [], txHashes: hashes.txHashes ?? [] };
}

/**
 * The request page's timeline, as item keys in the order things happened
 * (`domain/request/requestTimelineOrder.ts`).
 */
export function explorerTimelineOrder(record: RequestRecord, events: readonly RequestEventRow[], deliveries: ReadonlyArray<{ delivery: WebhookDelivery; attempts: readonly WebhookAttempt[] }>): string[] {
  const reportedBy = (tx: TransactionEntry) =>
    events.find((event) => {
      const { inTxHashes, txHashes } = reportedHashesOf(event);
      return [...inTxHashes, ...txHashes].some((hash) => hash.toLowerCase() === tx.txHash.toLowerCase());
    })?.seq;
  const sides = [['in', record.inTxs], ['out', record.outTxs]] as const;
  const transactions: TimelineTransaction[] = sides.flatMap(([side, entries]) =>
    entries.map((tx, index) => {
      const reportedBySeq = reportedBy(tx);
      return {
        key: timelineKeys.transaction(side, index),
        ...(tx.recordedAfterEventSeq === undefined ? {} : { recordedAfterEventSeq: tx.recordedAfterEventSeq }),
        ...(reportedBySeq === undefined ? {} : { reportedBySeq }),
      };
    }),
  );
  const reorgs: TimelineClockItem[] = sides.flatMap(([side, entries]) =>
    entries.flatMap((tx, index) => (tx.metadata?.reorg ? [{ key: timelineKeys.reorg(side, index), at: tx.metadata.reorg.detectedAt }] : [])),
  );
  const webhooks: TimelineClockItem[] = deliveries.flatMap(({ delivery, attempts }) => [
    ...attempts.map((attempt) => ({ key: timelineKeys.webhookAttempt(delivery.id, attempt.attempt), at: attempt.at, afterEventSeq: delivery.eventSeq })),
    ...(delivery.state === 'pending' && delivery.nextAttemptAt !== null ? [{ key: timelineKeys.webhookDue(delivery.id), at: delivery.nextAttemptAt, afterEventSeq: delivery.eventSeq }] : []),
  ]);
  return orderRequestTimeline({
    quoteKey: timelineKeys.quote,
    statusChanges: events.map((event) => ({ seq: event.seq, at: event.at })),
    transactions,
    clockItems: [...reorgs, ...webhooks],
  });
}
