import { bitcoin, toHex } from './bvmCrypto';
import { outpointKey, txidOf } from './bvmConsensus';
import type { BvmBlock, BvmCoin, BvmTransactionRecord } from './bvmLedgerTypes';
import { BvmUpstreamReads } from './BvmUpstreamReads';

/** A block `invalidateblock` disconnected, with its transactions (the coinbase first). */
export interface BvmDisconnectedBlock {
  block: BvmBlock;
  records: BvmTransactionRecord[];
}

/**
 * Everything a Bitcoin ledger holds, as plain collections: the UTXO set, the mempool, the mined
 * transactions and who spent what, the chain of blocks and the blocks `invalidateblock` set aside.
 * It applies the mechanical parts of a change (connect a block, disconnect the tip, put a
 * transaction in the mempool or take it out); the rules and the listeners are `BvmLedger`'s.
 * Records, coins and blocks are never changed in place, so `copy` (a snapshot) copies only the
 * collections. A forked ledger's outputs read from its upstream (`upstream`) count as confirmed
 * unspent outputs until a mined transaction spends them; every copy shares them.
 */
export class BvmLedgerState {
  constructor(readonly upstream: BvmUpstreamReads = new BvmUpstreamReads()) {}

  readonly utxos = new Map<string, BvmCoin>();
  readonly mempool = new Map<string, BvmTransactionRecord>();
  /** Outpoint → the mempool transaction that spends it. */
  readonly mempoolSpends = new Map<string, string>();
  readonly confirmed = new Map<string, BvmTransactionRecord>();
  /** Outpoint → the mined transaction that spent it. */
  readonly confirmedSpends = new Map<string, string>();
  readonly blocks: BvmBlock[] = [];
  readonly blocksByHash = new Map<string, BvmBlock>();
  /** Blocks `invalidateblock` disconnected, the lowest last. */
  readonly invalidated: BvmDisconnectedBlock[] = [];
  nextTimestamp: number | undefined;
  /** Replacement blocks mined so far by reorgs: each coinbase carries the next number, so no two are alike. */
  reorgBlocks = 0;

  get height(): number {
    return this.blocks.length - 1;
  }

  get tip(): BvmBlock | undefined {
    return this.blocks[this.blocks.length - 1];
  }

  copy(): BvmLedgerState {
    const copy = new BvmLedgerState(this.upstream);
    const maps = ['utxos', 'mempool', 'mempoolSpends', 'confirmed', 'confirmedSpends', 'blocksByHash'] as const;
    for (const name of maps) for (const [key, value] of this[name] as Map<string, unknown>) (copy[name] as Map<string, unknown>).set(key, value);
    // one by one: a spread of a long chain into push() overflows the call stack
    for (const block of this.blocks) copy.blocks.push(block);
    for (const block of this.invalidated) copy.invalidated.push(block);
    copy.nextTimestamp = this.nextTimestamp;
    copy.reorgBlocks = this.reorgBlocks;
    return copy;
  }

  /** The mempool transaction or mined one spending an outpoint, if any. */
  spenderOf(txid: string, vout: number): string | undefined {
    const key = outpointKey(txid, vout);
    return this.mempoolSpends.get(key) ?? this.confirmedSpends.get(key);
  }

  /** An output that exists and nothing mined spends: confirmed and unspent, or of a mempool transaction (mempool spends not counted). */
  outputOf(txid: string, vout: number): BvmCoin | undefined {
    const coin = this.confirmedCoin(txid, vout);
    if (coin) return coin;
    const output = this.mempool.get(txid)?.tx.outs[vout];
    return output ? { txid, vout, value: output.value, script: output.script, height: null, coinbase: false } : undefined;
  }

  /** A confirmed output nothing mined spends: a local one, or one read from the upstream. */
  confirmedCoin(txid: string, vout: number): BvmCoin | undefined {
    const key = outpointKey(txid, vout);
    const upstream = this.upstream.output(txid, vout);
    return this.utxos.get(key) ?? (upstream && !this.confirmedSpends.has(key) ? upstream : undefined);
  }

