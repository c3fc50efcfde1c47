import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerJournalStore } from '../../src/store/LedgerJournalStore';
import { openDatabase } from '../../src/store/openDatabase';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('LedgerJournalStore', () => {
  it('gives back each chain its own entries in order, bigints exact, after the file is reopened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-ledger-journal-'));
    dirs.push(dir);
    const path = join(dir, 'sim.db');
    const db = openDatabase(path);
    const journal = new LedgerJournalStore(db);
    expect(journal.has(7)).toBe(false);
    journal.append(7, { kind: 'genesis', time: 1_700_000_000 });
    journal.append(8, { kind: 'other' });
    journal.append(7, { kind: 'transfer', amount: 2n ** 200n });
    db.close();

    const reopened = new LedgerJournalStore(openDatabase(path));
    expect(reopened.has(7)).toBe(true);
    expect(reopened.entries(7)).toEqual([{ kind: 'genesis', time: 1_700_000_000 }, { kind: 'transfer', amount: 2n ** 200n }]);
    reopened.append(7, { kind: 'after restart' });
    expect(reopened.entries<{ kind: string }>(7).map((entry) => entry.kind)).toEqual(['genesis', 'transfer', 'after restart']);
    expect(reopened.entries(8)).toEqual([{ kind: 'other' }]);
  });
});
