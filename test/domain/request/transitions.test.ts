import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { REQUEST_STATUSES, type RequestStatus } from '../../../src/domain/request/requestStatus';
import { canTransition, isSettled, TRANSITIONS } from '../../../src/domain/request/transitions';
import { RequestEventBus, type CommittedStatusChange } from '../../../src/events/RequestEventBus';
import {
  createRequest,
  IllegalTransitionError,
  transitionRequest,
  recordRequestFacts,
  RequestLifecycle,
  StatusChangedOutsideTransitionError,
  UnknownRequestError,
} from '../../../src/lifecycle/transitionRequest';
import type { RequestRecord } from '../../../src/domain/request/requestRecord';
import { RequestRecordWriter } from '../../../src/store/RequestRecordWriter';
import { openDatabase } from '../../../src/store/openDatabase';
import { RequestStore } from '../../../src/store/RequestStore';
import { hexId, makeRequestRecord, makeTransactionEntry } from '../../support/requestRecordFixture';


/**
 * The state machine, written out independently of src/domain/request/transitions.ts: SPEC §3's states,
 * its one row (any earlier state → pending on an observed deposit), its related rule (a reorged
 * deposit may flip the status to failure) and the simulator's documented reading of the rest.
 */
const EXPECTED_ALLOWED: ReadonlyArray<readonly [RequestStatus, RequestStatus]> = [
  ['waiting', 'depositing'],
  ['waiting', 'pending'],
  ['waiting', 'failure'],
  ['waiting', 'refund'],
  ['depositing', 'pending'],
  ['depositing', 'success'],
  ['depositing', 'failure'],
  ['depositing', 'refund'],
  ['pending', 'submitted'],
  ['pending', 'failure'],
  ['pending', 'refund'],
  ['submitted', 'success'],
  ['submitted', 'pending'],
  ['submitted', 'failure'],
  ['submitted', 'refund'],
  ['success', 'failure'],
  ['failure', 'refund'],
];
const allowedKeys = new Set(EXPECTED_ALLOWED.map(([from, to]) => `${from}->${to}`));
const ALL_PAIRS = REQUEST_STATUSES.flatMap((from) => REQUEST_STATUSES.map((to) => [from, to] as const));

describe('SPEC §3 transition table', () => {
  it('has the seven §3 statuses, so 49 ordered pairs', () => {
    expect([...REQUEST_STATUSES].sort()).toEqual(['depositing', 'failure', 'pending', 'refund', 'submitted', 'success', 'waiting']);
    expect(ALL_PAIRS).toHaveLength(49);
  });

  it.each(ALL_PAIRS)('%s -> %s is allowed exactly when the table lists it', (from, to) => {
    expect(canTransition(from, to)).toBe(allowedKeys.has(`${from}->${to}`));
  });

  it('TRANSITIONS lists exactly the expected transitions (17), with no duplicates', () => {
    const listed = Object.entries(TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => `${from}->${to}`));
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.sort()).toEqual([...allowedKeys].sort());
  });

  it('no status transitions to itself', () => {
    for (const status of REQUEST_STATUSES) expect(canTransition(status, status)).toBe(false);
  });

  it('refund is terminal: nothing leaves it', () => {
    expect(TRANSITIONS.refund).toEqual([]);
    for (const to of REQUEST_STATUSES) expect(canTransition('refund', to)).toBe(false);
  });

  it('every earlier state reaches pending on an observed deposit (the §3 row), and nothing goes back to waiting', () => {
    expect(canTransition('waiting', 'pending')).toBe(true);
    expect(canTransition('depositing', 'pending')).toBe(true);
    for (const from of REQUEST_STATUSES) expect(canTransition(from, 'waiting')).toBe(false);
  });

  it('isSettled is true exactly for success, failure and refund', () => {
    expect(REQUEST_STATUSES.filter(isSettled).sort()).toEqual(['failure', 'refund', 'success']);
  });
});

