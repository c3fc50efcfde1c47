import type { Address, EncodedAccount } from '@solana/kit';
import type { SvmSigner } from './svmKeySigner';
import { ChainError } from '../../errors/IntentsimError';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { DecodedSvmTransaction } from './decodeSvmTransaction';
import type { SvmTokenBalance } from './svmTokenBalances';
import type { SvmTransactionErrorJson } from './svmTransactionError';

/** One slot with its block: one transaction (or none, when mined empty). */
export interface SvmBlock {
  slot: bigint;
  parentSlot: bigint;
  blockhash: string;
  previousBlockhash: string;
  /** Unix seconds, from the simulator's virtual clock. */
  blockTime: number;
  signatures: string[];
}

/** What the ledger keeps of a processed transaction: all that `getTransaction` and the watchers read. */
export interface SvmTransactionRecord {
  signature: string;
  slot: bigint;
  blockTime: number;
  wire: Uint8Array;
  decoded: DecodedSvmTransaction;
  accountKeys: Address[];
  loadedAddresses: { writable: Address[]; readonly: Address[] };
  err: SvmTransactionErrorJson | null;
  fee: bigint;
  logs: string[];
  computeUnitsConsumed: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: SvmTokenBalance[];
  postTokenBalances: SvmTokenBalance[];
}

/** The outcome of running a transaction without keeping it (a preflight, `simulateTransaction`). */
export interface SvmSimulation {
  err: SvmTransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
}

/** A transaction the ledger refuses before running it (size, encoding, blockhash, a failed preflight). */
export class SvmTransactionRejectedError extends ChainError {
  constructor(
    message: string,
    /** JSON-RPC error code a validator answers with. */
    readonly code: number,
    readonly simulation?: SvmSimulation,
  ) {
    super(message);
  }
}

export interface SvmLedgerOptions {
  clock: VirtualClock;
  /** Seeds the blockhashes, so the same simulator seed gives the same chain. */
  seed: string;
  /** The faucet `requestAirdrop` pays from (funded at genesis, as a local validator's faucet is). */
  faucet: SvmSigner;
  /** Genesis time (unix seconds); the virtual clock's now when absent (a journaled ledger passes its first start's). */
  genesisTime?: number;
}

/**
 * Hears every change the ledger makes after genesis, before any listener or caller does
 * (`SvmLedgerJournal` writes them down); a ledger without one keeps its state in memory only.
 */
export interface SvmLedgerRecorder {
  /** A slot was mined with one transaction (its wire bytes), failed or not; `sigVerify` false: run without checking its signatures. */
  transactionSlot(block: SvmBlock, wire: Uint8Array, failed: boolean, sigVerify: boolean): void;
  /** `mine(count)`: empty slots, in order. */
  emptySlots(blocks: readonly SvmBlock[]): void;
  /** An account was written without a transaction. */
  accountWritten(account: EncodedAccount): void;
  /** Accounts read from a fork's upstream, and addresses it had none at (`SvmUpstreamAccounts`). */
  upstreamAccounts(found: readonly EncodedAccount[], absent: readonly Address[]): void;
}

/**
 * Where accounts the local chain never had come from before they are read or used (a fork's
 * upstream, `SvmUpstreamAccounts`); a ledger without one has every account it will ever have.
 * Each method resolves once what it names is in the ledger (or known to be nowhere), and rejects
 * with an RPC error naming the upstream when it could not read it.
 */
export interface SvmAccountSource {
  /** The upstream's URL (what the chain's description names). */
  readonly url: string;
  load(addresses: readonly Address[]): Promise<void>;
  /** Every account a wire transaction uses: its account keys, its lookup tables and what they name. */
  loadForTransaction(wire: Uint8Array): Promise<void>;
  /** The token accounts `owner` holds upstream (by mint or token program). */
  loadTokenAccountsOf(owner: Address, filter: { mint: Address } | { programId: Address }): Promise<void>;
}

/**
 * A transaction the RPC answered a signature for and then dropped (the fault "drop transactions",
 * as a congested leader drops one): it never lands, and nothing of it is kept.
 */
export class SvmTransactionDroppedError extends ChainError {
  constructor(readonly signature: string) {
    super(`transaction ${signature} was dropped before it reached a block (the fault "drop transactions")`);
  }
}
