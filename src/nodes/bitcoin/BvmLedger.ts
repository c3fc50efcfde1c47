import type { VirtualClock } from '../../clock/VirtualClock';
import { BVM_RPC_ERRORS, BvmRpcError, rejected } from './bvmRpcError';
import { bitcoin, toHex } from './bvmCrypto';
import { BVM_PARAMS, blockSubsidy, decodeTransaction, dustThreshold, feeAt, formatBtc, outpointKey, txidOf, verifyP2wpkhInput } from './bvmConsensus';
import type { BvmBlock, BvmCoin, BvmLedgerChange, BvmTransactionRecord } from './bvmLedgerTypes';

export type { BvmBlock, BvmCoin, BvmLedgerChange, BvmTransactionRecord } from './bvmLedgerTypes';
export { BVM_PARAMS, blockSubsidy, decodeTransaction, dustThreshold, feeAt, formatBtc } from './bvmConsensus';

/**
 * A Bitcoin ledger in-process (regtest rules): a UTXO set, a mempool and a chain of blocks with
 * real headers. Every transaction is a real, serialized Bitcoin transaction: each input must
 * spend an unspent output (confirmed, or from a transaction waiting in the mempool), a coinbase
 * output only after 100 confirmations, carry a valid p2wpkh witness signature over its
 * previous output (BIP143), and the transaction must pay at least the minimum relay fee with no
 * dust outputs. A second spend of an output a mempool transaction already spends is refused
 * (`txn-mempool-conflict`: no replace-by-fee). Blocks are mined only on request
 * (`mine`); their coinbase pays the subsidy plus fees, commits to the witnesses (BIP141) and the
 * header meets regtest's proof of work. Times come from the virtual clock.
 *
 * LIMITATIONS: only p2wpkh inputs are verified (others are refused); no reorgs (only the tip
 * disconnected and connected again: `invalidateTip`, `reconsider`); no block size
 * or sigop limits; no locktime/sequence rules; no package relay or mempool eviction by size.
 */
export class BvmLedger {
  private readonly utxos = new Map<string, BvmCoin>();
  private readonly mempool = new Map<string, BvmTransactionRecord>();
  /** Outpoint → the mempool transaction that spends it. */
  private readonly mempoolSpends = new Map<string, string>();
  private readonly confirmed = new Map<string, BvmTransactionRecord>();
  private readonly blocks: BvmBlock[] = [];
  private readonly blocksByHash = new Map<string, BvmBlock>();
  private readonly mempoolListeners = new Set<(record: BvmTransactionRecord) => void>();
  private readonly blockListeners = new Set<(block: BvmBlock, records: BvmTransactionRecord[]) => void>();
  private readonly evictionListeners = new Set<(record: BvmTransactionRecord) => void>();
  private nextTimestamp: number | undefined;
  private recorder: ((change: BvmLedgerChange) => void) | undefined;
  private signaturesTrusted = false;
  /** Blocks `invalidateTip` disconnected, with their records, the lowest last. */
  private readonly invalidated: Array<{ block: BvmBlock; records: BvmTransactionRecord[] }> = [];
  /** Outpoints a wallet locked (`lockunspent`): no coin selection picks them; consensus ignores locks. */
  private readonly locked = new Set<string>();

  constructor(private readonly options: { clock: VirtualClock }) {}

  /** The height of the chain's tip (-1 before the genesis block). */
  get height(): number {
    return this.blocks.length - 1;
  }

  get tip(): BvmBlock | undefined {
    return this.blocks[this.blocks.length - 1];
  }

  block(hashOrHeight: string | number): BvmBlock | undefined {
    return typeof hashOrHeight === 'number' ? this.blocks[hashOrHeight] : this.blocksByHash.get(hashOrHeight);
  }

  transaction(txid: string): BvmTransactionRecord | undefined {
    return this.mempool.get(txid) ?? this.confirmed.get(txid);
  }

  /** Confirmations of a transaction: 0 in the mempool, undefined when unknown. */
  confirmations(txid: string): number | undefined {
    const record = this.transaction(txid);
    if (!record) return undefined;
    return record.height === undefined ? 0 : this.height - record.height + 1;
  }

  /** Every transaction: mined ones in chain order, then the mempool's. */
  allTransactions(): BvmTransactionRecord[] {
    return [...this.confirmed.values(), ...this.mempool.values()];
  }

  mempoolTransactions(): BvmTransactionRecord[] {
    return [...this.mempool.values()];
  }

