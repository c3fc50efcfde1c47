import type Database from 'better-sqlite3';

/**
 * SPEC §1.6 fee sponsorship of gasless execution: what each API key holds to pay the gas of the
 * `/execute` calls it subsidizes (`subsidizeFees: true`), in USD micros. A key never funded holds 0.
 */
export class SponsorBalanceStore {
  private readonly getStatement: Database.Statement<[string], { usd_micros: string }>;
  private readonly setStatement: Database.Statement<[string, string]>;

  constructor(readonly db: Database.Database) {
    this.getStatement = db.prepare('SELECT usd_micros FROM sponsor_balances WHERE api_key = ?');
    this.setStatement = db.prepare(
      'INSERT INTO sponsor_balances (api_key, usd_micros) VALUES (?, ?) ON CONFLICT (api_key) DO UPDATE SET usd_micros = excluded.usd_micros',
    );
  }

  balanceOf(apiKey: string): bigint {
    const row = this.getStatement.get(apiKey);
    return row ? BigInt(row.usd_micros) : 0n;
  }

  set(apiKey: string, usdMicros: bigint): void {
    this.setStatement.run(apiKey, usdMicros.toString());
  }

  /** Draws `usdMicros` (what a relayed call's gas cost); the balance never goes below zero. Answers the new balance. */
  debit(apiKey: string, usdMicros: bigint): bigint {
    return this.db.transaction(() => {
      const left = this.balanceOf(apiKey) - usdMicros;
      const balance = left > 0n ? left : 0n;
      this.set(apiKey, balance);
      return balance;
    })();
  }
}
