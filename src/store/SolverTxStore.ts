import type Database from 'better-sqlite3';
import type { Hex } from 'viem';
import { preparedStatements } from './preparedStatements';

/** fill: destination payment; refund: origin payment back; sweep: a deposit address moved into the depository. */
export type SolverTxKind = 'fill' | 'refund' | 'sweep';
/** signed: persisted before broadcast; broadcast: sent; confirmed/failed: receipt seen. */
export type SolverTxState = 'signed' | 'broadcast' | 'confirmed' | 'failed';

export interface SolverTransaction {
  id: number;
  requestId: Hex;
  kind: SolverTxKind;
  chainId: number;
  nonce: number;
  txHash: Hex;
  rawTx: Hex;
  state: SolverTxState;
  createdAt: number;
}

interface Row {
  id: number;
  request_id: string;
  kind: string;
  chain_id: number;
  nonce: number;
  tx_hash: string;
  raw_tx: string;
  state: string;
  created_at: number;
}

function toTransaction(row: Row): SolverTransaction {
  return {
    id: row.id,
    requestId: row.request_id as Hex,
    kind: row.kind as SolverTxKind,
    chainId: row.chain_id,
    nonce: row.nonce,
    txHash: row.tx_hash as Hex,
    rawTx: row.raw_tx as Hex,
    state: row.state as SolverTxState,
    createdAt: row.created_at,
  };
}

/**
 * The solver's own transactions. A signed transaction is written here before it is broadcast,
 * so after a crash the same raw transaction (same nonce) is sent again instead of a new one:
 * a request is never filled twice.
 */
export class SolverTxStore {
  private readonly prepare: ReturnType<typeof preparedStatements>;

  constructor(private readonly db: Database.Database) {
    this.prepare = preparedStatements(db);
  }

  /** Records a signed transaction; returns false if the request already has one of that kind. */
  insertSigned(tx: Omit<SolverTransaction, 'id' | 'state'>): boolean {
    const result = this
      .prepare(
        `INSERT INTO solver_transactions (request_id, kind, chain_id, nonce, tx_hash, raw_tx, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?, 'signed', ?) ON CONFLICT (request_id, kind) DO NOTHING`,
      )
      .run(tx.requestId.toLowerCase(), tx.kind, tx.chainId, tx.nonce, tx.txHash, tx.rawTx, tx.createdAt);
    return result.changes === 1;
  }

  find(requestId: string, kind: SolverTxKind): SolverTransaction | undefined {
    const row = this
      .prepare<[string, string], Row>('SELECT * FROM solver_transactions WHERE request_id = ? AND kind = ?')
      .get(requestId.toLowerCase(), kind);
    return row ? toTransaction(row) : undefined;
  }

  /** Forgets a transaction the node refused (it never existed on chain; its nonce is free again). */
  forget(id: number): void {
    this.prepare('DELETE FROM solver_transactions WHERE id = ?').run(id);
  }

  setState(id: number, state: SolverTxState): void {
    this.prepare('UPDATE solver_transactions SET state = ? WHERE id = ?').run(state, id);
  }

  /** Transactions not yet seen in a receipt, oldest first (resent after a restart). */
  unsettled(chainId: number): SolverTransaction[] {
    return this
      .prepare<[number], Row>("SELECT * FROM solver_transactions WHERE chain_id = ? AND state IN ('signed', 'broadcast') ORDER BY nonce")
      .all(chainId)
      .map(toTransaction);
  }

  /** Every transaction on a chain from this nonce up, by nonce (what a reorg may have dropped). */
  fromNonce(chainId: number, nonce: number): SolverTransaction[] {
    return this
      .prepare<[number, number], Row>('SELECT * FROM solver_transactions WHERE chain_id = ? AND nonce >= ? ORDER BY nonce')
      .all(chainId, nonce)
      .map(toTransaction);
  }

  /** The highest nonce this store has used on a chain, or -1. */
  highestNonce(chainId: number): number {
    const row = this
      .prepare<[number], { nonce: number | null }>('SELECT MAX(nonce) AS nonce FROM solver_transactions WHERE chain_id = ?')
      .get(chainId);
    return row?.nonce ?? -1;
  }

  reset(): void {
    this.db.exec('DELETE FROM solver_transactions');
  }
}
