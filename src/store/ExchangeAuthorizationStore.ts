import type Database from 'better-sqlite3';

/** SPEC §4.7 `POST /authorize`: one exchange nonce of a wallet, mapped to a request and its depositor. */
export interface ExchangeAuthorization {
  /** The wallet that signed (lower case). */
  signer: string;
  nonce: bigint;
  requestId: string;
  depositor: string;
  signature: string;
  createdAt: number;
}

interface Row {
  signer: string;
  nonce: string;
  request_id: string;
  depositor: string;
  signature: string;
  created_at: number;
}

function toAuthorization(row: Row): ExchangeAuthorization {
  return { signer: row.signer, nonce: BigInt(row.nonce), requestId: row.request_id, depositor: row.depositor, signature: row.signature, createdAt: row.created_at };
}

/** Nonce mappings, keyed by (signer, nonce): the key makes a nonce single-use. */
export class ExchangeAuthorizationStore {
  constructor(private readonly db: Database.Database) {}

  /** Stores the mapping unless the signer's nonce is taken; returns the mapping that holds the nonce either way. */
  insert(authorization: ExchangeAuthorization): { inserted: boolean; holder: ExchangeAuthorization } {
    const signer = authorization.signer.toLowerCase();
    const result = this.db
      .prepare(
        `INSERT INTO exchange_authorizations (signer, nonce, request_id, depositor, signature, created_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (signer, nonce) DO NOTHING`,
      )
      .run(signer, authorization.nonce.toString(), authorization.requestId.toLowerCase(), authorization.depositor, authorization.signature, authorization.createdAt);
    return { inserted: result.changes === 1, holder: this.find(signer, authorization.nonce)! };
  }

  find(signer: string, nonce: bigint): ExchangeAuthorization | undefined {
    const row = this.db.prepare('SELECT * FROM exchange_authorizations WHERE signer = ? AND nonce = ?').get(signer.toLowerCase(), nonce.toString()) as Row | undefined;
    return row ? toAuthorization(row) : undefined;
  }

  /** Every mapping made for a request (oldest first). */
  forRequest(requestId: string): ExchangeAuthorization[] {
    const rows = this.db.prepare('SELECT * FROM exchange_authorizations WHERE request_id = ? ORDER BY created_at, nonce').all(requestId.toLowerCase()) as Row[];
    return rows.map(toAuthorization);
  }
}
