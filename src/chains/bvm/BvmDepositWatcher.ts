import type { Address as EvmAddressType, Hex } from 'viem';
import type { IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { ChainIndexStore } from '../../store/ChainIndexStore';
import type { DepositAddressRow, DepositAddressStore } from '../../store/DepositAddressStore';
import type { ChainObservation } from '../ChainAdapter';
import type { VirtualClock } from '../../clock/VirtualClock';
import { addressOfScript, txidOf, type BvmBlock, type BvmEviction, type BvmLedger, type BvmTransactionRecord } from '../../nodes/bvm';

/** Confirmations a BVM deposit needs before the solver fills it, unless the chain is told otherwise (`depositConfirmations`). */
export const BVM_DEPOSIT_CONFIRMATIONS = 1;
/** Handled block hashes kept in the chain index (only the last is read). */
const KEPT_BLOCKS = 4;
/** How far below the tip a restart looks for indexed deposits a later reorg could take out. */
const REWRITE_WINDOW_BLOCKS = 100;

/**
 * Each transaction's output addresses, decoded once: a record is never changed in place, and the
 * watcher reads the same ones again after every rewrite (the last 100 blocks after a revert).
 */
const outputAddresses = new WeakMap<BvmTransactionRecord, Array<string | undefined>>();

function outputAddressesOf(record: BvmTransactionRecord): Array<string | undefined> {
  let addresses = outputAddresses.get(record);
  if (!addresses) {
    addresses = record.tx.outs.map((output) => addressOfScript(output.script));
    outputAddresses.set(record, addresses);
  }
  return addresses;
}

/** A deposit transaction the watcher follows: its deposits and the outputs it spends (to tell who double-spent it). */
interface TrackedTransaction {
  deposits: IndexedDeposit[];
  inputs: Array<{ txid: string; vout: number }>;
}

/**
 * Watches the BVM ledger for payments into the requests' deposit addresses (SPEC §1.6, §3):
 * - seen in the mempool: `depositInMempool` (the request goes `pending`);
 * - with `confirmations` confirmations: indexed (ChainIndexStore) and reported as a `deposit`
 *   (the solver fills it);
 * - its block disconnected (a reorg, `invalidateblock`, a revert) while it is back in the mempool
 *   or in a block below `confirmations`: its index entry is `reorged` (no fill is made on it) until
 *   it is deep enough again, then reported again as a `deposit` with its new block;
 * - gone (dropped from the mempool, replaced by a conflicting spend, or not back after a reorg):
 *   `depositReorged`, with the transaction that spent its inputs when one did (a double spend).
 * A deposit's `logIndex` is its output index; its depositor, the address of its first input.
 * The last block it handled is kept in the chain index (`putBlock`), so after a restart
 * `catchUp` reads the blocks it had not handled (a SIGKILL between a block and its deposits) and
 * the mempool; a deposit already indexed is never reported twice.
 */
/** The deposit address registered at an address of this chain, if any. */
type RegisteredAddressLookup = (address: string) => DepositAddressRow | undefined;

export class BvmDepositWatcher {
  private readonly detach: Array<() => void>;
  /** Deposits not indexed (yet, or again), by txid. */
  private readonly unconfirmed = new Map<string, TrackedTransaction>();
  /** Indexed deposits a rewrite could still take out, by txid. */
  private readonly indexed = new Map<string, TrackedTransaction>();

  constructor(
    private readonly deps: {
      chainId: number;
      /** The address of native BTC, the currency of every deposit. */
      currency: string;
      ledger: BvmLedger;
      depositAddresses: DepositAddressStore;
      chainIndex: ChainIndexStore;
      clock: VirtualClock;
      confirmations: number;
      emit: (observation: ChainObservation) => void;
    },
  ) {
    this.detach = [
      deps.ledger.onMempoolTransaction((record) => this.seen(record)),
      deps.ledger.onBlock((block, records) => this.mined(block, records)),
      deps.ledger.onEviction((record, eviction) => this.evicted(record, eviction)),
      deps.ledger.onRewrite(() => this.rewritten()),
    ];
  }

  stop(): void {
    this.detach.forEach((detach) => detach());
  }

  /**
   * Reads what this run has not heard from the ledger (its state came from a journal): the
   * deposits indexed in the last blocks (a reorg may still take them out), the blocks after the
   * last one handled — and those a deposit in them still needs confirmations from — then the mempool.
   */
  catchUp(): void {
    const { ledger, chainIndex, chainId, confirmations } = this.deps;
    for (const deposit of chainIndex.canonicalDepositsFrom(chainId, Math.max(0, ledger.height - REWRITE_WINDOW_BLOCKS))) {
      const record = ledger.transaction(deposit.txHash);
      if (record) this.track(this.indexed, record, [deposit]);
    }
    const last = chainIndex.latestBlock(chainId);
    const known = last && ledger.block(last.number)?.hash === last.hash;
    const registered = this.registeredNow();
    for (let height = known ? Math.max(0, last.number - confirmations + 2) : 0; height <= ledger.height; height++) {
      for (const txid of ledger.block(height)!.txids.slice(1)) this.seen(ledger.transaction(txid)!, registered);
    }
    for (const record of ledger.mempoolTransactions()) this.seen(record, registered);
    this.confirmIfDeep();
    this.handled();
  }

  /** The chain index was replaced (a world revert): forgets what it followed and catches up from the index again. */
  reload(): void {
    this.unconfirmed.clear();
    this.indexed.clear();
    this.catchUp();
  }

  /** Looks at one transaction now (the `/transactions/index` hint): in the mempool or mined. */
  index(txid: string): void {
    const record = this.deps.ledger.transaction(txid);
    if (!record) return;
    if (record.height === undefined) this.seen(record);
    else this.confirmIfDeep();
  }

  /**
   * The chain's deposit addresses as they are now, read once, for a pass over many transactions (a
   * catch-up or a rewrite reads every transaction of up to 100 blocks again: one read instead of one
   * per output). Nothing registers an address during the pass, which runs synchronously.
   */
  private registeredNow(): RegisteredAddressLookup {
    const addresses = this.deps.depositAddresses.addressesOn(this.deps.chainId);
    return (address) => (addresses.has(address.toLowerCase()) ? this.registeredAt(address) : undefined);
  }

  /** The deposit address registered at `address`, read now (one transaction: a mempool arrival, a mined block). */
  private readonly registeredAt: RegisteredAddressLookup = (address) => this.deps.depositAddresses.at(this.deps.chainId, address);

  private seen(record: BvmTransactionRecord, registered: RegisteredAddressLookup = this.registeredAt): void {
    if (this.unconfirmed.has(record.txid) || this.indexed.has(record.txid)) return;
    const deposits = this.depositsIn(record, registered);
    if (deposits.length === 0) return;
    this.track(this.unconfirmed, record, deposits);
    deposits.forEach((deposit) => this.deps.emit({ kind: 'depositInMempool', deposit }));
  }

  private track(into: Map<string, TrackedTransaction>, record: BvmTransactionRecord, deposits: IndexedDeposit[]): void {
    const known = into.get(record.txid);
    const inputs = record.tx.ins.map((input) => ({ txid: txidOf(input.hash), vout: input.index }));
    into.set(record.txid, { deposits: [...(known?.deposits ?? []), ...deposits], inputs });
  }

  private mined(_block: BvmBlock, records: BvmTransactionRecord[]): void {
    for (const record of records) if (record.index !== 0) this.seen(record);
    this.confirmIfDeep();
    this.handled();
  }

  /** Marks the tip as handled (the cursor `catchUp` starts from). */
  private handled(): void {
    const { ledger, chainIndex, chainId } = this.deps;
    const tip = ledger.tip;
    if (!tip) return;
    chainIndex.putBlock({ chainId, number: tip.height, hash: tip.hash as Hex, parentHash: (tip.previousHash ?? '0'.repeat(64)) as Hex });
    chainIndex.pruneBlocks(chainId, KEPT_BLOCKS);
  }

  private confirmIfDeep(): void {
    for (const [txid, tracked] of this.unconfirmed) {
      const record = this.deps.ledger.transaction(txid);
      if (record?.height === undefined || (this.deps.ledger.confirmations(txid) ?? 0) < this.deps.confirmations) continue;
      this.unconfirmed.delete(txid);
      const block = this.deps.ledger.block(record.height)!;
      const deposits = tracked.deposits.map((pending): IndexedDeposit => ({ ...pending, blockNumber: block.height, blockHash: block.hash as Hex, blockTimestamp: block.time, state: 'canonical' }));
      this.indexed.set(txid, { ...tracked, deposits });
      // a deposit indexed before in another block (or marked reorged) is updated and reported again
      for (const deposit of deposits) if (this.deps.chainIndex.insertDeposit(deposit)) this.deps.emit({ kind: 'deposit', deposit });
    }
  }

  /**
   * The chain was rewritten: an indexed deposit no longer in its block is `reorged` in the index
   * and followed as unconfirmed again (or reported gone); a deposit gone from the ledger is
   * reported; what the rewritten chain and mempool hold is read again.
   */
  private rewritten(): void {
    const { ledger, chainIndex, chainId } = this.deps;
    for (const [txid, tracked] of this.indexed) {
      const record = ledger.transaction(txid);
      const block = record?.height === undefined ? undefined : ledger.block(record.height);
      if (block && block.hash === tracked.deposits[0]!.blockHash) continue;
      this.indexed.delete(txid);
      tracked.deposits.forEach((deposit) => chainIndex.setDepositState(chainId, deposit.txHash, deposit.logIndex, 'reorged'));
      if (record) this.unconfirmed.set(txid, { ...tracked, deposits: tracked.deposits.map((deposit) => ({ ...deposit, blockNumber: 0, blockHash: '' as Hex, state: 'canonical' })) });
      else this.gone(tracked, undefined);
    }
    for (const [txid, tracked] of this.unconfirmed) {
      if (ledger.transaction(txid)) continue;
      this.unconfirmed.delete(txid);
      this.gone(tracked, undefined);
    }
    const registered = this.registeredNow();
    for (let height = Math.max(0, ledger.height - REWRITE_WINDOW_BLOCKS); height <= ledger.height; height++) {
      for (const txid of ledger.block(height)!.txids.slice(1)) this.seen(ledger.transaction(txid)!, registered);
    }
    for (const record of ledger.mempoolTransactions()) this.seen(record, registered);
    this.confirmIfDeep();
    this.handled();
  }

  private evicted(record: BvmTransactionRecord, eviction: BvmEviction): void {
    const tracked = this.unconfirmed.get(record.txid) ?? this.indexed.get(record.txid);
    if (!tracked) return;
    this.unconfirmed.delete(record.txid);
    if (this.indexed.delete(record.txid)) tracked.deposits.forEach((deposit) => this.deps.chainIndex.setDepositState(this.deps.chainId, deposit.txHash, deposit.logIndex, 'reorged'));
    this.gone(tracked, eviction.replacedBy);
  }

  /** Reports a deposit transaction gone, with the transaction that spent one of its inputs, if one did. */
  private gone(tracked: TrackedTransaction, replacedBy: string | undefined): void {
    const conflicting = replacedBy ?? tracked.inputs.map((input) => this.deps.ledger.spenderOf(input.txid, input.vout)).find((spender) => spender !== undefined);
    const detectedAt = this.deps.clock.now();
    tracked.deposits.forEach((deposit) => this.deps.emit({ kind: 'depositReorged', deposit, detectedAt, ...(conflicting ? { conflictingTxHash: conflicting } : {}) }));
  }

  /** The outputs of `record` that pay a request's deposit address. */
  private depositsIn(record: BvmTransactionRecord, registeredAt: RegisteredAddressLookup): IndexedDeposit[] {
    const addresses = outputAddressesOf(record);
    return record.tx.outs.flatMap((output, vout) => {
      const address = addresses[vout];
      const registered = address ? registeredAt(address) : undefined;
      if (!registered) return [];
      const depositor = addressOfScript(record.prevouts[0]?.script ?? new Uint8Array()) ?? '';
      return [
        {
          chainId: this.deps.chainId,
          txHash: record.txid as Hex,
          logIndex: vout,
          requestId: registered.requestId,
          depositor: depositor as EvmAddressType,
          currency: this.deps.currency as EvmAddressType,
          amount: output.value,
          blockNumber: 0,
          blockHash: '' as Hex,
          blockTimestamp: record.time,
          state: 'canonical' as const,
        },
      ];
    });
  }
}
