import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../src/store/ApiKeyStore';
import { openDatabase } from '../../src/store/openDatabase';

const dirs: string[] = [];
function freshDb(dir = mkdtempSync(join(tmpdir(), 'intentsim-keys-'))) {
  dirs.push(dir);
  return { db: openDatabase(join(dir, 'sim.db')), dir };
}
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('ApiKeyStore', () => {
  it('derives the same default key from the same seed, a different one from another seed', () => {
    const a = new ApiKeyStore(freshDb().db, 7).ensureDefault(1);
    const b = new ApiKeyStore(freshDb().db, 7).ensureDefault(2);
    const c = new ApiKeyStore(freshDb().db, 8).ensureDefault(1);
    expect(a.key).toMatch(/^intentsim_[0-9a-f]{32}$/);
    expect(b.key).toBe(a.key);
    expect(c.key).not.toBe(a.key);
  });

  it('keeps one default key across reopenings and creates distinct named keys', () => {
    const { db, dir } = freshDb();
    const store = new ApiKeyStore(db, 1);
    const first = store.ensureDefault(1);
    const created = store.create('ci', 5);
    expect(created.key).not.toBe(first.key);
    db.close();
    const reopened = new ApiKeyStore(openDatabase(join(dir, 'sim.db')), 1);
    expect(reopened.ensureDefault(9)).toEqual(first);
    expect(reopened.get(created.key)).toEqual({ key: created.key, name: 'ci', createdAt: 5, isDefault: false });
    expect(reopened.get('intentsim_nope')).toBeUndefined();
    expect(reopened.list().map((k) => k.key)).toEqual([first.key, created.key]);
  });
});
