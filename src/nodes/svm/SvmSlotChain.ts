import { createHash } from 'node:crypto';
import { getBase58Decoder, type Address } from '@solana/kit';
import type { SvmBlock, SvmTransactionRecord } from './svmLedgerTypes';

/** How many slots a blockhash stays usable (`lastValidBlockHeight` = its slot + this). */
export const SVM_BLOCKHASH_LIFETIME_SLOTS = 150n;

/** LiteSVM's slot and the validator's: 400 ms each (epochs are not simulated). */
const GENESIS_SLOT = 0n;

/**
 * The SVM ledger's chain of slots: each slot's block, the blockhashes still usable, and the
 * transactions mined in them, kept for `getTransaction` and the watchers. Blockhashes are a hash
 * of the seed, the slot and the fork (a rollback starts the next fork, a revert goes back to its
 * snapshot's), so never repeated within one history: a revert mines again those it dropped. It
 * holds no account state: LiteSVM does (`SvmLedger`).
 */
export class SvmSlotChain {
  private slot = GENESIS_SLOT;
  private readonly blocks = new Map<bigint, SvmBlock>();
  private readonly blockhashSlots = new Map<string, bigint>();
  private readonly records = new Map<string, SvmTransactionRecord>();
  /** How many times the ledger was rolled back (a revert takes its snapshot's back): slots mined after a rollback get new blockhashes. */
  private fork = 0;

  constructor(private readonly seed: string, genesisTime: number) {
    this.keepBlock({ slot: GENESIS_SLOT, parentSlot: GENESIS_SLOT, blockhash: this.blockhashOf(GENESIS_SLOT), previousBlockhash: this.blockhashOf(-1n), blockTime: genesisTime, signatures: [] });
  }

  currentSlot(): bigint {
    return this.slot;
  }

  /** The newest slot's block. */
  head(): SvmBlock {
    return this.blocks.get(this.slot)!;
  }

  block(slot: bigint): SvmBlock | undefined {
    return this.blocks.get(slot);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint; slot: bigint } {
    return { blockhash: this.head().blockhash, lastValidBlockHeight: this.slot + SVM_BLOCKHASH_LIFETIME_SLOTS, slot: this.slot };
  }

  /** Whether a transaction on `blockhash` may land in slot `atSlot` (default: the current one); past `lastValidBlockHeight` it may not. */
  isBlockhashValid(blockhash: string, atSlot = this.slot): boolean {
    const slot = this.blockhashSlots.get(blockhash);
    return slot !== undefined && atSlot - slot <= SVM_BLOCKHASH_LIFETIME_SLOTS;
  }

  transaction(signature: string): SvmTransactionRecord | undefined {
    return this.records.get(signature);
  }

  /** The newest `limit` kept transactions that name `address` among their accounts, newest first. */
  transactionsOf(address: Address, limit: number): SvmTransactionRecord[] {
    const found: SvmTransactionRecord[] = [];
    const all = [...this.records.values()];
    for (let index = all.length - 1; index >= 0 && found.length < limit; index--) {
      const record = all[index]!;
      if (record.accountKeys.includes(address) || record.loadedAddresses.writable.includes(address) || record.loadedAddresses.readonly.includes(address)) found.push(record);
    }
    return found;
  }

  /** Every transaction kept, oldest first. */
  transactions(): IterableIterator<SvmTransactionRecord> {
    return this.records.values();
  }

  /** From now on slots get the blockhashes of fork `fork` (0: the first chain; a rollback starts the next). */
  setFork(fork: number): void {
    this.fork = fork;
  }

  /** The next slot's block, not kept yet: its time `blockTime`, never before its parent's. */
  nextBlock(blockTime: number): SvmBlock {
    const parent = this.head();
    const slot = this.slot + 1n;
    return { slot, parentSlot: parent.slot, blockhash: this.blockhashOf(slot), previousBlockhash: parent.blockhash, blockTime: Math.max(parent.blockTime, blockTime), signatures: [] };
  }

  /** Keeps `block` (from `nextBlock`) as the newest slot, with the transactions mined in it. */
  keepSlot(block: SvmBlock, records: readonly SvmTransactionRecord[]): void {
    for (const record of records) this.records.set(record.signature, record);
    block.signatures = records.map((record) => record.signature);
    this.slot = block.slot;
    this.keepBlock(block);
  }

  /** Drops the slots after `slot` and their transactions; slots mined from now on get fork `fork`'s blockhashes. */
  dropAfter(slot: bigint, fork: number): void {
    for (let dropped = this.slot; dropped > slot; dropped--) {
      const block = this.blocks.get(dropped)!;
      this.blocks.delete(dropped);
      this.blockhashSlots.delete(block.blockhash);
      for (const signature of block.signatures) this.records.delete(signature);
    }
    this.slot = slot;
    this.fork = fork;
  }

  private keepBlock(block: SvmBlock): void {
    this.blocks.set(block.slot, block);
    this.blockhashSlots.set(block.blockhash, block.slot);
  }

  /** A slot's blockhash: a hash of the seed, the slot and the fork (deterministic, never repeated). */
  private blockhashOf(slot: bigint): string {
    const fork = this.fork === 0 ? '' : `:fork-${this.fork}`;
    return getBase58Decoder().decode(createHash('sha256').update(`intentsim-svm:${this.seed}:${slot}${fork}`).digest());
  }
}
