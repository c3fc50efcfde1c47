import type { VirtualClock } from '../../clock/VirtualClock';
import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { toHex, transactionIdOf } from './bvmCrypto';
import { BVM_PARAMS, decodeTransaction, outpointKey, txidOf } from './bvmConsensus';
import type { BvmBlock, BvmCoin, BvmLedgerChange, BvmTransactionRecord } from './bvmLedgerTypes';
import type { BvmUpstreamOutput, BvmUpstreamTransaction } from './BvmUpstreamReads';
import { BvmLedgerState } from './BvmLedgerState';
import { buildBvmBlock } from './buildBvmBlock';
import { validateBvmTransaction } from './validateBvmTransaction';

export type { BvmBlock, BvmCoin, BvmLedgerChange, BvmTransactionRecord } from './bvmLedgerTypes';
export { BVM_PARAMS, blockSubsidy, decodeTransaction, dustThreshold, feeAt, formatBtc } from './bvmConsensus';

/** Why a transaction left the mempool unmined (or did not come back to it after a reorg): `replacedBy`, the transaction that spent its inputs (or a parent's). */
export interface BvmEviction {
  replacedBy?: string;
}

/**
 * A Bitcoin ledger in-process (regtest rules): a UTXO set, a mempool and a chain of blocks with
 * real headers (`BvmLedgerState` holds them). Every transaction is a real, serialized Bitcoin
 * transaction: each input must spend an unspent output (confirmed, or from a transaction waiting
 * in the mempool), a coinbase output only after 100 confirmations, carry a valid p2wpkh witness
 * signature over its previous output (BIP143), and the transaction must pay at least the minimum
 * relay fee with no dust outputs. A spend of an output a mempool transaction already spends
 * replaces it under full RBF, as Core ≥ 28 (`bvmReplacement.ts`), or is refused (-26
 * `insufficient fee`, …). Blocks are mined only on request (`mine`; `buildBvmBlock`). The chain can
 * be rewritten as Core's `invalidateblock` / `reconsiderblock` do and as a competing branch does
 * (`reorg`: both disconnect blocks the same way and return their transactions to the mempool,
 * dropping those the new chain or the mempool conflicts with), and the whole ledger snapshotted
 * and reverted. Times come from the virtual clock.
 *
 * LIMITATIONS: only p2wpkh inputs are verified (others are refused); a reorg's replacement blocks
 * hold only the transactions it is given; no block size or sigop limits; no locktime/sequence
 * rules; no package relay, CPFP or mempool eviction by size.
 */
export class BvmLedger {
  private state = new BvmLedgerState();
  private readonly mempoolListeners = new Set<(record: BvmTransactionRecord) => void>();
  private readonly blockListeners = new Set<(block: BvmBlock, records: BvmTransactionRecord[]) => void>();
  private readonly evictionListeners = new Set<(record: BvmTransactionRecord, eviction: BvmEviction) => void>();
  private readonly rewriteListeners = new Set<() => void>();
  private recorder: ((change: BvmLedgerChange) => void) | undefined;
  private signaturesTrusted = false;
  /** Snapshots by id (`0x0`, `0x1`, … as Anvil's), and the next number. */
  private readonly snapshots = new Map<string, BvmLedgerState>();
  private nextSnapshot = 0;
  /** Outpoints a wallet locked (`lockunspent`): no coin selection picks them; consensus ignores locks. */
  private readonly locked = new Set<string>();

  constructor(private readonly options: { clock: VirtualClock }) {}

  /** The height of the chain's tip (-1 before the genesis block). */
  get height(): number {
    return this.state.height;
  }

  get tip(): BvmBlock | undefined {
    return this.state.tip;
  }

  block(hashOrHeight: string | number): BvmBlock | undefined {
    return typeof hashOrHeight === 'number' ? this.state.blocks[hashOrHeight] : this.state.blocksByHash.get(hashOrHeight);
  }

  transaction(txid: string): BvmTransactionRecord | undefined {
    return this.state.mempool.get(txid) ?? this.state.confirmed.get(txid);
  }

