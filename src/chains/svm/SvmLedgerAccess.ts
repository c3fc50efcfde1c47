import type { Address, Instruction, MaybeEncodedAccount } from '@solana/kit';
import type { SvmBlock, SvmLedger, SvmSigner, SvmSimulation, SvmTransactionRecord } from '../../nodes/svm';

/**
 * What the SVM chain's adapter (SvmChain, SvmDepositWatcher, SvmSolverWallet) needs of a ledger,
 * and no more: read accounts and kept transactions, sign, simulate and submit wire transactions,
 * hear of mined transactions. Two implementations: `InProcessSvmLedger` (LiteSVM in this process,
 * the embedded default) and `RpcSvmLedger` (a `solana-test-validator` reached only through its
 * JSON-RPC and websocket, `--svm validator`).
 */
export interface SvmLedgerAccess {
  account(address: Address): Promise<MaybeEncodedAccount>;
  balance(address: Address): Promise<bigint>;
  minimumBalanceForRentExemption(dataLength: bigint): Promise<bigint>;
  block(slot: bigint): Promise<SvmBlock | undefined>;
  /** A mined transaction with its balances, or undefined when the chain has none by that signature. */
  transaction(signature: string): Promise<SvmTransactionRecord | undefined>;
  /** Signs instructions into a wire transaction with `payer` as fee payer and only signer, on the latest blockhash. */
  signWire(payer: SvmSigner, instructions: readonly Instruction[]): Promise<Uint8Array>;
  /** Sends a wire transaction and resolves once it is mined (SvmTransactionRejectedError when it is refused). */
  submit(wire: Uint8Array, options: { preflight: boolean }): Promise<SvmTransactionRecord>;
  simulate(wire: Uint8Array, options: { sigVerify: boolean; replaceRecentBlockhash: boolean }): Promise<SvmSimulation>;
  /** Whether a transaction on `blockhash` may still land (its `lastValidBlockHeight` not passed). */
  isBlockhashValid(blockhash: string): Promise<boolean>;
  /** Each mined transaction, once (in-process: as it is mined; over RPC: as the chain is read). */
  onTransaction(listener: (record: SvmTransactionRecord) => void): () => void;
  /**
   * Every transaction the ledger holds from before this process attached (in-process: all it kept,
   * replayed from the journal included; a validator: none, its blocks are read from the slot it was
   * at when the simulator started).
   */
  keptTransactions(): Promise<SvmTransactionRecord[]>;
  /** Reads what the chain mined since the last look, so listeners have heard of it. */
  sync(): Promise<void>;
  mine(count: number): Promise<void>;
  /** Absent on a validator, which makes its slots on its own clock. */
  setNextBlockTimestamp?(unixSeconds: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The in-process ledger (LiteSVM) behind the adapter's interface: every call answers at once, but
 * on a fork, whose accounts and transactions read the accounts the chain never had from the
 * upstream first (as the node's RPC does).
 */
export class InProcessSvmLedger implements SvmLedgerAccess {
  constructor(readonly ledger: SvmLedger) {}

  async account(address: Address): Promise<MaybeEncodedAccount> {
    await this.ledger.load([address]);
    return this.ledger.account(address);
  }

  async balance(address: Address): Promise<bigint> {
    await this.ledger.load([address]);
    return this.ledger.balance(address);
  }

  async minimumBalanceForRentExemption(dataLength: bigint): Promise<bigint> {
    return this.ledger.svm.minimumBalanceForRentExemption(dataLength);
  }

  async block(slot: bigint): Promise<SvmBlock | undefined> {
    return this.ledger.block(slot);
  }

  async keptTransactions(): Promise<SvmTransactionRecord[]> {
    return [...this.ledger.transactions()];
  }

  async transaction(signature: string): Promise<SvmTransactionRecord | undefined> {
    return this.ledger.transaction(signature);
  }

  signWire(payer: SvmSigner, instructions: readonly Instruction[]): Promise<Uint8Array> {
    return this.ledger.signWire(payer, instructions);
  }

  async submit(wire: Uint8Array, options: { preflight: boolean }): Promise<SvmTransactionRecord> {
    await this.ledger.loadForTransaction(wire);
    return this.ledger.submit(wire, options);
  }

  async simulate(wire: Uint8Array, options: { sigVerify: boolean; replaceRecentBlockhash: boolean }): Promise<SvmSimulation> {
    await this.ledger.loadForTransaction(wire);
    return this.ledger.simulate(wire, options);
  }

  /** It would land in the next slot at the earliest. */
  async isBlockhashValid(blockhash: string): Promise<boolean> {
    return this.ledger.isBlockhashValid(blockhash, this.ledger.currentSlot() + 1n);
  }

  onTransaction(listener: (record: SvmTransactionRecord) => void): () => void {
    return this.ledger.onTransaction(listener);
  }

  /** The ledger reports every transaction as it is mined: there is nothing to catch up on. */
  async sync(): Promise<void> {}

  async mine(count: number): Promise<void> {
    this.ledger.mine(count);
  }

  async setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    this.ledger.setNextBlockTimestamp(unixSeconds);
  }

  async close(): Promise<void> {}
}
