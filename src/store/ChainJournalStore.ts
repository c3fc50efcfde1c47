import type Database from 'better-sqlite3';
import type { Hex } from 'viem';

/** One mined block as it can be mined again: its transactions (signed bytes) and its timestamp. */
export interface JournaledBlock {
  chainId: number;
  number: number;
  hash: Hex;
  /** Unix seconds. */
  timestamp: number;
  rawTransactions: Hex[];
}

interface JournalRow {
  chain_id: number;
  number: number;
  hash: string;
  timestamp: number;
  raw_txs_json: string;
}

/** The upstream block a forked chain's journal starts from: the chain is that block, then the journaled ones above it. */
export interface JournalForkBase {
  number: number;
  hash: Hex;
  /** Unix seconds. */
  timestamp: number;
}

function toBlock(row: JournalRow): JournaledBlock {
  return { chainId: row.chain_id, number: row.number, hash: row.hash as Hex, timestamp: row.timestamp, rawTransactions: JSON.parse(row.raw_txs_json) as Hex[] };
}

/**
 * The chain journal: every block the simulator saw mined. A node that dies before writing its
 * state (SIGKILL) comes back at its last saved state; the blocks after it are mined again from
 * here, in order, with their own timestamps, so they come back with the same hashes.
 */
export class ChainJournalStore {
  private readonly putStatement: Database.Statement;
  private readonly afterStatement: Database.Statement<[number, number], JournalRow>;
  private readonly dropStatement: Database.Statement;
  private readonly latestStatement: Database.Statement;
  private readonly blockStatement: Database.Statement<[number, number], JournalRow>;
  private readonly forkBaseStatement: Database.Statement<[number], JournalForkBase>;
  private readonly putForkBaseStatement: Database.Statement;

  constructor(db: Database.Database) {
    this.putStatement = db.prepare(
      'INSERT OR REPLACE INTO chain_journal (chain_id, number, hash, timestamp, raw_txs_json) VALUES (@chainId, @number, @hash, @timestamp, @rawTxsJson)',
    );
    this.afterStatement = db.prepare('SELECT * FROM chain_journal WHERE chain_id = ? AND number > ? ORDER BY number');
    this.dropStatement = db.prepare('DELETE FROM chain_journal WHERE chain_id = ? AND number >= ?');
    this.latestStatement = db.prepare('SELECT MAX(number) AS number FROM chain_journal WHERE chain_id = ?');
    this.blockStatement = db.prepare('SELECT * FROM chain_journal WHERE chain_id = ? AND number = ?');
    this.forkBaseStatement = db.prepare('SELECT number, hash, timestamp FROM chain_journal_forks WHERE chain_id = ?');
    this.putForkBaseStatement = db.prepare('INSERT INTO chain_journal_forks (chain_id, number, hash, timestamp) VALUES (@chainId, @number, @hash, @timestamp)');
  }

  /** The upstream block a forked chain's journal starts from, or undefined (a chain of its own genesis, or none journaled). */
  forkBase(chainId: number): JournalForkBase | undefined {
    return this.forkBaseStatement.get(chainId);
  }

  /** Pins a forked chain's journal to its upstream block, once (its first start): blocks journaled after it are mined on it. */
  putForkBase(chainId: number, base: JournalForkBase): void {
    this.putForkBaseStatement.run({ chainId, ...base });
  }

  put(block: JournaledBlock): void {
    this.putStatement.run({ chainId: block.chainId, number: block.number, hash: block.hash, timestamp: block.timestamp, rawTxsJson: JSON.stringify(block.rawTransactions) });
  }

  /** The blocks above `number`, in order. */
  after(chainId: number, number: number): JournaledBlock[] {
    return this.afterStatement.all(chainId, number).map(toBlock);
  }

  /** One journaled block, or undefined. */
  block(chainId: number, number: number): JournaledBlock | undefined {
    const row = this.blockStatement.get(chainId, number);
    return row ? toBlock(row) : undefined;
  }

  /** The highest journaled block number of a chain, or -1. */
  latestNumber(chainId: number): number {
    return (this.latestStatement.get(chainId) as { number: number | null }).number ?? -1;
  }

  /** Forgets blocks from `number` on (they left the canonical chain). */
  dropFrom(chainId: number, number: number): void {
    this.dropStatement.run(chainId, number);
  }
}
