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
   * and not stored yet are remembered here, so concurrent takers never get the same value;
   * `store` writes the highest value taken so far. A value taken and never stored (the process
   * died first) was never used in anything stored, and may be taken again after a restart.
   */
  takeCounter(key: string): { value: bigint; store: () => void } {
    const stored = BigInt(this.get(key) ?? '0');
    const taken = this.taken.get(key);
    const value = (taken !== undefined && taken > stored ? taken : stored) + 1n;
    this.taken.set(key, value);
    return {
      value,
      store: () => {
        const highest = this.taken.get(key) ?? value;
        if (BigInt(this.get(key) ?? '0') < highest) this.put(key, highest.toString());
      },
    };
  }

  reset(): void {
    this.db.exec('DELETE FROM meta');
    this.taken.clear();
  }
}
