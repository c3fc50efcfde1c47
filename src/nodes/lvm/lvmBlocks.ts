import { lvmBlockHash, type LvmLedger, type LvmTransaction } from './LvmLedger';

/** A block of the exchange: one transfer, or none (mined empty by the control plane). */
export interface LvmBlock {
  height: number;
  /** Bare hex (the API's `commitment`). */
  hash: string;
  transactions: LvmTransaction[];
  /** Unix milliseconds: its transfer's time; an empty block carries the time of the last transfer before it (0 before any). */
  timestamp: number;
}

/** The block at `height` (1 to the current height), or undefined. */
export function lvmBlockAt(ledger: LvmLedger, height: number): LvmBlock | undefined {
  if (!Number.isSafeInteger(height) || height < 1 || height > ledger.height) return undefined;
  const earlier = ledger.transactions().filter((tx) => tx.blockHeight <= height);
  const last = earlier.at(-1);
  if (last?.blockHeight === height) return { height, hash: last.blockHash, transactions: [last], timestamp: last.executedAt };
  return { height, hash: lvmBlockHash(height, ''), transactions: [], timestamp: last?.executedAt ?? 0 };
}

/** The block whose hash (commitment) is `hash`, bare or 0x-prefixed, any case. */
export function lvmBlockByHash(ledger: LvmLedger, hash: string): LvmBlock | undefined {
  const wanted = hash.toLowerCase().replace(/^0x/, '');
  const withTransfer = ledger.transactions().find((tx) => tx.blockHash === wanted);
  if (withTransfer) return lvmBlockAt(ledger, withTransfer.blockHeight);
  for (let height = 1; height <= ledger.height; height++) {
    if (lvmBlockHash(height, '') === wanted) return lvmBlockAt(ledger, height);
  }
  return undefined;
}
