import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations';
import { stringifyWithBigints } from '../../src/store/jsonWithBigints';
import { amountUsdSortKey } from '../../src/store/RequestListingStore';
import { makeRequestRecord } from '../support/requestRecordFixture';
import { openDatabase } from '../../src/store/openDatabase';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function freshPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-migrate-'));
  dirs.push(dir);
  return join(dir, 'sim.db');
}

describe('migrate', () => {
  it('brings a new file to the latest version once; reopening runs nothing again', () => {
    const path = freshPath();
    const db = openDatabase(path);
    const latest = db.pragma('user_version', { simple: true }) as number;
    expect(latest).toBeGreaterThan(0);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['requests', 'request_events', 'api_keys', 'deposit_addresses']));
    db.close();
    const reopened = new Database(path);
    expect(migrate(reopened)).toBe(latest);
    expect(reopened.pragma('user_version', { simple: true })).toBe(latest);
    reopened.close();
  });

  it('refuses a file written by a newer schema instead of running with missing tables', () => {
    const path = freshPath();
    const db = openDatabase(path);
    const latest = db.pragma('user_version', { simple: true }) as number;
    db.pragma(`user_version = ${latest + 1}`);
    db.close();
    expect(() => openDatabase(path)).toThrow(/newer than this intentsim knows/);
  });

  it('gives requests stored before the listing amount key their key when the database is opened (not when a route runs)', () => {
    const path = freshPath();
    const db = openDatabase(path);
    const record = makeRequestRecord();
    db.prepare(
      `INSERT INTO requests (id, status, created_at, updated_at, origin_chain_id, destination_chain_id, user_address, recipient, depositor, record_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
    ).run(record.id, record.status, record.createdAt, record.updatedAt, record.quote.originChainId, record.quote.destinationChainId, record.quote.user, record.quote.recipient, stringifyWithBigints(record));
    // as a file written by a version whose schema stopped before the backfill step
    db.pragma('user_version = 5');
    db.close();
    const reopened = openDatabase(path);
    const row = reopened.prepare('SELECT amount_usd_key FROM requests WHERE id = ?').get(record.id) as { amount_usd_key: string | null };
    expect(row.amount_usd_key).toBe(amountUsdSortKey(record));
    expect(row.amount_usd_key).not.toBeNull();
    reopened.close();
  });
});
