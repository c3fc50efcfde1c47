import type Database from 'better-sqlite3';
import { keccak256, toHex } from 'viem';

/** SPEC §5: an API key authenticates `GET /requests/v3`, keys webhook HMACs and determines rate limits. */
export interface ApiKey {
  key: string;
  name: string;
  createdAt: number;
  isDefault: boolean;
}

interface ApiKeyRow {
  key: string;
  name: string;
  created_at: number;
  is_default: number;
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return { key: row.key, name: row.name, createdAt: row.created_at, isDefault: row.is_default === 1 };
}

/**
 * The simulator's API keys. Keys are derived from the seed and a sequence number, so the same
 * seed prints the same default key every run (as Anvil prints the same accounts).
 */
export class ApiKeyStore {
  private readonly insertStatement: Database.Statement;
  private readonly getStatement: Database.Statement<[string], ApiKeyRow>;
  private readonly listStatement: Database.Statement<[], ApiKeyRow>;
  private readonly defaultStatement: Database.Statement<[], ApiKeyRow>;
  private readonly countStatement: Database.Statement<[], { count: number }>;

  constructor(
    readonly db: Database.Database,
    private readonly seed: number,
  ) {
    this.insertStatement = db.prepare('INSERT INTO api_keys (key, name, created_at, is_default) VALUES (?, ?, ?, ?)');
    this.getStatement = db.prepare('SELECT * FROM api_keys WHERE key = ?');
    this.listStatement = db.prepare('SELECT * FROM api_keys ORDER BY created_at, rowid');
    this.defaultStatement = db.prepare('SELECT * FROM api_keys WHERE is_default = 1');
    this.countStatement = db.prepare('SELECT COUNT(*) AS count FROM api_keys');
  }

  /** The default key, created on first use. */
  ensureDefault(now: number): ApiKey {
    const existing = this.defaultStatement.get();
    if (existing) return toApiKey(existing);
    return this.insert('default', now, true);
  }

  create(name: string, now: number): ApiKey {
    return this.insert(name, now, false);
  }

  get(key: string): ApiKey | undefined {
    const row = this.getStatement.get(key);
    return row ? toApiKey(row) : undefined;
  }

  list(): ApiKey[] {
    return this.listStatement.all().map(toApiKey);
  }

  private insert(name: string, now: number, isDefault: boolean): ApiKey {
    return this.db.transaction(() => {
      const sequence = this.countStatement.get()!.count;
      const key = `intentsim_${keccak256(toHex(`intentsim api key ${this.seed} ${sequence}`)).slice(2, 34)}`;
      this.insertStatement.run(key, name, now, isDefault ? 1 : 0);
      return { key, name, createdAt: now, isDefault };
    })();
  }
}