  /** Confirmations of a transaction: 0 in the mempool, undefined when unknown. */
  confirmations(txid: string): number | undefined {
    const record = this.transaction(txid);
    if (!record) return undefined;
    return record.height === undefined ? 0 : this.height - record.height + 1;
  }

  /** Every transaction: mined ones in chain order, then the mempool's. */
  allTransactions(): BvmTransactionRecord[] {
    return [...this.state.confirmed.values(), ...this.state.mempool.values()];
  }

  mempoolTransactions(): BvmTransactionRecord[] {
    return [...this.state.mempool.values()];
  }

  /** The transaction (mempool or mined) that spends an output, if one does. */
  spenderOf(txid: string, vout: number): string | undefined {
    return this.state.spenderOf(txid, vout);
  }

  /** An unspent output; `includeMempool`: outputs of mempool transactions count, outputs they spend do not (as `gettxout`). */
  coin(txid: string, vout: number, includeMempool = true): BvmCoin | undefined {
    if (!includeMempool) return this.state.confirmedCoin(txid, vout);
    return this.state.mempoolSpends.has(outpointKey(txid, vout)) ? undefined : this.state.outputOf(txid, vout);
  }

  /** The unspent outputs paying `script`; with `includeMempool`, also unconfirmed ones, and not those a mempool transaction spends. */
  coinsOf(script: Uint8Array, includeMempool: boolean): BvmCoin[] {
    const wanted = toHex(script);
    const coins = this.state.confirmedCoinsOf(wanted);
    if (!includeMempool) return coins;
    const unconfirmed = [...this.state.mempool.values()].flatMap((record) =>
      record.tx.outs.flatMap((output, vout) => (toHex(output.script) === wanted ? [{ txid: record.txid, vout, value: output.value, script: output.script, height: null, coinbase: false }] : [])),
    );
    return [...coins, ...unconfirmed].filter((coin) => !this.state.mempoolSpends.has(outpointKey(coin.txid, coin.vout)));
  }

  /** Whether a forked ledger's upstream was asked for this script's address already (`BvmReadThrough`). */
  hasReadUpstreamAddress(script: Uint8Array): boolean {
    return this.state.upstream.hasReadAddress(script);
  }

  /**
   * Keeps the confirmed unspent outputs the upstream listed for `script`'s address: from now on
   * they are unspent outputs of this ledger (below its genesis), less those of a transaction it
   * holds itself. Told to the recorder first, as every change.
   */
  addUpstreamOutputs(script: Uint8Array, outputs: readonly BvmUpstreamOutput[]): void {
    this.recorder?.({ kind: 'upstreamOutputs', script, outputs: [...outputs] });
    this.state.upstream.addAddress(script, outputs, (txid) => this.transaction(txid) !== undefined);
  }

  /** Keeps a transaction read from the upstream by id (served by id, never mined here). */
  addUpstreamTransaction(transaction: BvmUpstreamTransaction): void {
    this.recorder?.({ kind: 'upstreamTransaction', ...transaction });
    this.state.upstream.addTransaction(transaction);
  }

  /** The outputs read from the upstream for a script's address, spent here since or not. */
  upstreamOutputsOf(script: Uint8Array): readonly BvmCoin[] {
    return this.state.upstream.outputsOf(toHex(script));
  }

  /** A transaction read from the upstream by id (undefined: none was, or the ledger holds it itself). */
  upstreamTransaction(txid: string): BvmUpstreamTransaction | undefined {
    return this.transaction(txid) ? undefined : this.state.upstream.transaction(txid);
  }

  /** Locks (or unlocks) an outpoint against coin selection, as `lockunspent` does (in memory, as Core's default). */
  setLocked(txid: string, vout: number, locked: boolean): void {
    if (locked) this.locked.add(outpointKey(txid, vout));
    else this.locked.delete(outpointKey(txid, vout));
  }

  isLocked(txid: string, vout: number): boolean {
    return this.locked.has(outpointKey(txid, vout));
  }

