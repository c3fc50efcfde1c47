import type { RequestRecord, TransactionEntry } from '../domain/request/requestRecord';
import type { RequestStatus } from '../domain/request/requestStatus';
import { buildStatusEventData, type StatusEventData } from '../domain/request/statusResponse';
import { canTransition } from '../domain/request/transitions';
import type { RequestEventBus } from '../events/RequestEventBus';
import type { RequestRecordWriter } from '../store/RequestRecordWriter';
import type { RequestStore } from '../store/RequestStore';
import type { VirtualClock } from '../clock/VirtualClock';
import { LifecycleError } from '../errors/IntentsimError';
import { appFeeCreditsOf, type AppFeeCreditEntry } from '../domain/appFees/appFeeCredits';

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

/** Where app fees a successful request collected are credited (inside the status change's transaction). */
export interface AppFeeLedger {
  credit(credits: readonly AppFeeCreditEntry[], at: number): void;
}

export class IllegalTransitionError extends LifecycleError {
  constructor(readonly requestId: string, readonly from: RequestStatus, readonly to: RequestStatus) {
    super(`request ${requestId}: ${from} → ${to} is not a transition of SPEC §3`);
  }
}

export class UnknownRequestError extends LifecycleError {
  constructor(readonly requestId: string) {
    super(`request ${requestId} does not exist`);
  }
}

export class StatusChangedOutsideTransitionError extends LifecycleError {
  constructor(readonly requestId: string) {
    super(`request ${requestId}: a status changes only through transitionRequest, not while recording facts`);
  }
}

/** The fields of a record that are facts: everything but its identity, status and timestamps. */
export type RequestFacts = Omit<RequestRecord, 'id' | 'status' | 'createdAt' | 'updatedAt'>;

export interface TransitionParams {
  requestId: string;
  to: RequestStatus;
  /** Changes to the record's facts made together with the status (inTxs, failReason, ...). */
  update?: (facts: RequestFacts) => void;
}

export interface RequestLifecycleDeps {
  requests: RequestStore;
  /** The only writer of request rows; held here and nowhere else. */
  writer: RequestRecordWriter;
  clock: VirtualClock;
  bus: RequestEventBus;
  /** Written inside the status change's transaction (the webhook outbox), so a restart loses nothing. */
  outbox?: StatusEventOutbox;
  /** SPEC §1.6: credited in the `success` transaction, so a balance and its request never disagree. */
  appFees?: AppFeeLedger;
}

/**
 * The sealed status path. A `RequestLifecycle` is the only holder of the record writer (a
 * private field); every other module gets this object and can read records, create a request
 * in `waiting`, change its status through `transitionRequest` (which checks SPEC §3's table), or
 * record facts that leave the status as it is.
 */
export class RequestLifecycle {
  readonly requests: RequestStore;
  readonly clock: VirtualClock;
  readonly #writer: RequestRecordWriter;
  readonly #bus: RequestEventBus;
  readonly #outbox: StatusEventOutbox | undefined;
  readonly #appFees: AppFeeLedger | undefined;

  constructor(deps: RequestLifecycleDeps) {
    this.requests = deps.requests;
    this.clock = deps.clock;
    this.#writer = deps.writer;
    this.#bus = deps.bus;
    this.#outbox = deps.outbox;
    this.#appFees = deps.appFees;
  }

