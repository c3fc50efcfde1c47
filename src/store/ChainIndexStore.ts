import type Database from 'better-sqlite3';
import type { Address, Hex } from 'viem';
import type { DepositState, IndexedDeposit } from '../domain/chain/observedDeposit';
import { preparedStatements } from './preparedStatements';

export interface IndexedBlock {
  chainId: number;
  number: number;
  hash: Hex;
  parentHash: Hex;
}


interface DepositRow {
  chain_id: number;
  tx_hash: string;
  log_index: number;
  request_id: string;
  depositor: string;
  currency: string;
  amount: string;
  block_number: number;
  block_hash: string;
  state: string;
}

function toDeposit(row: DepositRow): IndexedDeposit {
  return {
    chainId: row.chain_id,
    txHash: row.tx_hash as Hex,
    logIndex: row.log_index,
    requestId: row.request_id as Hex,
    depositor: row.depositor as Address,
    currency: row.currency as Address,
    amount: BigInt(row.amount),
    blockNumber: row.block_number,
    blockHash: row.block_hash as Hex,
    state: row.state as DepositState,
  };
}

/**
 * What the chain watchers have indexed: the block hashes they saw (so a reorg is noticed by
 * comparing hashes — Anvil emits no `removed` logs) and the depository deposits they found.
 */
export class ChainIndexStore {
  private readonly prepare: ReturnType<typeof preparedStatements>;

  constructor(private readonly db: Database.Database) {
    this.prepare = preparedStatements(db);
  }

  latestBlock(chainId: number): IndexedBlock | undefined {
    const row = this
      .prepare<[number], { number: number; hash: string; parent_hash: string }>(
        'SELECT number, hash, parent_hash FROM chain_blocks WHERE chain_id = ? ORDER BY number DESC LIMIT 1',
      )
      .get(chainId);
    return row ? { chainId, number: row.number, hash: row.hash as Hex, parentHash: row.parent_hash as Hex } : undefined;
  }

  block(chainId: number, number: number): IndexedBlock | undefined {
    const row = this
      .prepare<[number, number], { hash: string; parent_hash: string }>(
        'SELECT hash, parent_hash FROM chain_blocks WHERE chain_id = ? AND number = ?',
      )
      .get(chainId, number);
    return row ? { chainId, number, hash: row.hash as Hex, parentHash: row.parent_hash as Hex } : undefined;
  }

  putBlock(block: IndexedBlock): void {
    this
      .prepare(
        'INSERT INTO chain_blocks (chain_id, number, hash, parent_hash) VALUES (?, ?, ?, ?) ON CONFLICT (chain_id, number) DO UPDATE SET hash = excluded.hash, parent_hash = excluded.parent_hash',
      )
      .run(block.chainId, block.number, block.hash, block.parentHash);
  }

  /** Forgets indexed blocks at or above `fromNumber` (they were reorged out). */
  dropBlocksFrom(chainId: number, fromNumber: number): void {
    this.prepare('DELETE FROM chain_blocks WHERE chain_id = ? AND number >= ?').run(chainId, fromNumber);
  }

  /** Keeps only the most recent `keep` block hashes of a chain. */
  pruneBlocks(chainId: number, keep: number): void {
    this
      .prepare('DELETE FROM chain_blocks WHERE chain_id = ? AND number < (SELECT MAX(number) FROM chain_blocks WHERE chain_id = ?) - ?')
      .run(chainId, chainId, keep);
  }

  /** Records a deposit; returns false when it was already indexed (same chain, tx and log). */
  insertDeposit(deposit: IndexedDeposit): boolean {
    const result = this
      .prepare(
        `INSERT INTO deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, block_hash, state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (chain_id, tx_hash, log_index) DO UPDATE SET block_number = excluded.block_number, block_hash = excluded.block_hash, state = excluded.state
         WHERE deposits.state <> excluded.state OR deposits.block_hash <> excluded.block_hash`,
      )
      .run(
        deposit.chainId,
        deposit.txHash,
        deposit.logIndex,
        deposit.requestId.toLowerCase(),
        deposit.depositor,
        deposit.currency,
        deposit.amount.toString(),
        deposit.blockNumber,
        deposit.blockHash,
        deposit.state,
      );
    return result.changes === 1;
  }

  /** The requests (ids, lower-case) with at least one canonical indexed deposit. */
  requestIdsWithCanonicalDeposits(): Set<string> {
    return new Set(
      this.prepare<[], { request_id: string }>("SELECT DISTINCT request_id FROM deposits WHERE state = 'canonical'")
        .all()
        .map((row) => row.request_id),
    );
  }

  depositsForRequest(requestId: string): IndexedDeposit[] {
    return this
      .prepare<[string], DepositRow>('SELECT * FROM deposits WHERE request_id = ? ORDER BY block_number, log_index')
      .all(requestId.toLowerCase())
      .map(toDeposit);
  }

  /** The deposits one transaction made on a chain (usually one), in log order. */
  depositsInTransaction(chainId: number, txHash: string): IndexedDeposit[] {
    return this
      .prepare<[number, string], DepositRow>('SELECT * FROM deposits WHERE chain_id = ? AND tx_hash = ? ORDER BY log_index')
      .all(chainId, txHash)
      .map(toDeposit);
  }

  /** Canonical deposits indexed at or above a block number (candidates when a reorg is found). */
  canonicalDepositsFrom(chainId: number, fromNumber: number): IndexedDeposit[] {
    return this
      .prepare<[number, number], DepositRow>(
        "SELECT * FROM deposits WHERE chain_id = ? AND block_number >= ? AND state = 'canonical' ORDER BY block_number, log_index",
      )
      .all(chainId, fromNumber)
      .map(toDeposit);
  }

  /** Every deposit indexed at or above a block number, whatever its state. */
  depositsFromBlock(chainId: number, fromNumber: number): IndexedDeposit[] {
    return this
      .prepare<[number, number], DepositRow>('SELECT * FROM deposits WHERE chain_id = ? AND block_number >= ? ORDER BY block_number, log_index')
      .all(chainId, fromNumber)
      .map(toDeposit);
  }

  /** Whether the same transaction's deposit is canonical again (re-included after a reorg). */
  hasCanonicalCopy(deposit: IndexedDeposit): boolean {
    const row = this
      .prepare<[number, string], { n: number }>("SELECT COUNT(*) AS n FROM deposits WHERE chain_id = ? AND tx_hash = ? AND state = 'canonical'")
      .get(deposit.chainId, deposit.txHash);
    return (row?.n ?? 0) > 0;
  }

  setDepositState(chainId: number, txHash: Hex, logIndex: number, state: DepositState): void {
    this.prepare('UPDATE deposits SET state = ? WHERE chain_id = ? AND tx_hash = ? AND log_index = ?').run(state, chainId, txHash, logIndex);
  }

  reset(): void {
    this.db.exec('DELETE FROM chain_blocks; DELETE FROM deposits;');
  }
}
