/**
 * What an embedded node needs to survive a restart: an append-only journal of its ledger's
 * changes per chain, as plain data (bigints kept), written before the change is acknowledged.
 * The node declares it; the simulator's store implements it (`store/LedgerJournalStore`), and a
 * node started alone has none (its state lives as long as its process).
 */
export interface LedgerJournal {
  /** Appends one entry to a chain's journal. */
  append<T>(chainId: number, entry: T): void;
  /** Every entry of a chain's journal, oldest first. */
  entries<T>(chainId: number): T[];
  /** Whether the chain has a journal (it ran before with this database). */
  has(chainId: number): boolean;
}