describe('transitionRequest and createRequest on a real in-memory SQLite store', () => {
  let db: Database.Database;
  let deps: RequestLifecycle;
  let writer: RequestRecordWriter;
  let bus: RequestEventBus;
  let published: Array<{ change: CommittedStatusChange; inTransaction: boolean; storedStatus: RequestStatus | undefined; storedEvents: number }>;

  beforeEach(() => {
    db = openDatabase(':memory:');
    const requests = new RequestStore(db);
    const clock = new VirtualClock({ mode: 'manual', startMs: 1_700_000_000_000 });
    bus = new RequestEventBus();
    writer = new RequestRecordWriter(db);
    deps = new RequestLifecycle({ requests, writer, clock, bus });
    published = [];
    bus.subscribe((change) => {
      published.push({
        change,
        inTransaction: db.inTransaction,
        storedStatus: requests.get(change.requestId)?.status,
        storedEvents: requests.eventsFor(change.requestId).length,
      });
    });
  });
  afterEach(() => {
    db.close();
  });

  /** A record already in `status` (as a run that reached it left it): written straight to the table, one event. */
  function seeded(record: RequestRecord): void {
    writer.transaction(() => {
      writer.insert(record);
      writer.appendEvent({ requestId: record.id, fromStatus: null, toStatus: record.status, at: record.updatedAt, payload: {} });
    });
  }

  function created(id = hexId(1)) {
    createRequest(deps, makeRequestRecord({ id }));
    published = [];
    return id;
  }

  it('createRequest stores the row and records the initial waiting event (from null), then publishes it', () => {
    const record = makeRequestRecord({ id: hexId(7) });
    createRequest(deps, record);

    expect(deps.requests.get(record.id)).toEqual(record);
    const events = deps.requests.eventsFor(record.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ requestId: record.id, fromStatus: null, toStatus: 'waiting', at: record.updatedAt });
    expect(events[0]!.payload).toMatchObject({ status: 'waiting', requestId: record.id, failReason: 'N/A', refundFailReason: 'N/A' });

    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ inTransaction: false, storedStatus: 'waiting', storedEvents: 1 });
    expect(published[0]!.change).toMatchObject({ seq: events[0]!.seq, requestId: record.id, from: null, to: 'waiting' });
  });

  it('writes the new status, the facts and exactly one event, stamped with the virtual clock', () => {
    const id = created();
    deps.clock.advance(1_500);
    const deposit = makeTransactionEntry({ txHash: hexId(0xd1), type: 'deposit' });

    const result = transitionRequest(deps, {
      requestId: id,
      to: 'pending',
      update: (record) => {
        record.inTxs.push(deposit);
        record.depositor = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
      },
    });

    expect(result.status).toBe('pending');
    expect(result.updatedAt).toBe(1_700_000_001_500);
    const stored = deps.requests.get(id)!;
    expect(stored).toEqual(result);
    expect(stored.inTxs).toEqual([deposit]);
    const events = deps.requests.eventsFor(id);
    expect(events.map((e) => [e.fromStatus, e.toStatus])).toEqual([
      [null, 'waiting'],
      ['waiting', 'pending'],
    ]);
    expect(events[1]!.at).toBe(1_700_000_001_500);
    expect(events[1]!.payload).toMatchObject({ status: 'pending', inTxHashes: [deposit.txHash], updatedAt: 1_700_000_001_500 });
  });

  it('walks a whole successful request: waiting → pending → submitted → success, one event each', () => {
    const id = created();
    for (const to of ['pending', 'submitted', 'success'] as const) transitionRequest(deps, { requestId: id, to });
    expect(deps.requests.eventsFor(id).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);
    expect(deps.requests.get(id)!.status).toBe('success');
  });

  it('rejects an illegal transition with IllegalTransitionError, leaving the row and the events unchanged and publishing nothing', () => {
    const id = created();
    transitionRequest(deps, { requestId: id, to: 'failure', update: (r) => void (r.failReason = 'SOLVER_BALANCE_TOO_LOW') });
    transitionRequest(deps, { requestId: id, to: 'refund' });
    published = [];
    const rowBefore = deps.requests.get(id);
    const eventsBefore = deps.requests.eventsFor(id);
    let updateRan = false;

    const attempt = () =>
      transitionRequest(deps, {
        requestId: id,
        to: 'success',
        update: (r) => {
          updateRan = true;
          r.fillAmount = 1n;
        },
      });
    expect(attempt).toThrow(IllegalTransitionError);
    expect(attempt).toThrow(`request ${id}: refund → success is not a transition of SPEC §3`);

    expect(updateRan).toBe(false);
    expect(deps.requests.get(id)).toEqual(rowBefore);
    expect(deps.requests.eventsFor(id)).toEqual(eventsBefore);
    expect(published).toEqual([]);
  });

  it('rejects every pair the table does not list, through transitionRequest too', () => {
    let n = 10;
    for (const [from, to] of ALL_PAIRS) {
      if (allowedKeys.has(`${from}->${to}`)) continue;
      const id = hexId(n++);
      seeded(makeRequestRecord({ id, status: from }));
      const error = (() => {
        try {
          transitionRequest(deps, { requestId: id, to });
          return undefined;
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, `${from} -> ${to}`).toBeInstanceOf(IllegalTransitionError);
      expect(error).toMatchObject({ requestId: id, from, to });
      expect(deps.requests.get(id)!.status).toBe(from);
      expect(deps.requests.eventsFor(id)).toHaveLength(1);
    }
  });

  it('an unknown request id is UnknownRequestError and writes nothing', () => {
    expect(() => transitionRequest(deps, { requestId: hexId(999), to: 'pending' })).toThrow(UnknownRequestError);
    expect(deps.requests.eventsFor(hexId(999))).toEqual([]);
    expect(published).toEqual([]);
  });

  it('row and event are one transaction: if appending the event fails, the status change is rolled back', () => {
    const id = created();
    const original = writer.appendEvent.bind(writer);
    writer.appendEvent = () => {
      throw new Error('disk full');
    };
    try {
      expect(() => transitionRequest(deps, { requestId: id, to: 'pending', update: (r) => void (r.fillAmount = 5n) })).toThrow('disk full');
    } finally {
      writer.appendEvent = original;
    }
    expect(deps.requests.get(id)).toMatchObject({ status: 'waiting', fillAmount: null });
    expect(deps.requests.eventsFor(id)).toHaveLength(1);
    expect(published).toEqual([]);
    expect(db.inTransaction).toBe(false);
  });

  it('if the facts update throws, nothing is written', () => {
    const id = created();
    expect(() =>
      transitionRequest(deps, {
        requestId: id,
        to: 'pending',
        update: () => {
          throw new Error('bad facts');
        },
      }),
    ).toThrow('bad facts');
    expect(deps.requests.get(id)!.status).toBe('waiting');
    expect(deps.requests.eventsFor(id)).toHaveLength(1);
  });

  it('publishes to the bus only after the commit: listeners see the committed row and event, outside any transaction', () => {
    const id = created();
    transitionRequest(deps, { requestId: id, to: 'pending' });
    transitionRequest(deps, { requestId: id, to: 'submitted' });

    expect(published.map((p) => [p.change.from, p.change.to])).toEqual([
      ['waiting', 'pending'],
      ['pending', 'submitted'],
    ]);
    expect(published.map((p) => p.inTransaction)).toEqual([false, false]);
    expect(published.map((p) => p.storedStatus)).toEqual(['pending', 'submitted']);
    expect(published.map((p) => p.storedEvents)).toEqual([2, 3]);
    const seqs = deps.requests.eventsFor(id).map((e) => e.seq);
    expect(published.map((p) => p.change.seq)).toEqual(seqs.slice(1));
    expect(published[1]!.change.record.status).toBe('submitted');
  });

  it('a throwing listener does not undo the committed change or stop the other listeners', () => {
    const id = created();
    const heard: string[] = [];
    bus.subscribe(() => {
      throw new Error('listener failed');
    });
    bus.subscribe((change) => heard.push(change.to));
    expect(() => transitionRequest(deps, { requestId: id, to: 'pending' })).not.toThrow();
    expect(heard).toEqual(['pending']);
    expect(deps.requests.get(id)!.status).toBe('pending');
  });

  it('bus.waitFor resolves with the committed change that reaches one of the statuses', async () => {
    const id = created();
    const waiting = bus.waitFor(id, ['success', 'failure']);
    transitionRequest(deps, { requestId: id, to: 'pending' });
    transitionRequest(deps, { requestId: id, to: 'failure' });
    const change = await waiting;
    expect(change).toMatchObject({ requestId: id, from: 'pending', to: 'failure' });
  });

  it('createRequest only creates requests in waiting: any other status must be reached through transitionRequest', () => {
    const record = makeRequestRecord({ id: hexId(0x51), status: 'success' });
    expect(() => createRequest(deps, record)).toThrow(IllegalTransitionError);
    expect(deps.requests.get(record.id)).toBeUndefined();
    expect(published).toEqual([]);
  });

  it('recordRequestFacts changes facts only: a status changed inside it throws and nothing is written', () => {
    const id = created();
    recordRequestFacts(deps, id, (facts) => void (facts.fillAmount = 7n));
    expect(deps.requests.get(id)).toMatchObject({ status: 'waiting', fillAmount: 7n });
    expect(() =>
      recordRequestFacts(deps, id, (facts) => {
        facts.fillAmount = 8n;
        // not reachable through the facts type; a cast stands for code that tries anyway
        (facts as RequestRecord).status = 'success';
      }),
    ).toThrow(StatusChangedOutsideTransitionError);
    expect(deps.requests.get(id)).toMatchObject({ status: 'waiting', fillAmount: 7n });
    expect(deps.requests.eventsFor(id)).toHaveLength(1);
    expect(published).toEqual([]);
  });
});
