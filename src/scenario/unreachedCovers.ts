import type { CommittedStatusChange } from '../events/RequestEventBus';

/**
 * The `covers:` items of kinds a run can show (status, transition, failReason, refundFailReason)
 * that no request of the run reached: a scenario counts in docs/coverage.md only for what it
 * really made happen.
 */
export function unreachedCovers(covers: readonly string[], changes: readonly CommittedStatusChange[]): string[] {
  const reached = new Set<string>();
  for (const change of changes) {
    reached.add(`status:${change.to}`);
    if (change.from) reached.add(`transition:${change.from}->${change.to}`);
    if (change.record.failReason) reached.add(`failReason:${change.record.failReason}`);
    if (change.record.refundFailReason) reached.add(`refundFailReason:${change.record.refundFailReason}`);
  }
  return covers.filter((item) => /^(status|transition|failReason|refundFailReason):/.test(item) && !reached.has(item.trim()));
}
