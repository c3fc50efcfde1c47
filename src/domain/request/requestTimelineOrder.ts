/**
 * The order of a request's timeline (the explorer's request page): quote, then its status changes
 * in event order, each followed by the transactions recorded after it, with webhook attempts after
 * the change they report. Chains time their blocks in whole seconds and the simulator's virtual
 * clock runs in milliseconds (and may stand still), so times from the two are never compared:
 * a transaction is placed by the status event it was recorded after (`recordedAfterEventSeq`),
 * else just before the first status change that reported its hash; only items of the virtual
 * clock (webhook attempts, reorg detections) are placed by time among the status changes.
 */

export interface TimelineStatusChange {
  seq: number;
  /** Virtual clock, unix ms. */
  at: number;
}

export interface TimelineTransaction {
  key: string;
  /** The status event it was recorded after, when the record kept it. */
  recordedAfterEventSeq?: number;
  /** The first status event that reported its hash, if any. */
  reportedBySeq?: number;
}

/** An item of the virtual clock: a webhook attempt (after `afterEventSeq`, the change it reports) or a reorg detection. */
export interface TimelineClockItem {
  key: string;
  at: number;
  afterEventSeq?: number;
}

export interface TimelineOrderInput {
  quoteKey: string;
  statusChanges: readonly TimelineStatusChange[];
  /** In record order (inTxs, then outTxs). */
  transactions: readonly TimelineTransaction[];
  clockItems: readonly TimelineClockItem[];
}

/** The keys a request's timeline items are named by (the explorer route's order, the page's items). */
export const timelineKeys = {
  quote: 'quote',
  status: (seq: number) => `status:${seq}`,
  transaction: (side: 'in' | 'out', index: number) => `tx:${side}:${index}`,
  reorg: (side: 'in' | 'out', index: number) => `reorg:${side}:${index}`,
  webhookAttempt: (deliveryId: number, attempt: number) => `webhook:${deliveryId}:${attempt}`,
  webhookDue: (deliveryId: number) => `webhook-due:${deliveryId}`,
};

/** Every item's key, in the order things happened. */
export function orderRequestTimeline(input: TimelineOrderInput): string[] {
  const changes = [...input.statusChanges].sort((a, b) => a.seq - b.seq);
  // the index of the last change at or before an event seq: -1 is "right after the quote"
  const indexAfterSeq = (seq: number) => changes.reduce((found, change, index) => (change.seq <= seq ? index : found), -1);
  const indexAfterTime = (at: number) => changes.reduce((found, change, index) => (change.at <= at ? index : found), -1);

  const placed: Array<{ key: string; anchor: number; rank: number; at: number; order: number }> = [];
  changes.forEach((change, index) => placed.push({ key: timelineKeys.status(change.seq), anchor: index, rank: 0, at: 0, order: 0 }));
  input.transactions.forEach((tx, order) => {
    const anchor =
      tx.recordedAfterEventSeq !== undefined
        ? indexAfterSeq(tx.recordedAfterEventSeq)
        : tx.reportedBySeq !== undefined
          ? indexAfterSeq(tx.reportedBySeq) - 1
          : changes.length - 1;
    placed.push({ key: tx.key, anchor, rank: 1, at: 0, order });
  });
  input.clockItems.forEach((item, order) => {
    const anchor = Math.max(indexAfterTime(item.at), item.afterEventSeq === undefined ? -1 : indexAfterSeq(item.afterEventSeq));
    placed.push({ key: item.key, anchor, rank: 2, at: item.at, order });
  });
  placed.sort((a, b) => a.anchor - b.anchor || a.rank - b.rank || a.at - b.at || a.order - b.order);
  return [input.quoteKey, ...placed.map((item) => item.key)];
}
