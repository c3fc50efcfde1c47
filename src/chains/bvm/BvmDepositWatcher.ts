import type { Address as EvmAddressType, Hex } from 'viem';
import type { IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { ChainIndexStore } from '../../store/ChainIndexStore';
import type { DepositAddressStore } from '../../store/DepositAddressStore';
import type { ChainObservation } from '../ChainAdapter';
import type { VirtualClock } from '../../clock/VirtualClock';
import { addressOfScript } from '../../nodes/bitcoin/bvmCrypto';
import type { BvmBlock, BvmLedger, BvmTransactionRecord } from '../../nodes/bitcoin/BvmLedger';

/** Confirmations a BVM deposit needs before the solver fills it (the service's block-confirmation policy, SPEC §3). */
export const BVM_DEPOSIT_CONFIRMATIONS = 1;
/** Handled block hashes kept in the chain index (only the last is read). */
const KEPT_BLOCKS = 4;

/**
 * Watches the BVM ledger for payments into the requests' deposit addresses (SPEC §1.6, §3):
 * - seen in the mempool: `depositInMempool` (the request goes `pending`);
 * - with `confirmations` confirmations: indexed (ChainIndexStore) and reported as a `deposit`
 *   (the solver fills it);
 * - gone from the mempool unmined: `depositReorged` (the request fails, DEPOSIT_REORGED).
 * A deposit's `logIndex` is its output index; its depositor, the address of its first input.
 * The last block it handled is kept in the chain index (`putBlock`), so after a restart
 * `catchUp` reads the blocks it had not handled (a SIGKILL between a block and its deposits) and
 * the mempool; a deposit already indexed is never reported twice.
 */
export class BvmDepositWatcher {
  private readonly detach: Array<() => void>;
  /** Mempool deposits not yet indexed, by txid. */
  private readonly unconfirmed = new Map<string, IndexedDeposit[]>();

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
      deps.ledger.onEviction((record) => this.evicted(record)),
    ];
  }

  stop(): void {
    this.detach.forEach((detach) => detach());
  }

  /**
   * Reads what this run has not heard from the ledger (its state came from a journal): the
   * blocks after the last one handled — and those a deposit in them still needs confirmations
   * from — then the mempool.
   */
  catchUp(): void {
    const { ledger, chainIndex, chainId, confirmations } = this.deps;
    const last = chainIndex.latestBlock(chainId);
    const known = last && ledger.block(last.number)?.hash === last.hash;
    for (let height = known ? Math.max(0, last.number - confirmations + 2) : 0; height <= ledger.height; height++) {
      for (const txid of ledger.block(height)!.txids.slice(1)) this.seen(ledger.transaction(txid)!);
    }
    for (const record of ledger.mempoolTransactions()) this.seen(record);
    this.confirmIfDeep();
    this.handled();
  }

  /** Looks at one transaction now (the `/transactions/index` hint): in the mempool or mined. */
  index(txid: string): void {
    const record = this.deps.ledger.transaction(txid);
    if (!record) return;
    if (record.height === undefined) this.seen(record);
    else this.confirmIfDeep();
  }

  private seen(record: BvmTransactionRecord): void {
    if (this.unconfirmed.has(record.txid)) return;
    const deposits = this.depositsIn(record);
    if (deposits.length === 0) return;
    this.unconfirmed.set(record.txid, deposits);
    deposits.forEach((deposit) => this.deps.emit({ kind: 'depositInMempool', deposit }));
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
    for (const [txid, deposits] of this.unconfirmed) {
      const record = this.deps.ledger.transaction(txid);
      if (record?.height === undefined || (this.deps.ledger.confirmations(txid) ?? 0) < this.deps.confirmations) continue;
      this.unconfirmed.delete(txid);
      const block = this.deps.ledger.block(record.height)!;
      for (const pending of deposits) {
        const deposit: IndexedDeposit = { ...pending, blockNumber: block.height, blockHash: block.hash as Hex, blockTimestamp: block.time, state: 'canonical' };
        if (this.deps.chainIndex.insertDeposit(deposit)) this.deps.emit({ kind: 'deposit', deposit });
      }
    }
  }

  private evicted(record: BvmTransactionRecord): void {
    const deposits = this.unconfirmed.get(record.txid);
    if (!deposits) return;
    this.unconfirmed.delete(record.txid);
    deposits.forEach((deposit) => this.deps.emit({ kind: 'depositReorged', deposit, detectedAt: this.deps.clock.now() }));
  }

  /** The outputs of `record` that pay a request's deposit address. */
  private depositsIn(record: BvmTransactionRecord): IndexedDeposit[] {
    const depositor = addressOfScript(record.prevouts[0]?.script ?? new Uint8Array()) ?? '';
    return record.tx.outs.flatMap((output, vout) => {
      const address = addressOfScript(output.script);
      const registered = address ? this.deps.depositAddresses.at(this.deps.chainId, address) : undefined;
      if (!registered) return [];
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
