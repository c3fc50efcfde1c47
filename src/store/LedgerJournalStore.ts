import type Database from 'better-sqlite3';
import type { LedgerJournal } from '../nodes/LedgerJournal';
import { parseWithBigints, stringifyWithBigints } from './jsonWithBigints';

interface EntryRow {
  seq: number;
  entry_json: string;
}

/**
 * The journal of an in-process ledger (the SVM, BVM and exchange chains have no node that writes
 * its own state): every change the ledger made, in order, as plain data. The ledger writes each
 * entry before it acknowledges the change (better-sqlite3 writes synchronously), so a SIGKILL loses
 * nothing; at start, a ledger built from the same genesis applies the entries again in order and
 * comes back with the same state, hashes and history. What an entry holds is the ledger's own
 * business (`T`); bigints survive the round trip. It is the `LedgerJournal` the embedded nodes
 * declare (`src/nodes/LedgerJournal.ts`). The EVM chains' front journals the calls users send
 * through it here too (`src/chains/evm/front/EvmCallJournal.ts`), under the EVM chain's id.
 */
export class LedgerJournalStore implements LedgerJournal {
  private readonly appendStatement: Database.Statement;
  private readonly entriesStatement: Database.Statement<[number], EntryRow>;
  private readonly countStatement: Database.Statement<[number], { count: number }>;
  private readonly maxSeqStatement: Database.Statement<[number], { seq: number }>;
  private readonly nextSeq = new Map<number, number>();

  constructor(db: Database.Database) {
    this.appendStatement = db.prepare('INSERT INTO ledger_journal (chain_id, seq, entry_json) VALUES (?, ?, ?)');
    this.entriesStatement = db.prepare('SELECT seq, entry_json FROM ledger_journal WHERE chain_id = ? ORDER BY seq');
    this.countStatement = db.prepare('SELECT COUNT(*) AS count FROM ledger_journal WHERE chain_id = ?');
    this.maxSeqStatement = db.prepare('SELECT COALESCE(MAX(seq), -1) AS seq FROM ledger_journal WHERE chain_id = ?');
  }

  /** Appends one entry to a chain's journal. */
  append<T>(chainId: number, entry: T): void {
    const seq = this.nextSeq.get(chainId) ?? this.maxSeqStatement.get(chainId)!.seq + 1;
    this.appendStatement.run(chainId, seq, stringifyWithBigints(entry));
    this.nextSeq.set(chainId, seq + 1);
  }

  /** The table was put back (a world revert): each chain's next entry number is read from it again. */
  forgetSequences(): void {
    this.nextSeq.clear();
  }

  /** Every entry of a chain's journal, oldest first. */
  entries<T>(chainId: number): T[] {
    return this.entriesStatement.all(chainId).map((row) => parseWithBigints(row.entry_json) as T);
  }

  /** Whether the chain has a journal (it ran before with this database). */
  has(chainId: number): boolean {
    return this.countStatement.get(chainId)!.count > 0;
  }
}