  /** An unspent output; `includeMempool`: outputs of mempool transactions count, outputs they spend do not (as `gettxout`). */
  coin(txid: string, vout: number, includeMempool = true): BvmCoin | undefined {
    const key = outpointKey(txid, vout);
    if (includeMempool && this.mempoolSpends.has(key)) return undefined;
    const coin = this.utxos.get(key);
    if (coin) return coin;
    if (!includeMempool) return undefined;
    const parent = this.mempool.get(txid);
    const output = parent?.tx.outs[vout];
    return output ? { txid, vout, value: output.value, script: output.script, height: null, coinbase: false } : undefined;
  }

  /** The unspent outputs paying `script`; with `includeMempool`, also unconfirmed ones, and not those a mempool transaction spends. */
  coinsOf(script: Uint8Array, includeMempool: boolean): BvmCoin[] {
    const wanted = toHex(script);
    const coins = [...this.utxos.values()].filter((coin) => toHex(coin.script) === wanted);
    if (!includeMempool) return coins;
    const unconfirmed = [...this.mempool.values()].flatMap((record) =>
      record.tx.outs.flatMap((output, vout) => (toHex(output.script) === wanted ? [{ txid: record.txid, vout, value: output.value, script: output.script, height: null, coinbase: false }] : [])),
    );
    return [...coins, ...unconfirmed].filter((coin) => !this.mempoolSpends.has(outpointKey(coin.txid, coin.vout)));
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

  /** A transaction (and its descendants) leaving the mempool without being mined. */
  onEviction(listener: (record: BvmTransactionRecord) => void): () => void {
    this.evictionListeners.add(listener);
    return () => this.evictionListeners.delete(listener);
  }

  /**
   * Checks a transaction as the mempool would, without keeping it (`testmempoolaccept`); throws
   * the `BvmRpcError` `sendrawtransaction` would answer.
   */
  check(hex: string): Omit<BvmTransactionRecord, 'time'> {
    const tx = decodeTransaction(hex);
    const txid = tx.getId();
    if (this.confirmed.has(txid)) throw new BvmRpcError(BVM_RPC_ERRORS.alreadyInChain, 'Transaction outputs already in utxo set');
    if (tx.isCoinbase()) throw rejected('coinbase');
    if (tx.ins.length === 0) throw rejected('bad-txns-vin-empty');
    if (tx.outs.length === 0) throw rejected('bad-txns-vout-empty');
    const totalOut = tx.outs.reduce((sum, output) => sum + output.value, 0n);
    if (totalOut > 21_000_000n * BVM_PARAMS.coin) throw rejected('bad-txns-txouttotal-toolarge');
    for (const output of tx.outs) if (output.value < dustThreshold(output.script)) throw rejected('dust');
    const seen = new Set<string>();
    const prevouts: BvmTransactionRecord['prevouts'] = [];
    for (const input of tx.ins) {
      const key = outpointKey(txidOf(input.hash), input.index);
      if (seen.has(key)) throw rejected('bad-txns-inputs-duplicate');
      seen.add(key);
      if (this.mempoolSpends.has(key)) throw rejected('txn-mempool-conflict');
      const coin = this.coin(txidOf(input.hash), input.index, true);
      if (!coin) throw new BvmRpcError(BVM_RPC_ERRORS.verify, 'bad-txns-inputs-missingorspent');
      if (coin.coinbase && coin.height !== null) {
        const depth = this.height + 1 - coin.height;
        if (depth < BVM_PARAMS.coinbaseMaturity) throw rejected(`bad-txns-premature-spend-of-coinbase, tried to spend coinbase at depth ${depth}`);
      }
      prevouts.push({ value: coin.value, script: coin.script });
    }
    const totalIn = prevouts.reduce((sum, prevout) => sum + prevout.value, 0n);
    if (totalIn < totalOut) throw rejected(`bad-txns-in-belowout, value in (${formatBtc(totalIn)}) < value out (${formatBtc(totalOut)})`);
    if (!this.signaturesTrusted) tx.ins.forEach((_, index) => verifyP2wpkhInput(tx, index, prevouts[index]!));
    const fee = totalIn - totalOut;
    const vsize = tx.virtualSize();
    const minimum = feeAt(BVM_PARAMS.minRelayFeeSatPerKvB, vsize);
    if (fee < minimum) throw rejected(`min relay fee not met, ${fee} < ${minimum}`);
    return { txid, tx, hex, fee, vsize, prevouts };
  }

  /**
   * Accepts a transaction into the mempool (`sendrawtransaction`) at `time` (unix seconds, the
   * virtual clock's now unless given); one already there is accepted again as is.
   */
  submit(hex: string, time: number = this.options.clock.nowSeconds()): BvmTransactionRecord {
    const known = this.mempool.get(decodeTransaction(hex).getId());
    if (known) return known;
    const record: BvmTransactionRecord = { ...this.check(hex), time };
    this.recorder?.({ kind: 'admit', hex: record.hex, time });
    this.mempool.set(record.txid, record);
    for (const input of record.tx.ins) this.mempoolSpends.set(outpointKey(txidOf(input.hash), input.index), record.txid);
    this.mempoolListeners.forEach((listener) => listener(record));
    return record;
  }

  /** Removes a transaction and its mempool descendants from the mempool (a wallet abandoning it, an expiry); returns what left. */
  evict(txid: string): BvmTransactionRecord[] {
    if (!this.mempool.has(txid)) return [];
    this.recorder?.({ kind: 'evict', txid });
    return this.evictWithDescendants(txid);
  }

  private evictWithDescendants(txid: string): BvmTransactionRecord[] {
    const record = this.mempool.get(txid);
    if (!record) return [];
    this.mempool.delete(txid);
    for (const input of record.tx.ins) this.mempoolSpends.delete(outpointKey(txidOf(input.hash), input.index));
    const descendants = record.tx.outs.flatMap((_, vout) => {
      const child = this.mempoolSpends.get(outpointKey(txid, vout));
      return child ? this.evictWithDescendants(child) : [];
    });
    this.evictionListeners.forEach((listener) => listener(record));
    return [record, ...descendants];
  }

  /** The next block's timestamp (unix seconds); later blocks follow the virtual clock again. */
  setNextBlockTimestamp(unixSeconds: number): void {
    this.recorder?.({ kind: 'nextBlockTime', time: unixSeconds });
    this.nextTimestamp = unixSeconds;
  }

  /** Mines `count` blocks paying their coinbase to `script`; the first takes the whole mempool (`generatetoaddress`). */
  mine(count: number, script: Uint8Array): BvmBlock[] {
    return Array.from({ length: count }, () => this.mineOne(script));
  }

  private mineOne(script: Uint8Array): BvmBlock {
    const height = this.height + 1;
    const included = [...this.mempool.values()];
    const fees = included.reduce((sum, record) => sum + record.fee, 0n);
    const coinbase = new bitcoin.Transaction();
    coinbase.version = 2;
    // BIP34: the coinbase's scriptSig starts with the block height
    coinbase.addInput(new Uint8Array(32), 0xffffffff, 0xffffffff, bitcoin.script.compile([bitcoin.script.number.encode(height), bitcoin.opcodes.OP_0]));
    coinbase.addOutput(script, blockSubsidy(height) + fees);
    const transactions = [coinbase, ...included.map((record) => record.tx)];
    let witnessCommit: Uint8Array | undefined;
    if (included.some((record) => record.tx.hasWitnesses())) {
      // BIP141: the coinbase commits to the witness merkle root with a 32-byte reserved value
      coinbase.setWitness(0, [new Uint8Array(32)]);
      const commitment = bitcoin.Block.calculateMerkleRoot(transactions, true);
      coinbase.addOutput(bitcoin.script.compile([bitcoin.opcodes.OP_RETURN, Uint8Array.from([0xaa, 0x21, 0xa9, 0xed, ...commitment])]), 0n);
      witnessCommit = commitment;
    }
    const previous = this.tip;
    const block = new bitcoin.Block();
    block.version = BVM_PARAMS.blockVersion;
    block.prevHash = previous ? previous.block.getHash() : new Uint8Array(32);
    block.merkleRoot = bitcoin.Block.calculateMerkleRoot(transactions);
    block.timestamp = Math.max(this.nextTimestamp ?? this.options.clock.nowSeconds(), previous?.time ?? 0);
    block.bits = BVM_PARAMS.bits;
    block.transactions = transactions;
    if (witnessCommit) block.witnessCommit = witnessCommit;
    for (block.nonce = 0; !block.checkProofOfWork(); block.nonce += 1);
    const hash = block.getId();
    this.recorder?.({ kind: 'block', height, hash, time: block.timestamp, coinbaseScript: script, transactions: included.map((record) => record.hex) });
    this.nextTimestamp = undefined;

    const mined: BvmBlock = {
      hash,
      height,
      block,
      time: block.timestamp,
      txids: transactions.map((tx) => tx.getId()),
      previousHash: previous?.hash ?? null,
      size: block.byteLength(false, true),
      weight: block.weight(),
    };
    const coinbaseRecord: BvmTransactionRecord = { txid: coinbase.getId(), tx: coinbase, hex: coinbase.toHex(), fee: 0n, vsize: coinbase.virtualSize(), time: mined.time, prevouts: [] };
    this.connect(mined, [coinbaseRecord, ...included].map((record, index) => ({ ...record, blockHash: mined.hash, height, index })));
    return mined;
  }

  /** Puts a block on the tip: its transactions leave the mempool, their inputs are spent, their outputs unspent. */
  private connect(mined: BvmBlock, records: BvmTransactionRecord[]): void {
    this.blocks.push(mined);
    this.blocksByHash.set(mined.hash, mined);
    for (const record of records) {
      this.mempool.delete(record.txid);
      for (const input of record.tx.ins) {
        if (record.index === 0) continue;
        const key = outpointKey(txidOf(input.hash), input.index);
        this.mempoolSpends.delete(key);
        this.utxos.delete(key);
      }
      record.tx.outs.forEach((output, vout) => {
        if (output.script[0] === bitcoin.opcodes.OP_RETURN) return;
        this.utxos.set(outpointKey(record.txid, vout), { txid: record.txid, vout, value: output.value, script: output.script, height: mined.height, coinbase: record.index === 0 });
      });
      this.confirmed.set(record.txid, record);
    }
    this.blockListeners.forEach((listener) => listener(mined, records));
  }

  /**
   * Disconnects the tip (`invalidateblock`), as Core does: the outputs its transactions spent are
   * unspent again, its transactions go back to the mempool ahead of what waited there (the coinbase
   * cannot), and mempool transactions spending its coinbase or a coinbase no longer mature leave.
   */
  invalidateTip(): BvmBlock {
    const block = this.tip!;
    if (block.height === 0) throw new BvmRpcError(BVM_RPC_ERRORS.misc, 'invalidating the genesis block is not simulated');
    this.recorder?.({ kind: 'invalidateTip', hash: block.hash });
    const records = block.txids.map((txid) => this.confirmed.get(txid)!);
    for (const record of [...records].reverse()) {
      this.confirmed.delete(record.txid);
      record.tx.outs.forEach((_, vout) => this.utxos.delete(outpointKey(record.txid, vout)));
      if (record.index === 0) continue;
      record.tx.ins.forEach((input, i) => {
        const previous = this.confirmed.get(txidOf(input.hash));
        // an output of this same block is spent again in the mempool
        if (!previous) return;
        const prevout = record.prevouts[i]!;
        this.utxos.set(outpointKey(previous.txid, input.index), { txid: previous.txid, vout: input.index, value: prevout.value, script: prevout.script, height: previous.height!, coinbase: previous.index === 0 });
      });
    }
    this.blocks.pop();
    this.blocksByHash.delete(block.hash);
    const waiting = [...this.mempool.values()];
    this.mempool.clear();
    for (const { blockHash: _hash, height: _height, index: _index, ...record } of [...records.slice(1), ...waiting]) {
      this.mempool.set(record.txid, record);
      for (const input of record.tx.ins) this.mempoolSpends.set(outpointKey(txidOf(input.hash), input.index), record.txid);
    }
    for (const record of [...this.mempool.values()]) {
      const spendsGoneCoinbase = record.tx.ins.some((input) => {
        const txid = txidOf(input.hash);
        const coin = this.utxos.get(outpointKey(txid, input.index));
        if (coin) return coin.coinbase && this.height + 1 - coin.height! < BVM_PARAMS.coinbaseMaturity;
        return !this.mempool.has(txid);
      });
      if (spendsGoneCoinbase && this.mempool.has(record.txid)) this.evictWithDescendants(record.txid);
    }
    this.invalidated.push({ block, records });
    return block;
  }

  /**
   * Connects again every block `invalidateTip` disconnected (`reconsiderblock` of one of them), when
   * the tip is still their parent; mempool transactions conflicting with them leave. Returns what
   * was connected (nothing for a hash it does not hold).
   */
  reconsider(hash: string): BvmBlock[] {
    if (!this.invalidated.some((entry) => entry.block.hash === hash)) return [];
    const lowest = this.invalidated[this.invalidated.length - 1]!;
    if (lowest.block.previousHash !== this.tip!.hash) throw new BvmRpcError(BVM_RPC_ERRORS.misc, 'blocks were mined on the parent of the invalidated block since: switching back to the invalidated chain (a reorg) is not simulated');
    this.recorder?.({ kind: 'reconsider', hash });
    const connected: BvmBlock[] = [];
    for (let entry = this.invalidated.pop(); entry; entry = this.invalidated.pop()) {
      for (const record of entry.records.slice(1)) {
        for (const input of record.tx.ins) {
          const spender = this.mempoolSpends.get(outpointKey(txidOf(input.hash), input.index));
          if (spender && spender !== record.txid) this.evictWithDescendants(spender);
        }
      }
      this.connect(entry.block, entry.records);
      connected.push(entry.block);
    }
    return connected;
  }
}
