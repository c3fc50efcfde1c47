import type Database from 'better-sqlite3';
import type { Hex } from 'viem';
import type { RequestRecord } from '../domain/request/requestRecord';
import type { RequestStatus } from '../domain/request/requestStatus';
import { parseWithBigints } from './jsonWithBigints';
import { requestRowVersionsOf, type RequestRowVersions } from './requestRowVersions';

export interface RequestEventRow {
  seq: number;
  requestId: Hex;
  fromStatus: RequestStatus | null;
  toStatus: RequestStatus;
  at: number;
  payload: unknown;
}

interface RequestRow {
  record_json: string;
}

interface EventRow {
  seq: number;
  request_id: string;
  from_status: string | null;
  to_status: string;
  at: number;
  payload_json: string;
}

/** A record from its stored JSON (`RequestStore.recordJson`). */
export function parseRecordJson(json: string): RequestRecord {
  return parseWithBigints<RequestRecord>(json);
}

/**
 * Reads of request records and their status events (the outbox webhooks and the websocket read
 * from). Nothing here writes: records are written by `RequestRecordWriter`, which only the
 * lifecycle holds (ARCHITECTURE.md, "The sealed status path").
 */
export class RequestStore {
  /** A record's stored text itself (plucked: no row object per look-up, the status look-up's one read). */
  private readonly recordJsonStatement: Database.Statement<[string], string>;
  private readonly byStatusStatement: Database.Statement<[string], RequestRow>;
  private readonly idsByStatusStatement: Database.Statement<[string], { id: string }>;
  private readonly eventsForRequestStatement: Database.Statement<[string], EventRow>;
  private readonly waitingFromUserStatement: Database.Statement<[number, string], RequestRow>;
  private readonly lastEventSeqStatement: Database.Statement<[string], { seq: number | null }>;

  private readonly rowVersions: RequestRowVersions;

  constructor(private readonly db: Database.Database) {
    this.rowVersions = requestRowVersionsOf(db);
    this.recordJsonStatement = db.prepare<[string], string>('SELECT record_json FROM requests WHERE id = ?').pluck();
    this.byStatusStatement = db.prepare('SELECT record_json FROM requests WHERE status = ? ORDER BY created_at, id');
    this.idsByStatusStatement = db.prepare('SELECT id FROM requests WHERE status = ? ORDER BY created_at, id');
    this.eventsForRequestStatement = db.prepare('SELECT * FROM request_events WHERE request_id = ? ORDER BY seq');
    this.lastEventSeqStatement = db.prepare('SELECT max(seq) AS seq FROM request_events WHERE request_id = ?');
    this.waitingFromUserStatement = db.prepare("SELECT record_json FROM requests WHERE status = 'waiting' AND origin_chain_id = ? AND lower(user_address) = lower(?) ORDER BY created_at DESC, id DESC");
  }

  get(id: string): RequestRecord | undefined {
    const json = this.recordJson(id);
    return json === undefined ? undefined : parseRecordJson(json);
  }

  /** A record as stored (`parseRecordJson` reads it): a look-up that keeps what it built from a record compares this text. */
  recordJson(id: string): string | undefined {
    return this.recordJsonStatement.get(id.toLowerCase());
  }

  /** Request `id`'s row version (`RequestRowVersions`): the same number only while the row is not written. */
  rowVersion(id: string): number {
    return this.rowVersions.versionOf(id.toLowerCase());
  }

  listByStatus(status: RequestStatus): RequestRecord[] {
    return this.byStatusStatement.all(status).map((row) => parseWithBigints<RequestRecord>(row.record_json));
  }

  /** The ids of `listByStatus` (no record read: a start or a world revert lists every request in a status). */
  idsByStatus(status: RequestStatus): string[] {
    return this.idsByStatusStatement.all(status).map((row) => row.id);
  }

  /** The `waiting` requests of `user` from one origin chain, newest first. */
  waitingFromUser(originChainId: number, user: string): RequestRecord[] {
    return this.waitingFromUserStatement.all(originChainId, user).map((row) => parseWithBigints<RequestRecord>(row.record_json));
  }

  /** The `seq` of the request's latest status event (null before its first). */
  lastEventSeq(requestId: string): number | null {
    return this.lastEventSeqStatement.get(requestId.toLowerCase())?.seq ?? null;
  }

  eventsFor(requestId: string): RequestEventRow[] {
    return this.eventsForRequestStatement.all(requestId.toLowerCase()).map((row) => ({
      seq: row.seq,
      requestId: row.request_id as Hex,
      fromStatus: row.from_status as RequestStatus | null,
      toStatus: row.to_status as RequestStatus,
      at: row.at,
      payload: parseWithBigints<unknown>(row.payload_json),
    }));
  }
}
