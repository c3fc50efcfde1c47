import type { Hex } from 'viem';
import type { ChainFailure } from '../domain/fill/chainFailure';
import type { SolverPayment } from '../domain/fill/solverPayment';
import type { FailedCallData, TransactionEntry } from '../domain/request/requestRecord';

/**
 * The outcome of simulating a fill on the destination (EVM: `eth_estimateGas`): the gas it takes,
 * or why it would fail, in the chain's words; `blockedAccount`: the account a token contract
 * blocks, when that is why (EVM `AccountBlocked`).
 */
export type FillSimulation = { ok: true; gasUnits: bigint } | { ok: false; failure: ChainFailure; blockedAccount?: string };

/** What a mined, failed transaction shows: the call it made and why it failed (EVM: its top call's revert, decoded). */
export interface FailedTransactionFacts {
  callData: FailedCallData;
  failure: ChainFailure;
}

export interface SentSolverTransaction {
  txHash: Hex;
  chainId: number;
  /** The node answered the send by taking the transaction (pool or block): the solver need not ask `transactionStatus` before its receipt. */
  takenByNode?: boolean;
}

/** How a solver payment is signed and sent. */
export interface SolverSendOptions {
  /** Re-broadcasts before this one: each raises the fees (SPEC §7.2 "retry and gas-bump window"). */
  feeBumps?: number;
  /**
   * The solver fault "broadcast refused": the payment is signed so that the node refuses it (a gas
   * limit above the block's), and sending throws `SolverBroadcastRefusedError`.
   */
  refusedByNode?: boolean;
  /**
   * The solver fault "broadcast but dropped": the payment is signed (the same transaction hash it
   * would have) but neither kept nor sent.
   */
  withoutSending?: boolean;
}

/**
 * What the chain knows of a transaction the solver sent: `seen` (waiting in its pool or mined),
 * `unseen` (not known, but it may still land if sent again), or `expired` (not known, and it can
 * never land any more: a Solana transaction whose blockhash is past its `lastValidBlockHeight`).
 */
export type SolverTransactionStatus = 'seen' | 'unseen' | 'expired';

/**
 * The solver's wallet on a chain: a part of every chain (every chain pays fills and refunds), as
 * `userWallet` is the user's. It simulates a fill, signs, keeps and sends payments (the same
 * request and kind is never signed twice), says what became of a sent one and waits for it.
 */
export interface SolverWallet {
  /** Simulates the fill the solver would send (SPEC §7.1 DESTINATION_TX_FAILED). */
  simulateFill(payment: SolverPayment): Promise<FillSimulation>;
  /**
   * Signs, persists and broadcasts a payment; the same request+kind is never signed twice. A node
   * that refuses the send (a JSON-RPC error answer) throws `SolverBroadcastRefusedError`, and
   * nothing of the transaction is kept. With `withoutSending` it is only signed.
   */
  sendPayment(kind: 'fill' | 'refund', payment: SolverPayment, options?: SolverSendOptions): Promise<SentSolverTransaction>;
  /** Whether the chain has seen a sent transaction, or it can no longer land (SPEC §7.2 TRANSACTION_NOT_INCLUDED). */
  transactionStatus(txHash: Hex): Promise<SolverTransactionStatus>;
  /** Waits for a payment's receipt and returns its facts. */
  awaitPayment(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry>;
  /**
   * The call and error of a payment that was mined and failed (SPEC §2.3 failedCallData), on the
   * chains where a transaction can be mined and fail (EVM, Solana); absent where a transaction is
   * valid or never mined (Bitcoin) or executed or refused (Lighter).
   */
  failedTransactionFacts?(txHash: Hex): Promise<FailedTransactionFacts>;
}