  lockedOutpoints(): Array<{ txid: string; vout: number }> {
    return [...this.locked].map((key) => ({ txid: key.slice(0, 64), vout: Number(key.slice(65)) }));
  }

  /**
   * Tells `recorder` of every change from now on, synchronously, before the change is made (a
   * recorder that throws stops it); undefined: no one is told.
   */
  recordChangesWith(recorder: ((change: BvmLedgerChange) => void) | undefined): void {
    this.recorder = recorder;
  }

  /**
   * Runs `apply` without checking input signatures (every other rule still applies): for
   * transactions this ledger checked when it first accepted them, its journal applied again at
   * start (as Bitcoin Core's assumevalid skips scripts below a known block).
   */
  withSignaturesTrusted<T>(apply: () => T): T {
    this.signaturesTrusted = true;
    try {
      return apply();
    } finally {
      this.signaturesTrusted = false;
    }
  }

  onMempoolTransaction(listener: (record: BvmTransactionRecord) => void): () => void {
    this.mempoolListeners.add(listener);
    return () => this.mempoolListeners.delete(listener);
  }

  onBlock(listener: (block: BvmBlock, records: BvmTransactionRecord[]) => void): () => void {
    this.blockListeners.add(listener);
    return () => this.blockListeners.delete(listener);
  }

  /** A transaction (and its descendants) leaving the mempool without being mined, or a reorg's transaction not coming back to it. */
  onEviction(listener: (record: BvmTransactionRecord, eviction: BvmEviction) => void): () => void {
    this.evictionListeners.add(listener);
    return () => this.evictionListeners.delete(listener);
  }

  /** The chain was rewritten (blocks disconnected: a reorg, `invalidateblock`, `reconsiderblock`, a revert): what was mined may not be any more. */
  onRewrite(listener: () => void): () => void {
    this.rewriteListeners.add(listener);
    return () => this.rewriteListeners.delete(listener);
  }

  /**
   * Checks a transaction as the mempool would, without keeping it (`testmempoolaccept`); throws
   * the `BvmRpcError` `sendrawtransaction` would answer.
   */
  check(hex: string): Omit<BvmTransactionRecord, 'time'> {
    return validateBvmTransaction(this.state, hex, 'mempool', this.signaturesTrusted).checked;
  }

  /**
   * Accepts a transaction into the mempool (`sendrawtransaction`) at `time` (unix seconds, the
   * virtual clock's now unless given), evicting what it replaces; one already there is accepted
   * again as is.
   */
  submit(hex: string, time: number = this.options.clock.nowSeconds()): BvmTransactionRecord {
    const known = this.state.mempool.get(transactionIdOf(decodeTransaction(hex)));
    if (known) return known;
    const { checked, conflicts } = validateBvmTransaction(this.state, hex, 'mempool', this.signaturesTrusted);
    const record: BvmTransactionRecord = { ...checked, time };
    this.recorder?.({ kind: 'admit', hex: record.hex, time });
    for (const conflict of conflicts) this.evictWithDescendants(conflict.txid, { replacedBy: record.txid });
    this.state.addToMempool(record);
    this.mempoolListeners.forEach((listener) => listener(record));
    return record;
  }

  /** Removes a transaction and its mempool descendants from the mempool (a wallet abandoning it, an expiry); returns what left. */
  evict(txid: string): BvmTransactionRecord[] {
    if (!this.state.mempool.has(txid)) return [];
    this.recorder?.({ kind: 'evict', txid });
    return this.evictWithDescendants(txid, {});
  }

  /** The next block's timestamp (unix seconds); later blocks follow the virtual clock again. */
  setNextBlockTimestamp(unixSeconds: number): void {
    this.recorder?.({ kind: 'nextBlockTime', time: unixSeconds });
    this.state.nextTimestamp = unixSeconds;
  }

