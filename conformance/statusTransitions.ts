import { requestStatusValues } from './schemas/failReasonValues';

/** SPEC §3: the request statuses (status lookup, request listing, webhooks). */
export const REQUEST_STATUSES = requestStatusValues;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * SPEC §3 as data: from each status, the statuses it may change to directly. The SPEC shows
 * the states' meanings and one row of the table ("any earlier state → pending" for a BVM
 * mempool deposit); "Full transition table: not shown". The rest is read from the meanings:
 *
 * - waiting (deposit not yet indexed) → depositing (confirmed via `/execute`) → pending (the
 *   deposit was indexed; "any earlier state → pending") → submitted (the fill was submitted)
 *   → success (the fill succeeded); a gasless call with no deposit to fill (§1.6 `/execute`
 *   without a request of its own) goes depositing → success when its relayed transaction lands;
 * - failure ("the fill failed") and refund ("the request was refunded") may end any status
 *   still in progress, and a failure may be refunded;
 * - success → failure: a deposit reorged out after the fill ("the top-level status may flip to
 *   `failure`", §3 related rules).
 *
 * Nothing moves back to an earlier stage of progress, and nothing leaves `refund`.
 */
export const STATUS_TRANSITIONS: Readonly<Record<RequestStatus, readonly RequestStatus[]>> = {
  waiting: ['depositing', 'pending', 'failure', 'refund'],
  depositing: ['pending', 'success', 'failure', 'refund'],
  pending: ['submitted', 'failure', 'refund'],
  submitted: ['success', 'failure', 'refund'],
  success: ['failure'],
  failure: ['refund'],
  refund: [],
};

export function isRequestStatus(value: unknown): value is RequestStatus {
  return typeof value === 'string' && (REQUEST_STATUSES as readonly string[]).includes(value);
}

/** One change the table allows as it stands (every change a webhook receiver is sent). */
export function canChangeDirectly(from: RequestStatus, to: RequestStatus): boolean {
  return STATUS_TRANSITIONS[from].includes(to);
}

/** `to` follows `from` along the table through any number of changes (what a poller may see between two polls). */
export function canReach(from: RequestStatus, to: RequestStatus): boolean {
  const seen = new Set<RequestStatus>([from]);
  const queue: RequestStatus[] = [from];
  while (queue.length > 0) {
    for (const next of STATUS_TRANSITIONS[queue.shift()!]) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

/** The first change in `statuses` (in the order seen) that the table does not allow, or undefined. `direct`: each change must be one step of the table. */
export function firstChangeOffTable(statuses: readonly string[], direct: boolean): { index: number; from: string; to: string } | undefined {
  for (let index = 1; index < statuses.length; index += 1) {
    const from = statuses[index - 1]!;
    const to = statuses[index]!;
    if (from === to) continue;
    const allowed = isRequestStatus(from) && isRequestStatus(to) && (direct ? canChangeDirectly(from, to) : canReach(from, to));
    if (!allowed) return { index, from, to };
  }
  return undefined;
}