  /** The confirmed outputs paying a script (hex) that nothing mined spends, local ones first. */
  confirmedCoinsOf(scriptHex: string): BvmCoin[] {
    const local = [...this.utxos.values()].filter((coin) => toHex(coin.script) === scriptHex);
    const upstream = this.upstream.outputsOf(scriptHex).filter((coin) => !this.confirmedSpends.has(outpointKey(coin.txid, coin.vout)));
    return [...local, ...upstream];
  }

  addToMempool(record: BvmTransactionRecord): void {
    this.mempool.set(record.txid, record);
    for (const input of record.tx.ins) this.mempoolSpends.set(outpointKey(txidOf(input.hash), input.index), record.txid);
  }

  /** Takes one transaction out of the mempool (its descendants stay: the caller decides). */
  removeFromMempool(txid: string): BvmTransactionRecord | undefined {
    const record = this.mempool.get(txid);
    if (!record) return undefined;
    this.mempool.delete(txid);
    for (const input of record.tx.ins) {
      const key = outpointKey(txidOf(input.hash), input.index);
      if (this.mempoolSpends.get(key) === txid) this.mempoolSpends.delete(key);
    }
    return record;
  }

  /** The mempool transactions spending an output of `txid`. */
  mempoolChildrenOf(txid: string): string[] {
    const record = this.mempool.get(txid);
    if (!record) return [];
    return record.tx.outs.flatMap((_, vout) => {
      const child = this.mempoolSpends.get(outpointKey(txid, vout));
      return child ? [child] : [];
    });
  }

  /** These mempool transactions and every mempool transaction descending from them, parents first. */
  withMempoolDescendants(txids: readonly string[]): BvmTransactionRecord[] {
    const seen = new Set<string>();
    const out: BvmTransactionRecord[] = [];
    const visit = (txid: string) => {
      const record = this.mempool.get(txid);
      if (!record || seen.has(txid)) return;
      seen.add(txid);
      out.push(record);
      this.mempoolChildrenOf(txid).forEach(visit);
    };
    txids.forEach(visit);
    return out;
  }

  /** Puts a block on the tip: its transactions leave the mempool, their inputs are spent, their outputs unspent. */
  connect(mined: BvmBlock, records: BvmTransactionRecord[]): void {
    this.blocks.push(mined);
    this.blocksByHash.set(mined.hash, mined);
    for (const record of records) {
      this.removeFromMempool(record.txid);
      if (record.index !== 0) {
        for (const input of record.tx.ins) {
          const key = outpointKey(txidOf(input.hash), input.index);
          this.utxos.delete(key);
          this.confirmedSpends.set(key, record.txid);
        }
      }
      record.tx.outs.forEach((output, vout) => {
        if (output.script[0] === bitcoin.opcodes.OP_RETURN) return;
        this.utxos.set(outpointKey(record.txid, vout), { txid: record.txid, vout, value: output.value, script: output.script, height: mined.height, coinbase: record.index === 0 });
      });
      this.confirmed.set(record.txid, record);
    }
  }

  /**
   * Takes the tip off the chain: the outputs its transactions spent are unspent again, theirs are
   * gone, and its transactions are no longer mined (the caller puts them back in the mempool or not).
   */
  disconnectTip(): BvmDisconnectedBlock {
    const block = this.tip!;
    const records = block.txids.map((txid) => this.confirmed.get(txid)!);
    for (const record of [...records].reverse()) {
      this.confirmed.delete(record.txid);
      record.tx.outs.forEach((_, vout) => this.utxos.delete(outpointKey(record.txid, vout)));
      if (record.index === 0) continue;
      record.tx.ins.forEach((input, i) => {
        const key = outpointKey(txidOf(input.hash), input.index);
        this.confirmedSpends.delete(key);
        const previous = this.confirmed.get(txidOf(input.hash));
        // (an output of an earlier transaction of this block is restored here, then removed with it)
        if (!previous) return;
        const prevout = record.prevouts[i]!;
        this.utxos.set(key, { txid: previous.txid, vout: input.index, value: prevout.value, script: prevout.script, height: previous.height!, coinbase: previous.index === 0 });
      });
    }
    this.blocks.pop();
    this.blocksByHash.delete(block.hash);
    return { block, records };
  }
}
