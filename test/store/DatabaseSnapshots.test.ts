import { describe, expect, it } from 'vitest';
import { DatabaseSnapshots } from '../../src/store/DatabaseSnapshots';
import { ApiKeyStore } from '../../src/store/ApiKeyStore';
import { MetaStore } from '../../src/store/MetaStore';
import { SolverTxStore } from '../../src/store/SolverTxStore';
import { openDatabase } from '../../src/store/openDatabase';
import { WebhookStore } from '../../src/store/WebhookStore';

describe('DatabaseSnapshots', () => {
  const countOf = (db: ReturnType<typeof openDatabase>, table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

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
