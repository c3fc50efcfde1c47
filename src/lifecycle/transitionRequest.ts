import type { RequestRecord } from '../domain/request/requestRecord';
import type { RequestStatus } from '../domain/request/requestStatus';
import { buildStatusEventData, type StatusEventData } from '../domain/request/statusResponse';
import { canTransition } from '../domain/request/transitions';
import type { RequestEventBus } from '../events/RequestEventBus';
import type { RequestStore } from '../store/RequestStore';
import type { VirtualClock } from '../clock/VirtualClock';

export interface LifecycleDeps {
  requests: RequestStore;
  clock: VirtualClock;
  bus: RequestEventBus;
  /** Written inside the status change's transaction (the webhook outbox), so a restart loses nothing. */
  outbox?: StatusEventOutbox;
}

/** A committed-with-the-status event, as an outbox writer sees it (inside the transaction). */
export interface StatusEventOutboxEntry {
  seq: number;
  record: RequestRecord;
  at: number;
  data: StatusEventData;
}

export interface StatusEventOutbox {
  enqueue(entry: StatusEventOutboxEntry): void;
}

/** Appends the status event row and the outbox rows; call inside the status change's transaction. */
function appendStatusEvent(deps: LifecycleDeps, record: RequestRecord, from: RequestStatus | null): number {
  const data = buildStatusEventData(record);
  const seq = deps.requests.appendEvent({ requestId: record.id, fromStatus: from, toStatus: record.status, at: record.updatedAt, payload: data });
  deps.outbox?.enqueue({ seq, record, at: record.updatedAt, data });
  return seq;
}

export class IllegalTransitionError extends Error {
  constructor(readonly requestId: string, readonly from: RequestStatus, readonly to: RequestStatus) {
    super(`request ${requestId}: ${from} → ${to} is not a transition of SPEC §3`);
  }
}

export class UnknownRequestError extends Error {
  constructor(readonly requestId: string) {
    super(`request ${requestId} does not exist`);
  }
}

export interface TransitionParams {
  requestId: string;
  to: RequestStatus;
  /** Changes to the record's facts made together with the status (inTxs, failReason, ...). */
  update?: (record: RequestRecord) => void;
}

/**
 * The only function that writes a request's status. It checks the §3 table, applies the
 * facts that came with the change, and writes the request row and its outbox event in one
 * SQLite transaction; listeners hear of it only after the commit.
 */
export function transitionRequest(deps: LifecycleDeps, params: TransitionParams): RequestRecord {
  const committed = deps.requests.db.transaction(() => {
    const record = deps.requests.get(params.requestId);
    if (!record) throw new UnknownRequestError(params.requestId);
    const from = record.status;
    if (!canTransition(from, params.to)) throw new IllegalTransitionError(record.id, from, params.to);
    params.update?.(record);
    record.status = params.to;
    record.updatedAt = deps.clock.now();
    deps.requests.saveRecord(record);
    const seq = appendStatusEvent(deps, record, from);
    return { seq, from, record };
  })();
  deps.bus.publish({
    seq: committed.seq,
    requestId: committed.record.id,
    from: committed.from,
    to: params.to,
    at: committed.record.updatedAt,
    record: committed.record,
  });
  return committed.record;
}

/** Changes a request's facts without changing its status (no event is emitted). */
export function recordRequestFacts(deps: LifecycleDeps, requestId: string, update: (record: RequestRecord) => void): RequestRecord {
  return deps.requests.db.transaction(() => {
    const record = deps.requests.get(requestId);
    if (!record) throw new UnknownRequestError(requestId);
    update(record);
    record.updatedAt = deps.clock.now();
    deps.requests.saveRecord(record);
    return record;
  })();
}

/** Creates a request in `waiting` (at quote time) and records its first event. */
export function createRequest(deps: LifecycleDeps, record: RequestRecord): void {
  const seq = deps.requests.db.transaction(() => {
    deps.requests.insert(record);
    return appendStatusEvent(deps, record, null);
  })();
  deps.bus.publish({ seq, requestId: record.id, from: null, to: record.status, at: record.updatedAt, record });
}
