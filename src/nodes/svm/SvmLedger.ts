import { Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
import {
  lamports,
  type Address,
  type EncodedAccount,
  type Instruction,
  type MaybeEncodedAccount,
} from '@solana/kit';
import { decodeSvmTransaction, svmAccountKeys, type DecodedSvmTransaction } from './decodeSvmTransaction';
import { signSvmWire } from './signSvmWire';
import type { SvmSigner } from './svmKeySigner';
import { SvmSlotChain } from './SvmSlotChain';
import { lookupTableAddresses, tokenBalancesOf } from './svmTokenBalances';
import { svmTransactionFee } from './svmTransactionFee';
import { SvmLedgerUndo, writableAccountKeys, type SvmUndoPosition } from './SvmLedgerUndo';
import { describeSvmTransactionError, svmTransactionErrorJson, type SvmTransactionErrorJson } from './svmTransactionError';
import {
  SvmTransactionDroppedError,
  SvmTransactionRejectedError,
  type SvmAccountSource,
  type SvmBlock,
  type SvmLedgerOptions,
  type SvmLedgerRecorder,
  type SvmSimulation,
  type SvmTransactionRecord,
} from './svmLedgerTypes';

export * from './svmLedgerTypes';

/** A point `SvmLedger.revertToMark` comes back to: the slot then, and the undo log's position. */
export interface SvmLedgerMark {
  slot: bigint;
  undo: SvmUndoPosition;
}

/** A Solana transaction on the wire is at most 1232 bytes (the IPv6 MTU less headers); LiteSVM does not check it, the ledger does. */
export const SVM_MAX_TRANSACTION_BYTES = 1232;
export { SVM_BLOCKHASH_LIFETIME_SLOTS } from './SvmSlotChain';

/** Lamports the faucet holds at genesis: a million SOL (JSON numbers stay exact below 2^53). */
const FAUCET_LAMPORTS = 1_000_000n * 1_000_000_000n;

/**
 * The SVM chain's ledger: LiteSVM runs the programs; this class adds what a validator has and
 * LiteSVM lacks. Each transaction is mined into its own slot (as Anvil's automine does); slot times
 * come from the virtual clock; blockhashes rotate per slot and stay valid for 150 slots; the
 * 1232-byte limit is enforced; every processed transaction is kept with its balances for
 * `getTransaction` (the slots, blockhashes and transactions: `SvmSlotChain`). A revert to a mark undoes what changed since (`revertToMark`, `SvmLedgerUndo`);
 * a rollback (`SvmLedgerHistory`) otherwise rebuilds a ledger from its journal and this one takes
 * its state (`adoptStateOf`).
 */
export class SvmLedger {
  svm: LiteSVM;
  private chain: SvmSlotChain;
  /** The fault "drop transactions": which transactions are answered but never mined. */
  private dropFilter: ((transaction: DecodedSvmTransaction) => boolean) | undefined;
  private readonly listeners = new Set<(record: SvmTransactionRecord) => void>();
  private readonly slotListeners = new Set<(block: SvmBlock) => void>();
  private readonly accountListeners = new Set<(address: Address) => void>();
  private nextBlockTimestamp: number | undefined;
  private recorder: SvmLedgerRecorder | undefined;
  /** Addresses this ledger answers for itself though they may hold no account: written here, named by a mined transaction, or read from a fork's upstream. */
  private localAddresses = new Set<string>();
  private accountSource: SvmAccountSource | undefined;
  private readonly undo = new SvmLedgerUndo((key) => this.svm.getAccount(key));

  constructor(private readonly options: SvmLedgerOptions) {
    this.svm = new LiteSVM().withBlockhashCheck(false).withSigverify(true).withNativeMints().withTransactionHistory(0n);
    this.chain = new SvmSlotChain(options.seed, options.genesisTime ?? options.clock.nowSeconds());
    this.setClock(this.chain.head());
    this.setLamports(options.faucet.address, FAUCET_LAMPORTS);
  }

  currentSlot(): bigint {
    return this.chain.currentSlot();
  }

  block(slot: bigint): SvmBlock | undefined {
    return this.chain.block(slot);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint; slot: bigint } {
    return this.chain.latestBlockhash();
  }

  /** Whether a transaction on `blockhash` may land in slot `atSlot` (default: the current one); past `lastValidBlockHeight` it may not. */
  isBlockhashValid(blockhash: string, atSlot?: bigint): boolean {
    return this.chain.isBlockhashValid(blockhash, atSlot);
  }

  account(address: Address): MaybeEncodedAccount {
    return this.svm.getAccount(address);
  }

  balance(address: Address): bigint {
    return this.svm.getBalance(address) ?? 0n;
  }

  transaction(signature: string): SvmTransactionRecord | undefined {
    return this.chain.transaction(signature);
  }

  /** The newest `limit` kept transactions that name `address` among their accounts, newest first. */
  transactionsOf(address: Address, limit: number): SvmTransactionRecord[] {
    return this.chain.transactionsOf(address, limit);
  }

  /** Every transaction kept, oldest first. */
  transactions(): IterableIterator<SvmTransactionRecord> {
    return this.chain.transactions();
  }

  /** From now on every change is told to `recorder` first (undefined: none). */
  setRecorder(recorder: SvmLedgerRecorder | undefined): void {
    this.recorder = recorder;
  }

  /** From now on accounts the chain never had are read from `source` first (a fork's upstream); undefined: none. */
  setAccountSource(source: SvmAccountSource | undefined): void {
    this.accountSource = source;
  }

  /** The fork's upstream URL, when this ledger reads through to one. */
  upstreamUrl(): string | undefined {
    return this.accountSource?.url;
  }

  /** Before reading `addresses`: a fork reads those the chain never had from its upstream (nothing to do otherwise). */
  async load(addresses: readonly Address[]): Promise<void> {
    await this.accountSource?.load(addresses);
  }

  /** Before running a wire transaction: a fork reads the accounts it uses that the chain never had from its upstream. */
  async loadForTransaction(wire: Uint8Array): Promise<void> {
    await this.accountSource?.loadForTransaction(wire);
  }

  /** Before listing an owner's token accounts: a fork reads those it holds upstream. */
  async loadTokenAccountsOf(owner: Address, filter: { mint: Address } | { programId: Address }): Promise<void> {
    await this.accountSource?.loadTokenAccountsOf(owner, filter);
  }

  /** Whether the chain has its own answer for `address`: an account, or none after writing it, using it or asking the upstream once. */
  answersFor(address: Address): boolean {
    if (this.localAddresses.has(address)) return true;
    // once here, always here (a closed account is still the chain's own): not read again next time
    if (!this.svm.getAccount(address).exists) return false;
    this.addLocal(address);
    return true;
  }

  /**
   * Takes accounts read from a fork's upstream, and addresses it had none at: from now on this
   * ledger answers for them (an address it already does is left as it is: local wins). Programs
   * go in last, as LiteSVM loads a program from its programdata. An account LiteSVM refuses (a
   * program it cannot load) is left out, neither kept nor journaled, and answered with the reason.
   */
  takeUpstreamAccounts(found: readonly EncodedAccount[], absent: readonly Address[]): Array<{ address: Address; reason: string }> {
    const refused: Array<{ address: Address; reason: string }> = [];
    const taken: EncodedAccount[] = [];
    for (const account of found.filter((candidate) => !this.answersFor(candidate.address)).sort((a, b) => Number(a.executable) - Number(b.executable))) {
      try {
        this.undo.beforeWrite([account.address]);
        this.svm.setAccount(account);
        taken.push(account);
      } catch (error) {
        refused.push({ address: account.address, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    const empty = absent.filter((key) => !this.answersFor(key));
    for (const key of [...taken.map((account) => account.address), ...empty]) this.addLocal(key);
    if (taken.length > 0 || empty.length > 0) this.recorder?.upstreamAccounts(taken, empty);
    return refused;
  }

  /** Writes an account without a transaction (genesis: funded accounts, mints; later, a cheat). */
  setAccount(account: EncodedAccount): void {
    this.addLocal(account.address);
    this.undo.beforeWrite([account.address]);
    this.svm.setAccount(account);
    this.recorder?.accountWritten(account);
    for (const listener of this.accountListeners) listener(account.address);
  }

  /** Hears each account written without a transaction (a cheat), after it is written down. */
  onAccountWritten(listener: (address: Address) => void): () => void {
    this.accountListeners.add(listener);
    return () => this.accountListeners.delete(listener);
  }

  setLamports(address: Address, amount: bigint): void {
    const existing = this.svm.getAccount(address);
    const empty = { address, programAddress: '11111111111111111111111111111111' as Address, executable: false, data: new Uint8Array(0), space: 0n };
    this.setAccount({ ...(existing.exists ? existing : empty), lamports: lamports(amount) });
  }

  onTransaction(listener: (record: SvmTransactionRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onSlot(listener: (block: SvmBlock) => void): () => void {
    this.slotListeners.add(listener);
    return () => this.slotListeners.delete(listener);
  }

  /** The next slot's time (unix seconds); later slots follow the virtual clock again. */
  setNextBlockTimestamp(unixSeconds: number): void {
    this.nextBlockTimestamp = unixSeconds;
  }

  /** From now on slots get the blockhashes of fork `fork` (0: the first chain; a rollback starts the next). */
  setFork(fork: number): void {
    this.chain.setFork(fork);
  }

  /** Takes the state of `other` (a ledger rebuilt from the journal up to a rollback); listeners and recorder stay. */
  adoptStateOf(other: SvmLedger): void {
    this.svm = other.svm;
    this.chain = other.chain;
    this.localAddresses = other.localAddresses;
    this.nextBlockTimestamp = undefined;
    this.undo.reset();
  }

  /** The state now, for `revertToMark`; from the first mark on every change keeps what it overwrote. */
  mark(): SvmLedgerMark {
    return { slot: this.chain.currentSlot(), undo: this.undo.mark() };
  }

  /** No mark is held any more: changes stop keeping what they overwrote, and no earlier mark can be reverted to. */
  forgetMarks(): void {
    this.undo.reset();
  }

  /**
   * Back to `mark`'s state at the cost of what changed since: the slots after it and their
   * transactions dropped, each account written since put back, LiteSVM's clock at the mark's slot;
   * slots mined from now on get fork `fork`'s blockhashes. Answers false and changes nothing when
   * that cannot be exact (a program was written, or the ledger was rebuilt since the mark).
   */
  revertToMark(mark: SvmLedgerMark, fork: number): boolean {
    if (mark.slot > this.chain.currentSlot() || !this.undo.canUndoTo(mark.undo)) return false;
    this.chain.dropAfter(mark.slot, fork);
    this.undo.undoTo(mark.undo, (account) => this.svm.setAccount(account), (key) => this.localAddresses.delete(key));
    this.nextBlockTimestamp = undefined;
    this.setClock(this.chain.head());
    return true;
  }

  /** The fault "drop transactions": `submit` answers a transaction `filter` picks and never mines it (undefined: none). */
  setDropFilter(filter: ((transaction: DecodedSvmTransaction) => boolean) | undefined): void {
    this.dropFilter = filter;
  }

  /** Mines `count` empty slots. */
  mine(count = 1): void {
    const mined: SvmBlock[] = [];
    for (let i = 0; i < count; i++) {
      const block = this.openSlot();
      this.chain.keepSlot(block, []);
      mined.push(block);
    }
    this.recorder?.emptySlots(mined);
    for (const block of mined) this.announceSlot(block);
  }

  /**
   * Runs a wire transaction in a new slot and keeps it. With `preflight` (sendTransaction's
   * default) a transaction that would fail is refused and nothing is mined; without it, it is
   * mined as failed and pays its fee, as on a validator. `sigVerify: false` (journaled so): a replay's impersonated deposit.
   */
  submit(wire: Uint8Array, options: { preflight: boolean; sigVerify?: boolean }): SvmTransactionRecord {
    return options.sigVerify === false ? this.withoutSigverify(() => this.runAndKeep(wire, options)) : this.runAndKeep(wire, options);
  }

  private runAndKeep(wire: Uint8Array, options: { preflight: boolean; sigVerify?: boolean }): SvmTransactionRecord {
    const decoded = this.checkWire(wire);
    if (this.chain.transaction(decoded.signature)) throw this.rejected('AlreadyProcessed', options.preflight);
    // it would land in the next slot: not past its blockhash's lastValidBlockHeight
    if (!this.isBlockhashValid(decoded.message.lifetimeToken, this.chain.currentSlot() + 1n)) throw this.rejected('BlockhashNotFound', options.preflight);
    if (options.preflight) {
      const simulation = this.simulateDecoded(decoded);
      if (simulation.err !== null) throw new SvmTransactionRejectedError(`Transaction simulation failed: ${describeSvmTransactionError(simulation.err)}`, -32002, simulation);
    }
    if (this.dropFilter?.(decoded)) throw new SvmTransactionDroppedError(decoded.signature);
    const keys = svmAccountKeys(decoded.message, (table) => this.lookupTable(table));
    const preBalances = keys.all.map((key) => this.balance(key));
    const preTokenBalances = tokenBalancesOf(keys.all, (address) => this.svm.getAccount(address));
    for (const key of keys.all) this.addLocal(key);
    this.undo.beforeWrite(writableAccountKeys(decoded.message, keys.loaded.writable));
    const block = this.openSlot();
    const result = this.svm.sendTransaction(decoded.transaction);
    const failed = result instanceof FailedTransactionMetadata;
    const meta: TransactionMetadata = failed ? result.meta() : result;
    const record: SvmTransactionRecord = {
      signature: decoded.signature,
      slot: block.slot,
      blockTime: block.blockTime,
      wire,
      decoded,
      accountKeys: keys.all,
      loadedAddresses: keys.loaded,
      err: failed ? svmTransactionErrorJson(result.err()) : null,
      fee: svmTransactionFee(decoded.message),
      logs: meta.logs(),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
      preBalances,
      postBalances: keys.all.map((key) => this.balance(key)),
      preTokenBalances,
      postTokenBalances: tokenBalancesOf(keys.all, (address) => this.svm.getAccount(address)),
    };
    this.chain.keepSlot(block, [record]);
    this.recorder?.transactionSlot(block, wire, failed, options.sigVerify !== false);
    this.announceSlot(block);
    for (const listener of this.listeners) listener(record);
    return record;
  }

  /** Runs a wire transaction against the current state and keeps nothing. */
  simulate(wire: Uint8Array, options: { sigVerify: boolean; replaceRecentBlockhash: boolean }): SvmSimulation & { replacementBlockhash?: string } {
    const decoded = this.checkWire(wire);
    if (!options.replaceRecentBlockhash && !this.isBlockhashValid(decoded.message.lifetimeToken)) return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0n };
    const simulation = options.sigVerify ? this.simulateDecoded(decoded) : this.withoutSigverify(() => this.simulateDecoded(decoded));
    return options.replaceRecentBlockhash ? { ...simulation, replacementBlockhash: this.latestBlockhash().blockhash } : simulation;
  }

  /** Runs `run` with LiteSVM's signature check off, and on again after. */
  private withoutSigverify<T>(run: () => T): T {
    try {
      this.svm.withSigverify(false);
      return run();
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /** Sends `lamports` from the faucet to `to` in a real, signed transfer (the `requestAirdrop` of a local validator). */
  async airdrop(to: Address, amount: bigint, transfer: (from: SvmSigner, to: Address, amount: bigint) => Instruction): Promise<SvmTransactionRecord> {
    return this.submit(await this.signWire(this.options.faucet, [transfer(this.options.faucet, to, amount)]), { preflight: true });
  }

  /** Signs instructions into a wire transaction with `payer` as fee payer and only signer, on the latest blockhash. */
  async signWire(payer: SvmSigner, instructions: readonly Instruction[]): Promise<Uint8Array> {
    return signSvmWire(payer, instructions, this.latestBlockhash());
  }

  private simulateDecoded(decoded: DecodedSvmTransaction): SvmSimulation {
    const result = this.svm.simulateTransaction(decoded.transaction);
    if (result instanceof FailedTransactionMetadata) {
      return { err: svmTransactionErrorJson(result.err()), logs: result.meta().logs(), unitsConsumed: result.meta().computeUnitsConsumed() };
    }
    const meta = result.meta();
    return { err: null, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed() };
  }

  private checkWire(wire: Uint8Array): DecodedSvmTransaction {
    if (wire.length > SVM_MAX_TRANSACTION_BYTES) {
      throw new SvmTransactionRejectedError(`transaction too large: ${wire.length} bytes (max: ${SVM_MAX_TRANSACTION_BYTES} bytes)`, -32602);
    }
    try {
      return decodeSvmTransaction(wire);
    } catch (error) {
      throw new SvmTransactionRejectedError(error instanceof Error ? error.message : String(error), -32602);
    }
  }

  private rejected(error: SvmTransactionErrorJson, preflight: boolean): SvmTransactionRejectedError {
    const message = describeSvmTransactionError(error);
    return new SvmTransactionRejectedError(preflight ? `Transaction simulation failed: ${message}` : message, -32002, { err: error, logs: [], unitsConsumed: 0n });
  }

  /** The addresses a lookup table names (undefined: no lookup table there). */
  lookupTable(table: Address): Address[] | undefined {
    return lookupTableAddresses(this.svm.getAccount(table));
  }

  private addLocal(key: Address): void {
    if (this.localAddresses.has(key)) return;
    this.localAddresses.add(key);
    this.undo.addedLocal(key);
  }

  /** Starts the next slot: its time from the virtual clock (never before the last), set on LiteSVM's clock. */
  private openSlot(): SvmBlock {
    const block = this.chain.nextBlock(this.nextBlockTimestamp ?? this.options.clock.nowSeconds());
    this.nextBlockTimestamp = undefined;
    this.setClock(block);
    return block;
  }

  private announceSlot(block: SvmBlock): void {
    for (const listener of this.slotListeners) listener(block);
  }

  private setClock(block: SvmBlock): void {
    this.svm.setClock(new Clock(block.slot, 0n, 0n, 0n, BigInt(block.blockTime)));
  }
}
