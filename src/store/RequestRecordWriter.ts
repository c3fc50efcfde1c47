import type Database from 'better-sqlite3';
import type { RequestRecord } from '../domain/request/requestRecord';
import { stringifyWithBigints } from './jsonWithBigints';
import { amountUsdSortKey } from './RequestListingStore';
import type { RequestEventRow } from './RequestStore';
import { requestRowVersionsOf, type RequestRowVersions } from './requestRowVersions';

/**
 * The only writer of request rows and status events. The simulator root hands it to the
 * lifecycle alone (`createRequestLifecycle`), and the import rules (`.dependency-cruiser.cjs`,
 * "status-writes-go-through-lifecycle") let no other module of src/ import this file: a status
 * can change only through `transitionRequest`.
 */
export class RequestRecordWriter {
  private readonly insertStatement: Database.Statement;
  private readonly updateStatement: Database.Statement;
  private readonly appendEventStatement: Database.Statement;
  private readonly versions: RequestRowVersions;
  /** One transaction function for every call (better-sqlite3 builds four wrappers per `db.transaction`). */
  private readonly inTransaction: (work: () => unknown) => unknown;

  constructor(private readonly db: Database.Database) {
    this.versions = requestRowVersionsOf(db);
    this.insertStatement = db.prepare(
      `INSERT INTO requests (id, status, created_at, updated_at, origin_chain_id, destination_chain_id, user_address, recipient, depositor, api_key, amount_usd_key, record_json)
       VALUES (@id, @status, @createdAt, @updatedAt, @originChainId, @destinationChainId, @user, @recipient, @depositor, @apiKey, @amountUsdKey, @recordJson)`,
    );
    this.updateStatement = db.prepare(
      `UPDATE requests SET status = @status, updated_at = @updatedAt, depositor = @depositor, record_json = @recordJson WHERE id = @id`,
    );
    this.appendEventStatement = db.prepare(
      'INSERT INTO request_events (request_id, from_status, to_status, at, payload_json) VALUES (?, ?, ?, ?, ?)',
    );
    this.inTransaction = db.transaction((work: () => unknown) => work());
  }

  /** Forgets every request and status event (the control plane's reset). */
  deleteAll(): void {
    this.db.exec('DELETE FROM request_events; DELETE FROM requests;');
    this.versions.replacedAll();
  }

  /** Runs `work` in one SQLite transaction. */
  transaction<T>(work: () => T): T {
    return this.inTransaction(work) as T;
  }

  insert(record: RequestRecord): void {
    this.insertStatement.run(this.toParams(record));
    this.versions.wrote(record.id.toLowerCase());
  }

  /** Saves a record's current fields, status included. */
  saveRecord(record: RequestRecord): void {
    const result = this.updateStatement.run(this.toParams(record));
    this.versions.wrote(record.id.toLowerCase());
    if (result.changes !== 1) throw new Error(`request ${record.id} does not exist`);
  }

  appendEvent(event: Omit<RequestEventRow, 'seq'>): number {
    const result = this.appendEventStatement.run(event.requestId, event.fromStatus, event.toStatus, event.at, stringifyWithBigints(event.payload));
    return Number(result.lastInsertRowid);
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
