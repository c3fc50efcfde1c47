import type Database from 'better-sqlite3';
import type { RequestRecord } from '../domain/request/requestRecord';
import { parseWithBigints } from './jsonWithBigints';
import { amountUsdSortKey } from './RequestListingStore';

/** A migration: SQL, or a step that rewrites rows with the project's own code. */
type Migration = string | ((db: Database.Database) => void);

/** Rows written before migration 4 have no listing amount key: compute it from the record. */
function backfillAmountUsdKeys(db: Database.Database): void {
  const missing = db.prepare('SELECT id, record_json FROM requests WHERE amount_usd_key IS NULL').all() as Array<{ id: string; record_json: string }>;
  const update = db.prepare('UPDATE requests SET amount_usd_key = ? WHERE id = ?');
  for (const row of missing) update.run(amountUsdSortKey(parseWithBigints<RequestRecord>(row.record_json)), row.id);
}

/**
 * Schema migrations, in order. Each runs once, inside a transaction; `PRAGMA user_version`
 * records how many have run. Append new migrations; never edit a released one.
 */
const MIGRATIONS: readonly Migration[] = [
  // 1: requests, their status events (the outbox), chain cursors and solver transactions.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE requests (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    origin_chain_id INTEGER NOT NULL,
    destination_chain_id INTEGER NOT NULL,
    user_address TEXT NOT NULL,
    recipient TEXT NOT NULL,
    depositor TEXT,
    record_json TEXT NOT NULL
  );
  CREATE INDEX requests_status ON requests (status);
  CREATE INDEX requests_created ON requests (created_at, id);

  CREATE TABLE request_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id TEXT NOT NULL REFERENCES requests (id),
    from_status TEXT,
    to_status TEXT NOT NULL,
    at INTEGER NOT NULL,
    payload_json TEXT NOT NULL
  );
  CREATE INDEX request_events_request ON request_events (request_id, seq);

  CREATE TABLE chain_blocks (
    chain_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    hash TEXT NOT NULL,
    parent_hash TEXT NOT NULL,
    PRIMARY KEY (chain_id, number)
  );

  CREATE TABLE deposits (
    chain_id INTEGER NOT NULL,
    tx_hash TEXT NOT NULL,
    log_index INTEGER NOT NULL,
    request_id TEXT NOT NULL,
    depositor TEXT NOT NULL,
    currency TEXT NOT NULL,
    amount TEXT NOT NULL,
    block_number INTEGER NOT NULL,
    block_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (chain_id, tx_hash, log_index)
  );
  CREATE INDEX deposits_request ON deposits (request_id);

  CREATE TABLE solver_transactions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    chain_id INTEGER NOT NULL,
    nonce INTEGER NOT NULL,
    tx_hash TEXT NOT NULL,
    raw_tx TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX solver_transactions_request_kind ON solver_transactions (request_id, kind);
  `,
  // 2: API keys (SPEC §5); a request remembers the key its quote was made with.
  `
  CREATE TABLE api_keys (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0
  );
  ALTER TABLE requests ADD COLUMN api_key TEXT;
  CREATE INDEX requests_api_key ON requests (api_key, created_at);
  `,
  // 3: webhooks (SPEC §6): one endpoint per API key, the delivery outbox, the attempt log.
  `
  CREATE TABLE webhook_endpoints (
    api_key TEXT PRIMARY KEY REFERENCES api_keys (key),
    enabled INTEGER NOT NULL,
    url TEXT NOT NULL,
    headers_json TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_seq INTEGER NOT NULL REFERENCES request_events (seq),
    request_id TEXT NOT NULL,
    api_key TEXT NOT NULL,
    request_status TEXT NOT NULL,
    url TEXT NOT NULL,
    headers_json TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    created_at INTEGER NOT NULL,
    delivered_at INTEGER
  );
  CREATE INDEX webhook_deliveries_state ON webhook_deliveries (state, next_attempt_at);
  CREATE INDEX webhook_deliveries_request ON webhook_deliveries (request_id, id);

  CREATE TABLE webhook_attempts (
    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id),
    attempt INTEGER NOT NULL,
    at INTEGER NOT NULL,
    signature_timestamp INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    PRIMARY KEY (delivery_id, attempt)
  );
  `,
  // 4: request listing (SPEC §4.3): keyset pagination on each sort key (+ id), and the
  // currencyIn USD value as a fixed-width sort key (exact for any bigint amount).
  `
  ALTER TABLE requests ADD COLUMN amount_usd_key TEXT;
  CREATE INDEX requests_updated ON requests (updated_at, id);
  CREATE INDEX requests_amount_usd ON requests (amount_usd_key, id);
  `,
  // 5: deposit addresses (SPEC §1.6): one per request, watched on its origin chain until paid, then swept.
  `
  CREATE TABLE deposit_addresses (
    chain_id INTEGER NOT NULL,
    address TEXT NOT NULL,
    request_id TEXT NOT NULL,
    state TEXT NOT NULL,
    depositor TEXT,
    payment_tx_hash TEXT,
    payment_currency TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (chain_id, address)
  );
  CREATE UNIQUE INDEX deposit_addresses_request ON deposit_addresses (request_id);
  CREATE INDEX deposit_addresses_state ON deposit_addresses (chain_id, state);
  `,
  // 6: the listing's amount key for requests stored before migration 4 (was done by the listing route).
  backfillAmountUsdKeys,
  // 7: listing pages filtered by status (or chain) and ordered by time, read straight off an index.
  `
  CREATE INDEX IF NOT EXISTS requests_status_created ON requests (status, created_at, id);
  CREATE INDEX IF NOT EXISTS requests_status_updated ON requests (status, updated_at, id);
  CREATE INDEX IF NOT EXISTS requests_origin_created ON requests (origin_chain_id, created_at, id);
  CREATE INDEX IF NOT EXISTS requests_created_status ON requests (created_at, id, status);
  `,
  // 8: every block a chain mined, with its raw transactions and timestamp: a chain killed before it
  // could save its state is replayed from here on the next start (same blocks, same hashes).
  `
  CREATE TABLE IF NOT EXISTS chain_journal (
    chain_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    hash TEXT NOT NULL,
    timestamp INTEGER NOT NULL,
    raw_txs_json TEXT NOT NULL,
    PRIMARY KEY (chain_id, number)
  );
  `,
  // 9: listing pages for a list of statuses read each status off its own (status, sort key, id)
  // index and merge them (RequestListingStore), so status lists sorted by amount get theirs too.
  // Two indexes every request write paid for go: (status) and (created_at, id, status) are
  // prefixes of, or read no better than, (status, created_at, id) and (created_at, id).
  `
  CREATE INDEX IF NOT EXISTS requests_status_amount_usd ON requests (status, amount_usd_key, id);
  DROP INDEX IF EXISTS requests_status;
  DROP INDEX IF EXISTS requests_created_status;
  `,
  // 10: SPEC §1.6 app fees and §4.7 /authorize. A credit per app fee recipient of a request that
  // succeeded (written in the status change's transaction; the key makes it once per request and
  // recipient); claims with their on-chain payment; exchange-flow nonce mappings (a nonce is
  // authorized once per signer).
  `
  CREATE TABLE IF NOT EXISTS app_fee_credits (
    request_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    wallet TEXT NOT NULL,
    chain_id INTEGER NOT NULL,
    currency TEXT NOT NULL,
    amount TEXT NOT NULL,
    credited_at INTEGER NOT NULL,
    PRIMARY KEY (request_id, position)
  );
  CREATE INDEX IF NOT EXISTS app_fee_credits_wallet ON app_fee_credits (wallet, chain_id, currency);
  CREATE TABLE IF NOT EXISTS app_fee_claims (
    id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    chain_id INTEGER NOT NULL,
    currency TEXT NOT NULL,
    recipient TEXT NOT NULL,
    amount TEXT NOT NULL,
    status TEXT NOT NULL,
    tx_hash TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS app_fee_claims_wallet ON app_fee_claims (wallet, seq);
  CREATE TABLE IF NOT EXISTS exchange_authorizations (
    signer TEXT NOT NULL,
    nonce TEXT NOT NULL,
    request_id TEXT NOT NULL,
    depositor TEXT NOT NULL,
    signature TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (signer, nonce)
  );
  `,
  // 11: each API key's sponsor balance (SPEC §1.6 fee sponsorship of gasless `/execute` calls), USD
  // micros as a decimal string; set through the admin routes, drawn by the relayer's gas.
  `
  CREATE TABLE IF NOT EXISTS sponsor_balances (
    api_key TEXT PRIMARY KEY,
    usd_micros TEXT NOT NULL
  );
  `,
  // 12: the journal of each in-process ledger (SVM, BVM, exchange): every change in order, applied
  // again at start so those chains survive a restart and a SIGKILL (LedgerJournalStore).
  `
  CREATE TABLE IF NOT EXISTS ledger_journal (
    chain_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    entry_json TEXT NOT NULL,
    PRIMARY KEY (chain_id, seq)
  );
  `,
  // 13: the upstream block a forked EVM chain's journal starts from (docs/forking.md, "With --db"):
  // pinned at the fork's first start, so a restart forks the same block and mines the journal on it.
  `
  CREATE TABLE IF NOT EXISTS chain_journal_forks (
    chain_id INTEGER PRIMARY KEY,
    number INTEGER NOT NULL,
    hash TEXT NOT NULL,
    timestamp INTEGER NOT NULL
  );
  `,
];

export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this intentsim knows (${MIGRATIONS.length}); use a fresh --db file`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      const migration = MIGRATIONS[version]!;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return MIGRATIONS.length;
}