  /** See `transitionRequest`. */
  transition(params: TransitionParams): RequestRecord {
    const committed = this.#writer.transaction(() => {
      const record = this.#read(params.requestId);
      const from = record.status;
      if (!canTransition(from, params.to)) throw new IllegalTransitionError(record.id, from, params.to);
      const entriesBefore = transactionKeys(record);
      params.update?.(record);
      this.#stampNewEntries(record, entriesBefore);
      record.status = params.to;
      record.updatedAt = this.clock.now();
      this.#writer.saveRecord(record);
      const seq = this.#appendStatusEvent(record, from);
      this.#appFees?.credit(appFeeCreditsOf(record), record.updatedAt);
      return { seq, from, record };
    });
    this.#bus.publish({ seq: committed.seq, requestId: committed.record.id, from: committed.from, to: params.to, at: committed.record.updatedAt, record: committed.record });
    return committed.record;
  }

  /** See `recordRequestFacts`. */
  recordFacts(requestId: string, update: (facts: RequestFacts) => void): RequestRecord {
    return this.#writer.transaction(() => {
      const record = this.#read(requestId);
      const { status } = record;
      const entriesBefore = transactionKeys(record);
      update(record);
      this.#stampNewEntries(record, entriesBefore);
      if (record.status !== status) throw new StatusChangedOutsideTransitionError(record.id);
      record.updatedAt = this.clock.now();
      this.#writer.saveRecord(record);
      return record;
    });
  }

  /** See `createRequest`. */
  create(record: RequestRecord, alsoInTransaction?: () => void): void {
    if (record.status !== 'waiting') throw new IllegalTransitionError(record.id, record.status, 'waiting');
    const seq = this.#writer.transaction(() => {
      alsoInTransaction?.();
      this.#writer.insert(record);
      return this.#appendStatusEvent(record, null);
    });
    this.#bus.publish({ seq, requestId: record.id, from: null, to: record.status, at: record.updatedAt, record });
  }

  /** Marks the transactions this change recorded with the request's last status event (`recordedAfterEventSeq`). */
  #stampNewEntries(record: RequestRecord, before: ReadonlySet<string>): void {
    const added = [...record.inTxs, ...record.outTxs].filter((entry) => !before.has(transactionKey(entry)));
    if (added.length === 0) return;
    const seq = this.requests.lastEventSeq(record.id);
    if (seq === null) return;
    for (const entry of added) entry.recordedAfterEventSeq ??= seq;
  }

  #read(requestId: string): RequestRecord {
    const record = this.requests.get(requestId);
    if (!record) throw new UnknownRequestError(requestId);
    return record;
  }

  /** Appends the status event row and the outbox rows; call inside the status change's transaction. */
  #appendStatusEvent(record: RequestRecord, from: RequestStatus | null): number {
    const data = buildStatusEventData(record);
    const seq = this.#writer.appendEvent({ requestId: record.id, fromStatus: from, toStatus: record.status, at: record.updatedAt, payload: data });
    this.#outbox?.enqueue({ seq, record, at: record.updatedAt, data });
    return seq;
  }
}

function transactionKey(entry: TransactionEntry): string {
  return `${entry.type}:${entry.chainId}:${entry.txHash.toLowerCase()}`;
}

function transactionKeys(record: RequestRecord): Set<string> {
  return new Set([...record.inTxs, ...record.outTxs].map(transactionKey));
}

/**
 * The only function that changes a request's status. It checks the §3 table, applies the facts
 * that came with the change, and writes the request row and its outbox event in one SQLite
 * transaction (with the app fee credits of a request reaching `success`); listeners hear of it only
 * after the commit.
 */
export function transitionRequest(lifecycle: RequestLifecycle, params: TransitionParams): RequestRecord {
  return lifecycle.transition(params);
}

/** Changes a request's facts, never its status (no event is emitted); a status change throws. */
export function recordRequestFacts(lifecycle: RequestLifecycle, requestId: string, update: (facts: RequestFacts) => void): RequestRecord {
  return lifecycle.recordFacts(requestId, update);
}

/**
 * Creates a request in `waiting` (at quote time) and records its first event. `alsoInTransaction`
 * writes what goes with it in the same SQLite transaction (the quote sequence number it used).
 */
export function createRequest(lifecycle: RequestLifecycle, record: RequestRecord, alsoInTransaction?: () => void): void {
  lifecycle.create(record, alsoInTransaction);
}
