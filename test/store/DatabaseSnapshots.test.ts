import { describe, expect, it } from 'vitest';
import { DatabaseSnapshots } from '../../src/store/DatabaseSnapshots';
import { ApiKeyStore } from '../../src/store/ApiKeyStore';
import { ChainJournalStore } from '../../src/store/ChainJournalStore';
import { SeededRng } from '../../src/rng/SeededRng';
import { MetaStore } from '../../src/store/MetaStore';
import { SolverTxStore } from '../../src/store/SolverTxStore';
import { openDatabase } from '../../src/store/openDatabase';
import { WebhookStore } from '../../src/store/WebhookStore';

const countOf = (db: ReturnType<typeof openDatabase>, table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('DatabaseSnapshots', () => {
  it('puts every table back as it was copied, again and again', () => {
    const db = openDatabase(':memory:');
    const meta = new MetaStore(db);
    meta.put('answer', '42');
    const copy = new DatabaseSnapshots(db);
    const id = copy.take();

    meta.put('answer', '43');
    meta.put('other', '1');
    copy.restore(id);
    expect(meta.get('answer')).toBe('42');
    expect(meta.get('other')).toBeUndefined();

    meta.put('answer', '44');
    copy.restore(id);
    expect(meta.get('answer')).toBe('42');
  });

  it('restores rows that refer to each other (foreign keys checked at commit), and AUTOINCREMENT ids come as the first time', () => {
    const db = openDatabase(':memory:');
    const apiKeys = new ApiKeyStore(db, 1);
    const webhooks = new WebhookStore(db);
    const key = apiKeys.ensureDefault(0).key;
    webhooks.putEndpoint(key, { enabled: true, url: 'http://127.0.0.1:1/hook', headers: {} }, 0);
    const solverTxs = new SolverTxStore(db);
    const copy = new DatabaseSnapshots(db);
    const id = copy.take();

    const signed = { requestId: '0x01' as const, kind: 'fill' as const, chainId: 1, nonce: 0, txHash: '0xaa' as const, rawTx: '0xbb' as const, createdAt: 0 };
    solverTxs.insertSigned(signed);
    const firstId = solverTxs.find('0x01', 'fill')!.id;
    webhooks.deleteEndpoint(key);
    copy.restore(id);
    expect(countOf(db, 'solver_transactions')).toBe(0);
    expect(webhooks.getEndpoint(key)?.url).toBe('http://127.0.0.1:1/hook');
    solverTxs.insertSigned(signed);
    expect(solverTxs.find('0x01', 'fill')!.id).toBe(firstId);
  });

  it('a dropped copy is gone', () => {
    const db = openDatabase(':memory:');
    const copy = new DatabaseSnapshots(db);
    const id = copy.take();
    copy.drop(id);
    expect(() => copy.restore(id)).toThrow(/no database copy/);
  });
});

describe('DatabaseSnapshots: only the tables that differ are put back', () => {
  it('a table written after the copy is put back; one left alone is not touched; nested copies each come back whole', () => {
    const db = openDatabase(':memory:');
    const meta = new MetaStore(db);
    const solverTxs = new SolverTxStore(db);
    meta.put('answer', '1');
    const copy = new DatabaseSnapshots(db);
    const a = copy.take();
    meta.put('answer', '2');
    const b = copy.take();
    solverTxs.insertSigned({ requestId: '0x01', kind: 'fill', chainId: 1, nonce: 0, txHash: '0xaa', rawTx: '0xbb', createdAt: 0 });

    copy.restore(b);
    expect(meta.get('answer')).toBe('2');
    expect(solverTxs.find('0x01', 'fill')).toBeUndefined();
    copy.restore(a);
    expect(meta.get('answer')).toBe('1');
    copy.restore(b);
    expect(meta.get('answer')).toBe('2');
    meta.put('answer', '3');
    copy.restore(b);
    expect(meta.get('answer')).toBe('2');
    copy.restore(a);
    expect(meta.get('answer')).toBe('1');
  });
});

describe('DatabaseSnapshots: only the rows that differ are put back', () => {
  /** Counts the rows of `table` written from now on (a temporary table and triggers of the test's own, outside what is copied). */
  const countWrites = (db: ReturnType<typeof openDatabase>, table: string): (() => number) => {
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS test_writes (n INTEGER NOT NULL); INSERT INTO test_writes VALUES (0)`);
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TEMP TRIGGER "test_count_${table}_${event}" AFTER ${event} ON main."${table}" BEGIN UPDATE test_writes SET n = n + 1; END`);
    }
    return () => {
      const { n } = db.prepare('SELECT n FROM test_writes').get() as { n: number };
      db.exec('UPDATE test_writes SET n = 0');
      return n;
    };
  };

  it('a restore rewrites the rows changed since, not the whole table; a table with no change is not written at all', () => {
    const db = openDatabase(':memory:');
    const meta = new MetaStore(db);
    for (let index = 0; index < 500; index++) meta.put(`key${index}`, String(index));
    const solverTxs = new SolverTxStore(db);
    solverTxs.insertSigned({ requestId: '0x01', kind: 'fill', chainId: 1, nonce: 0, txHash: '0xaa', rawTx: '0xbb', createdAt: 0 });
    const copy = new DatabaseSnapshots(db);
    const id = copy.take();
    const metaWrites = countWrites(db, 'meta');
    const solverTxWrites = countWrites(db, 'solver_transactions');

    meta.put('key7', 'changed');
    meta.put('added', 'x');
    metaWrites();
    copy.restore(id);
    // key7 deleted and put back, `added` deleted: three rows of 501, and solver_transactions untouched
    expect(metaWrites()).toBe(3);
    expect(solverTxWrites()).toBe(0);
    expect(meta.get('key7')).toBe('7');
    expect(meta.get('added')).toBeUndefined();
    expect(countOf(db, 'meta')).toBe(500);

    copy.restore(id);
    expect(metaWrites()).toBe(0);
  });

  it('a row an INSERT OR REPLACE displaced comes back, with its rowid', () => {
    const db = openDatabase(':memory:');
    const journal = new ChainJournalStore(db);
    const block = { chainId: 1, number: 5, hash: '0x05' as const, timestamp: 100, rawTransactions: ['0xaa' as const] };
    journal.put(block);
    const rowidOf = () => (db.prepare('SELECT rowid AS id FROM chain_journal WHERE chain_id = 1 AND number = 5').get() as { id: number }).id;
    const before = rowidOf();
    const copy = new DatabaseSnapshots(db);
    const id = copy.take();

    journal.put({ ...block, hash: '0x06', rawTransactions: [] }); // the old row deleted, a new one inserted under another rowid
    expect(rowidOf()).not.toBe(before);
    copy.restore(id);
    expect(journal.block(1, 5)).toEqual(block);
    expect(rowidOf()).toBe(before);
    expect(countOf(db, 'chain_journal')).toBe(1);
  });

  it('any number of held copies, each put back in any order after random writes, comes back exactly', () => {
    const db = openDatabase(':memory:');
    const journal = new ChainJournalStore(db);
    const meta = new MetaStore(db);
    const rng = new SeededRng(36);
    const copy = new DatabaseSnapshots(db);
    const dump = () => JSON.stringify([db.prepare('SELECT rowid, * FROM chain_journal ORDER BY rowid').all(), db.prepare('SELECT rowid, * FROM meta ORDER BY rowid').all()]);
    const writeSome = () => {
      for (let step = rng.int(0, 6); step > 0; step--) {
        const number = rng.int(0, 20);
        const choice = rng.int(0, 4);
        if (choice === 0) journal.put({ chainId: 1, number, hash: rng.hex(4), timestamp: number, rawTransactions: [] });
        else if (choice === 1) journal.dropFrom(1, number);
        else if (choice === 2) meta.put(`k${number}`, rng.hex(2));
        else if (choice === 3) db.prepare('DELETE FROM meta WHERE key = ?').run(`k${number}`);
        // a row moved to another rowid
        else db.prepare('UPDATE meta SET rowid = (SELECT max(rowid) + 1 FROM meta) WHERE key = ?').run(`k${number}`);
      }
    };
    const held = new Map<number, string>();
    let restores = 0;
    let mostHeld = 0;
    for (let round = 0; round < 300; round++) {
      writeSome();
      const choice = rng.int(0, 4);
      if (choice === 0 || held.size === 0) {
        held.set(copy.take(), dump());
        mostHeld = Math.max(mostHeld, held.size);
      } else {
        const ids = [...held.keys()];
        const id = ids[rng.int(0, ids.length - 1)]!;
        if (choice === 1 && held.size > 1) {
          copy.drop(id);
          held.delete(id);
        } else {
          copy.restore(id);
          restores++;
          expect(dump()).toBe(held.get(id));
        }
      }
    }
    expect(restores).toBeGreaterThan(50);
    expect(mostHeld).toBeGreaterThan(3);
  });
});
