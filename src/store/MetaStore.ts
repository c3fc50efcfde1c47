import type Database from 'better-sqlite3';

/** Small named counters and settings that must survive a restart. */
export class MetaStore {
  private readonly getStatement: Database.Statement<[string], { value: string }>;
  private readonly putStatement: Database.Statement<[string, string]>;
  /** The highest counter value taken, per key (see `takeCounter`). */
  private readonly taken = new Map<string, bigint>();

  constructor(private readonly db: Database.Database) {
    this.getStatement = db.prepare('SELECT value FROM meta WHERE key = ?');
    this.putStatement = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  }

  get(key: string): string | undefined {
    return this.getStatement.get(key)?.value;
  }

  put(key: string, value: string): void {
    this.putStatement.run(key, value);
  }

  /**
   * Takes the counter's next value (starting at 1) now, and stores it later with `store`, best
   * inside the transaction of the work that uses it (one commit instead of two). Values taken
   * are remembered here, so concurrent takers never get the same value, and the table is read
   * only for the first one (one MetaStore per database takes a given counter); `store` writes
   * the highest value taken so far. A value taken and never stored (the process died first) was
   * never used in anything stored, and may be taken again after a restart.
   */
  takeCounter(key: string): { value: bigint; store: () => void } {
    const value = (this.taken.get(key) ?? BigInt(this.get(key) ?? '0')) + 1n;
    this.taken.set(key, value);
    return { value, store: () => this.put(key, String(this.taken.get(key) ?? value)) };
  }

  /** The table was put back (a world revert): counters are read from it again. */
  forgetTaken(): void {
    this.taken.clear();
  }

  reset(): void {
    this.db.exec('DELETE FROM meta');
    this.taken.clear();
  }
}
