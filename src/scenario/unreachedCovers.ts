import type { CommittedStatusChange } from '../events/RequestEventBus';
import type { RequestRecord } from '../domain/request/requestRecord';

/**
 * The `covers:` items of kinds a run can show (status, transition, failReason, refundFailReason)
 * that no request of the run reached: a scenario counts in docs/coverage.md only for what it
 * really made happen.
 */
export function unreachedCovers(covers: readonly string[], changes: readonly CommittedStatusChange[], finalRecords: readonly RequestRecord[]): string[] {
  const reached = new Set<string>();
  const reasonsOf = (record: RequestRecord) => {
    if (record.failReason) reached.add(`failReason:${record.failReason}`);
    if (record.refundFailReason) reached.add(`refundFailReason:${record.refundFailReason}`);
  };
  for (const change of changes) {
    reached.add(`status:${change.to}`);
    if (change.from) reached.add(`transition:${change.from}->${change.to}`);
    reasonsOf(change.record);
  }
  // a reason can also arrive as a fact after the last status change (a refund that was not sent)
  finalRecords.forEach(reasonsOf);
  return covers.filter((item) => /^(status|transition|failReason|refundFailReason):/.test(item) && !reached.has(item.trim()));
}
