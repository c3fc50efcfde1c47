import type Database from 'better-sqlite3';

/** Small named counters and settings that must survive a restart. */
export class MetaStore {
  private readonly getStatement: Database.Statement<[string], { value: string }>;
  private readonly putStatement: Database.Statement<[string, string]>;

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

  /** Returns the counter's next value (starting at 1) and stores it, atomically. */
  nextCounter(key: string): bigint {
    return this.db.transaction(() => {
      const next = BigInt(this.get(key) ?? '0') + 1n;
      this.put(key, next.toString());
      return next;
    })();
  }

  reset(): void {
    this.db.exec('DELETE FROM meta');
  }
}