  /** Mines `count` blocks paying their coinbase to `script`; the first takes the whole mempool (`generatetoaddress`). */
  mine(count: number, script: Uint8Array): BvmBlock[] {
    return Array.from({ length: count }, () => {
      const included = [...this.state.mempool.values()];
      const { mined, records } = buildBvmBlock({ height: this.height + 1, previous: this.tip, included, script, timestamp: this.state.nextTimestamp ?? this.options.clock.nowSeconds() });
      this.recorder?.({ kind: 'block', height: mined.height, hash: mined.hash, time: mined.time, coinbaseScript: script, transactions: included.map((record) => record.hex) });
      this.connect(mined, records);
      return mined;
    });
  }

  /**
   * A competing branch takes over: the last `depth` blocks are disconnected, `depth` blocks are
   * mined in their place (paying `script`, at `time` or the virtual clock's now) holding only
   * `including` (raw transactions, in the first: a conflicting spend the other miner saw), then
   * the disconnected blocks' transactions return to the mempool as Core does after a reorg —
   * in order, ahead of what waited there, less those whose inputs the new branch or the mempool
   * already spends (and their descendants). Returns the replacement blocks.
   */
  reorg(depth: number, script: Uint8Array, including: readonly string[] = [], time: number = this.state.nextTimestamp ?? this.options.clock.nowSeconds()): BvmBlock[] {
    if (!Number.isInteger(depth) || depth < 1 || depth > this.height) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `a reorg depth is between 1 and the height (${this.height})`);
    const disconnectedAt = this.height - depth;
    // the replacing branch's transactions are checked against the chain below the fork
    const scratch = this.state.copy();
    for (let i = 0; i < depth; i++) scratch.disconnectTip();
    const included = including.map((hex) => ({ ...validateBvmTransaction(scratch, hex, 'block', this.signaturesTrusted).checked, time }));
    this.recorder?.({ kind: 'reorg', depth, time, coinbaseScript: script, including: [...including] });
    const returned = Array.from({ length: depth }, () => this.state.disconnectTip())
      .reverse()
      .flatMap(({ records }) => unmined(records));
    const mined: BvmBlock[] = [];
    for (let height = disconnectedAt + 1; height <= disconnectedAt + depth; height++) {
      this.state.reorgBlocks += 1;
      const block = buildBvmBlock({ height, previous: this.tip, included: mined.length === 0 ? included : [], script, timestamp: time, extraNonce: this.state.reorgBlocks });
      this.connect(block.mined, block.records);
      mined.push(block.mined);
    }
    this.readmit(returned);
    return mined;
  }

  /**
   * Disconnects the tip (`invalidateblock`), as Core does: the outputs its transactions spent are
   * unspent again, its transactions go back to the mempool ahead of what waited there (the
   * coinbase cannot), and mempool transactions spending its coinbase or a coinbase no longer
   * mature leave.
   */
  invalidateTip(): BvmBlock {
    const block = this.tip!;
    if (block.height === 0) throw new BvmRpcError(BVM_RPC_ERRORS.misc, 'invalidating the genesis block is not simulated');
    this.recorder?.({ kind: 'invalidateTip', hash: block.hash });
    const disconnected = this.state.disconnectTip();
    this.state.invalidated.push(disconnected);
    this.readmit(unmined(disconnected.records));
    return block;
  }

  /**
   * Connects again every block `invalidateTip` disconnected (`reconsiderblock` of one of them), when
   * the tip is still their parent; mempool transactions conflicting with them leave. Returns what
   * was connected (nothing for a hash it does not hold).
   */
  reconsider(hash: string): BvmBlock[] {
    const { invalidated } = this.state;
    if (!invalidated.some((entry) => entry.block.hash === hash)) return [];
    const lowest = invalidated[invalidated.length - 1]!;
    if (lowest.block.previousHash !== this.tip!.hash) throw new BvmRpcError(BVM_RPC_ERRORS.misc, 'blocks were mined on the parent of the invalidated block since: switching back to the invalidated chain is not simulated');
    this.recorder?.({ kind: 'reconsider', hash });
    const connected: BvmBlock[] = [];
    for (let entry = invalidated.pop(); entry; entry = invalidated.pop()) {
      this.connect(entry.block, entry.records);
      connected.push(entry.block);
    }
    this.rewriteListeners.forEach((listener) => listener());
    return connected;
  }

  /** Saves the whole ledger (blocks, coins, mempool); returns its id (`0x0`, `0x1`, …, as Anvil's `evm_snapshot`). */
  snapshot(): string {
    const id = `0x${this.nextSnapshot.toString(16)}`;
    this.recorder?.({ kind: 'snapshot', id });
    this.snapshots.set(id, this.state.copy());
    this.nextSnapshot += 1;
    return id;
  }

  /** Puts the ledger back as snapshot `id` saved it; that snapshot and later ones are used up (as `evm_revert`). False: no such snapshot. */
  revert(id: string): boolean {
    const saved = this.snapshots.get(id);
    if (!saved) return false;
    this.recorder?.({ kind: 'revert', id });
    const number = Number.parseInt(id, 16);
    for (const key of [...this.snapshots.keys()]) if (Number.parseInt(key, 16) >= number) this.snapshots.delete(key);
    // the saved copy is used up with its id: the ledger takes it as it is (no second copy of every block and coin)
    this.state = saved;
    this.rewriteListeners.forEach((listener) => listener());
    return true;
  }

  private evictWithDescendants(txid: string, eviction: BvmEviction): BvmTransactionRecord[] {
    const gone = this.state.withMempoolDescendants([txid]);
    gone.forEach((record) => this.state.removeFromMempool(record.txid));
    gone.forEach((record) => this.evictionListeners.forEach((listener) => listener(record, eviction)));
    return gone;
  }

  /** Connects a block: mempool transactions spending what it spends are replaced by it (with their descendants). */
  private connect(mined: BvmBlock, records: BvmTransactionRecord[]): void {
    const inBlock = new Set(mined.txids);
    for (const record of records.slice(1)) {
      for (const input of record.tx.ins) {
        const spender = this.state.mempoolSpends.get(outpointKey(txidOf(input.hash), input.index));
        if (spender && !inBlock.has(spender)) this.evictWithDescendants(spender, { replacedBy: record.txid });
      }
    }
    this.state.nextTimestamp = undefined;
    this.state.connect(mined, records);
    this.blockListeners.forEach((listener) => listener(mined, records));
  }

  /**
   * Puts disconnected transactions back into the mempool, ahead of what waited there, keeping
   * each only while its inputs exist, nothing else spends them and a coinbase it spends is still
   * mature; the others (and so their descendants) leave, told as evictions. Then tells the rewrite.
   */
  private readmit(returned: readonly BvmTransactionRecord[]): void {
    const waiting = [...this.state.mempool.values()];
    waiting.forEach((record) => this.state.removeFromMempool(record.txid));
    const dropped = new Map<string, { record: BvmTransactionRecord; eviction: BvmEviction }>();
    for (const record of [...returned, ...waiting]) {
      const inputs = record.tx.ins.map((input) => ({ txid: txidOf(input.hash), vout: input.index }));
      // spent by another transaction: its own input, or its parent's (a parent dropped just before)
      const replacedBy = inputs.map((input) => this.state.spenderOf(input.txid, input.vout) ?? dropped.get(input.txid)?.eviction.replacedBy).find((spender) => spender !== undefined);
      const lost = inputs.some((input) => {
        const coin = this.state.outputOf(input.txid, input.vout);
        return !coin || (coin.coinbase && coin.height !== null && this.height + 1 - coin.height < BVM_PARAMS.coinbaseMaturity);
      });
      if (replacedBy !== undefined || lost) dropped.set(record.txid, { record, eviction: replacedBy !== undefined ? { replacedBy } : {} });
      else this.state.addToMempool(record);
    }
    for (const { record, eviction } of dropped.values()) this.evictionListeners.forEach((listener) => listener(record, eviction));
    this.rewriteListeners.forEach((listener) => listener());
  }
}

/** A disconnected block's transactions but the coinbase, as they were before they were mined. */
function unmined(records: readonly BvmTransactionRecord[]): BvmTransactionRecord[] {
  return records.slice(1).map(({ blockHash: _hash, height: _height, index: _index, ...record }) => record);
}
