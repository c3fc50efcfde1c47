import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations';
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
});
