import type Database from 'better-sqlite3';
import type { Hex } from 'viem';
import type { RequestRecord } from '../domain/request/requestRecord';
import type { RequestStatus } from '../domain/request/requestStatus';
import { parseWithBigints, stringifyWithBigints } from './jsonWithBigints';
import { amountUsdSortKey } from './RequestListingStore';

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

/**
 * Request records and their status events (the outbox webhooks and the websocket read from).
 * Writes of a status go through `transitionRequest`, which calls `saveRecord` and `appendEvent`
 * inside one transaction.
 */
export class RequestStore {
  private readonly insertStatement: Database.Statement;
  private readonly updateStatement: Database.Statement;
  private readonly getStatement: Database.Statement<[string], RequestRow>;
  private readonly byStatusStatement: Database.Statement<[string], RequestRow>;
  private readonly appendEventStatement: Database.Statement;
  private readonly eventsForRequestStatement: Database.Statement<[string], EventRow>;

  constructor(readonly db: Database.Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO requests (id, status, created_at, updated_at, origin_chain_id, destination_chain_id, user_address, recipient, depositor, api_key, amount_usd_key, record_json)
       VALUES (@id, @status, @createdAt, @updatedAt, @originChainId, @destinationChainId, @user, @recipient, @depositor, @apiKey, @amountUsdKey, @recordJson)`,
    );
    this.updateStatement = db.prepare(
      `UPDATE requests SET status = @status, updated_at = @updatedAt, depositor = @depositor, record_json = @recordJson WHERE id = @id`,
    );
    this.getStatement = db.prepare('SELECT record_json FROM requests WHERE id = ?');
    this.byStatusStatement = db.prepare('SELECT record_json FROM requests WHERE status = ? ORDER BY created_at, id');
    this.appendEventStatement = db.prepare(
      'INSERT INTO request_events (request_id, from_status, to_status, at, payload_json) VALUES (?, ?, ?, ?, ?)',
    );
    this.eventsForRequestStatement = db.prepare('SELECT * FROM request_events WHERE request_id = ? ORDER BY seq');
  }

  insert(record: RequestRecord): void {
    this.insertStatement.run(this.toParams(record));
  }

  /** Saves a record's current fields (status included). Only transitionRequest and recordRequestFacts call this. */
  saveRecord(record: RequestRecord): void {
    const result = this.updateStatement.run(this.toParams(record));
    if (result.changes !== 1) throw new Error(`request ${record.id} does not exist`);
  }

  get(id: string): RequestRecord | undefined {
    const row = this.getStatement.get(id.toLowerCase());
    return row ? parseWithBigints<RequestRecord>(row.record_json) : undefined;
  }

  listByStatus(status: RequestStatus): RequestRecord[] {
    return this.byStatusStatement.all(status).map((row) => parseWithBigints<RequestRecord>(row.record_json));
  }

  appendEvent(event: Omit<RequestEventRow, 'seq'>): number {
    const result = this.appendEventStatement.run(
      event.requestId,
      event.fromStatus,
      event.toStatus,
      event.at,
      stringifyWithBigints(event.payload),
    );
    return Number(result.lastInsertRowid);
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

  reset(): void {
    this.db.exec('DELETE FROM request_events; DELETE FROM requests;');
  }

  private toParams(record: RequestRecord): Record<string, unknown> {
    return {
      id: record.id.toLowerCase(),
      status: record.status,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      originChainId: record.quote.originChainId,
      destinationChainId: record.quote.destinationChainId,
      user: record.quote.user.toLowerCase(),
      recipient: record.quote.recipient.toLowerCase(),
      depositor: record.depositor?.toLowerCase() ?? null,
      apiKey: record.apiKey ?? null,
      amountUsdKey: amountUsdSortKey(record),
      recordJson: stringifyWithBigints(record),
    };
  }
}
