import type { bitcoin } from './bvmCrypto';
import type { BvmUpstreamOutput, BvmUpstreamTransaction } from './BvmUpstreamReads';

/** The shapes the ledger keeps and tells (coins, transaction records, changes, blocks). */

/** An unspent output: confirmed at `height`, or `height: null` while its transaction waits in the mempool. */
export interface BvmCoin {
  txid: string;
  vout: number;
  value: bigint;
  script: Uint8Array;
  height: number | null;
  coinbase: boolean;
}

/** A transaction the ledger knows: in the mempool (`blockHash` undefined) or mined. */
export interface BvmTransactionRecord {
  txid: string;
  tx: bitcoin.Transaction;
  hex: string;
  /** Inputs minus outputs, in satoshis (0 for a coinbase). */
  fee: bigint;
  vsize: number;
  /** Unix seconds: when the mempool accepted it (a coinbase: its block's time). */
  time: number;
  /** The value and script of each input's previous output (empty for a coinbase). */
  prevouts: Array<{ value: bigint; script: Uint8Array }>;
  blockHash?: string;
  height?: number;
  /** Its position in the block. */
  index?: number;
}

/**
 * A change the ledger is about to make, told to its recorder (the journal, `BvmLedgerJournal`)
 * before the change is made and before any listener hears of it. Applying the same changes in the
 * same order to the same genesis gives back the same ledger (hashes, txids, times).
 */
export type BvmLedgerChange =
  | { kind: 'admit'; hex: string; time: number }
  | { kind: 'evict'; txid: string }
  | { kind: 'nextBlockTime'; time: number }
  | { kind: 'invalidateTip'; hash: string }
  | { kind: 'reconsider'; hash: string }
  /** The last `depth` blocks replaced by blocks at `time` paying `coinbaseScript`, the first holding `including` (raw transactions). */
  | { kind: 'reorg'; depth: number; time: number; coinbaseScript: Uint8Array; including: string[] }
  | { kind: 'snapshot'; id: string }
  | { kind: 'revert'; id: string }
  | { kind: 'block'; height: number; hash: string; time: number; coinbaseScript: Uint8Array; transactions: string[] }
  /** A forked ledger read an address's unspent outputs from its upstream (`BvmReadThrough`). */
  | { kind: 'upstreamOutputs'; script: Uint8Array; outputs: BvmUpstreamOutput[] }
  /** A forked ledger read a transaction from its upstream by id. */
  | ({ kind: 'upstreamTransaction' } & BvmUpstreamTransaction);

export interface BvmBlock {
  hash: string;
  height: number;
  block: bitcoin.Block;
  /** Unix seconds (the header's timestamp). */
  time: number;
  txids: string[];
  previousHash: string | null;
  size: number;
  weight: number;
}

