import type { Hex } from 'viem';
import type { ChainDescription, VmType } from '../domain/chain/chainDescription';
import type { SolverPayment } from '../domain/fill/solverPayment';
import type { QuoteStep } from '../domain/quote/quoteStep';
import type { Currency } from '../domain/chain/currency';
import type { DestinationCall, TransactionEntry, FailedCallData } from '../domain/request/requestRecord';
import type { ChainLiquidity, DestinationAction } from '../domain/quote/planRoute';
import type { DepositAddressPayment, IndexedDeposit } from '../domain/chain/observedDeposit';
import type { DecodedRevert } from '../domain/fill/decodedRevert';
import type { RelayedCall, RelayedCallReceipt, RelayedCallSimulation, RelaySendOptions } from '../domain/execute/relayedCall';
import type { TransactionFaultCapability } from './TransactionFaultCapability';

export interface DepositStepParams {
  requestId: Hex;
  user: string;
  currency: Currency;
  amount: bigint;
  /** SPEC §4.1 `maxRouteLength`, `includedOriginSwapSources`: how a chain that swaps on the origin (SVM) may route it. */
  originSwap?: { maxRouteLength?: number; includedSources?: readonly string[] };
  /**
   * The deposit address of an earlier request this one takes over (SPEC §2.3
   * `supersededByRequestId`; only on a chain with `regeneratesDepositAddresses`): the step pays
   * that address, which the quote hands over to this request when it records it.
   */
  reuseDepositAddress?: string;
}

/** What a chain tells the solver about its ledger. */
export type ChainObservation =
  | { kind: 'deposit'; deposit: IndexedDeposit }
  /**
   * SPEC §3: a deposit seen in the mempool, not yet in a block (a chain whose deposits count from
   * the mempool, BVM): its request goes `pending`; it is filled once the same deposit comes as a
   * `deposit` (the confirmations the chain asks for).
   */
  | { kind: 'depositInMempool'; deposit: IndexedDeposit }
  | { kind: 'depositReorged'; deposit: IndexedDeposit; detectedAt: number }
  /** SPEC §1.6: the first payment into a request's deposit address (not yet swept). */
  | { kind: 'depositAddressPaid'; requestId: Hex; depositAddress: string; payment: DepositAddressPayment };

/**
 * The outcome of simulating a fill with `eth_estimateGas` on the destination. A failure names the
 * error (`revertErrorName`), reads it in one line (`revertLabel`) and carries the decoded revert.
 */
export type FillSimulation =
  | { ok: true; gasUnits: bigint }
  | { ok: false; errorName: string; message: string; revert: DecodedRevert; blockedAccount?: string };

/** What a mined, reverted transaction shows: the call it made and the error it reverted with. */
export interface FailedTransactionFacts {
  callData: FailedCallData;
  /** The decoded custom error (`Error`, `Panic`, or `Reverted` when there is no data or it matches no known error). */
  errorName: string;
  message: string;
  /** The revert data of the transaction's top call, decoded. */
  revert: DecodedRevert;
}

/** A transaction a user's wallet sent (`sent`: not waited for, e.g. while automine is off). */
export interface UserTransaction {
  txHash: string;
  status: 'success' | 'failure' | 'sent';
  blockNumber?: number;
}

/** What a contract call is encoded against: a fixture contract's ABI (fixtures/contracts, by name) or one of the chain's currencies. */
export type ContractAbiRef = { fixture: string } | { currency: Currency };

/** A signature a contract checks, whole and in the parts the chain's calls take (EVM: `v`, `r`, `s`). */
export interface ContractSignature {
  signature: string;
  parts: Record<string, string | number>;
}

/** How a user's wallet sends a transaction. */
export interface UserSendOptions {
  /** Wait for the receipt (default true); false while automine is off. */
  wait?: boolean;
  /**
   * Pay fees above anything waiting in the pool, so the next block mines it first (a change made
   * ahead of a fill held in the mempool while automine is off).
   */
  aheadOfPending?: boolean;
}

/** A deposit the user signed instead of sending (SPEC §1.6 gasless swaps, quote `usePermit`). */
export interface SignedDepositParams extends DepositStepParams {
  /** The signature over the quote's signature step (`data.sign`). */
  signature: string;
  /** The authorization's validity window, unix seconds, as the step's typed data states it. */
  validAfter: bigint;
  validBefore: bigint;
}

export interface SentSolverTransaction {
  txHash: Hex;
  chainId: number;
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
}

/**
 * One adapter per VM kind, all behind this interface: the API, the solver and the simulator
 * root never see an RPC client or a node process.
 */
export interface ChainAdapter {
  readonly chainId: number;
  readonly vmType: VmType;
  /** The chain's JSON-RPC URL (after `startNode`). */
  readonly rpcUrl: string;
  /** Starts the ledger's node only (the part that can overlap with other start-up work). */
  startNode(): Promise<void>;
  /** Brings the chain into service: contracts, watchers, the solver's wallet; resumes unfinished work. */
  start(): Promise<void>;
  stop(): Promise<void>;
  describe(): ChainDescription;
  nativeCurrency(): Currency;
  findCurrency(address: string): Currency | undefined;
  isValidAddress(address: string): boolean;
  /** Normalised form used for comparisons and storage. */
  normalizeAddress(address: string): string;
  buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]>;
  /**
   * SPEC §1.6, §4.1 `useDepositAddress`: registers the request's own deposit address (watched
   * from now on, across restarts) and builds the plain transfer step that pays into it.
   */
  openDepositAddress(params: DepositStepParams): Promise<{ address: string; steps: QuoteStep[] }>;
  /** Moves a paid deposit address's balance into the depository, tagged with the request id. */
  sweepDepositAddress(requestId: Hex, payment: DepositAddressPayment): Promise<{ txHash: Hex; status: 'success' | 'failure' }>;
  /** What a fill in `currency` costs the solver in gas, in this chain's native currency. */
  fillGasCost(currency: Currency, action?: DestinationAction['kind']): { amount: bigint; currency: Currency };
  /** Gas units at this chain's gas price, in native currency. */
  gasCostOf(gasUnits: bigint): { amount: bigint; currency: Currency };
  /** What a refund of `currency` costs the solver in gas, in this chain's native currency. */
  refundGasCost(currency: Currency): { amount: bigint; currency: Currency };
  /** The sources an origin swap on this chain may name (SPEC §4.1 `includedOriginSwapSources`); absent: it has none. */
  originSwapSources?(): string[];
  /** Native, wrapped native and pools, for route planning. */
  liquidity(): ChainLiquidity;
  /** A pool's reserves now (token0, token1). */
  readPoolReserves(pool: string): Promise<{ reserve0: bigint; reserve1: bigint }>;
  /** Simulates the fill the solver would send (SPEC §7.1 DESTINATION_TX_FAILED). */
  simulateSolverFill(payment: SolverPayment): Promise<FillSimulation>;
  /** The call and revert error of a mined transaction that failed (SPEC §2.3 failedCallData). */
  failedTransactionFacts(txHash: Hex): Promise<FailedTransactionFacts>;
  /** What the user's deposit transaction costs in gas, in native currency. */
  depositGasCost(currency: Currency, needsApproval: boolean): bigint;
  balanceOf(owner: string, currency: Currency): Promise<bigint>;
  onObservation(listener: (observation: ChainObservation) => void): () => void;
  /** Looks at one transaction now (the `/transactions/index` hint) instead of waiting for the next block. */
  indexTransaction(txHash: string): Promise<void>;
  /** Indexes up to the chain head now, instead of waiting for the next block notification. */
  syncNow(): Promise<void>;
  /**
   * Signs, persists and broadcasts a solver payment; the same request+kind is never signed twice.
   * A node that refuses the send (a JSON-RPC error answer) throws `SolverBroadcastRefusedError`,
   * and nothing of the transaction is kept.
   */
  sendSolverPayment(kind: 'fill' | 'refund', payment: SolverPayment, options?: SolverSendOptions): Promise<SentSolverTransaction>;
  /** Signs a solver payment without keeping or sending it (the solver fault "broadcast but dropped"). */
  signSolverPaymentWithoutSending(kind: 'fill' | 'refund', payment: SolverPayment, options?: SolverSendOptions): Promise<SentSolverTransaction>;
  /** Whether the node knows a transaction: waiting in its pool or mined. */
  hasTransaction(txHash: Hex): Promise<boolean>;
  /** Waits for a solver transaction's receipt and returns its facts. */
  awaitSolverTransaction(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry>;
  /** An `inTxs` entry from what the watcher indexed alone (no RPC; fee filled in later). */
  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry;
  /** Facts of an observed deposit transaction (fee, timestamp) for `inTxs`. */
  depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry>;

  /**
   * SPEC §2.3 `supersededByRequestId`: a new quote for the same user and route as an earlier,
   * unpaid deposit-address request from this chain regenerates it (the same deposit address, now
   * the new request's). True on the BVM chain; absent on the others.
   */
  readonly regeneratesDepositAddresses?: boolean;

  /** The gasless relayer (SPEC §1.6), on the chains that have one (EVM); absent on the others. */
  readonly gaslessRelay?: GaslessRelayCapability;

  /** Dropped and expiring transactions (the admin fault `drop-transactions`), on the chains that simulate them (Solana, embedded); absent on the others. */
  readonly transactionFaults?: TransactionFaultCapability;

  // A user's wallet (scenarios, conformance runs): what an integrator's app sends, signed with a test account's key.
  /** Sends one transaction step item (SPEC §2.2 item `data`) from the account; waits for the receipt when `wait` (default true). */
  sendUserTransaction(privateKey: string, item: Record<string, unknown>, options?: UserSendOptions): Promise<UserTransaction>;
  /** Transfers `amount` of `currency` from the account to `to` (a deposit-address payment, a stray transfer). */
  transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint, options?: { wait?: boolean }): Promise<UserTransaction>;
  /** A stable address of this chain's kind named by `label` (fresh recipients in scenarios). */
  addressForLabel(label: string): string;

  // Contracts a user deploys and drives (scenarios: the targets of Call requests' destination calls).
  /** Deploys fixture contract `name` (fixtures/contracts) with `args` from the account, and returns its address once mined. */
  deployFixtureContract(privateKey: string, name: string, args: readonly unknown[]): Promise<string>;
  /** The calldata of `functionName(args)` on a contract (arguments as JSON: integers as numbers or decimal strings, structs as objects). */
  encodeContractCall(contract: ContractAbiRef, functionName: string, args: readonly unknown[]): string;
  /** Signs a message fixture contract `contract` checks (`type`: e.g. `Order`, `Permit`, `UserOperation`) with the account's key. */
  signContractMessage(privateKey: string, contract: { fixture: string; address: string }, type: string, message: Record<string, unknown>): Promise<ContractSignature>;
  /**
   * The issuer of `currency` (the simulator's stablecoin) adds `account` to its blocklist or takes
   * it off: transfers to or from it revert. `aheadOfPending` as for a user's transaction.
   */
  setBlockedByIssuer(currency: Currency, account: string, blocked: boolean, options?: UserSendOptions): Promise<UserTransaction>;

  // Cheat calls (scenarios, tests, the admin control plane). A ledger without a node implements them in-process.
  /** Mines `blocks` blocks now (default 1). */
  mine(blocks?: number): Promise<void>;
  /** Whether a transaction waits in the node's pool, not yet mined (held while automine is off). */
  isPending(txHash: string): Promise<boolean>;
  /** Replaces the code at `address` (a contract that starts reverting, or loses its code). */
  setCode(address: string, code: string): Promise<void>;
  /** Mine each transaction as it arrives (on), or only on `mine` / the interval (off). */
  setAutomine(enabled: boolean): Promise<void>;
  /** Mines a block every `seconds` (0: off). */
  setIntervalMining(seconds: number): Promise<void>;
  /** Saves the ledger's state; `revert(id)` returns to it. */
  snapshot(): Promise<string>;
  revert(snapshotId: string): Promise<void>;
  /** Replaces the last `depth` blocks with new empty ones; their transactions leave the canonical chain. */
  reorg(depth: number): Promise<void>;
  /** The next block's timestamp, unix seconds. */
  setNextBlockTimestamp(unixSeconds: number): Promise<void>;
  increaseTime(seconds: number): Promise<void>;
}

/**
 * The gasless relayer of a chain (SPEC §1.6 gasless execution and swaps, §7.1 `/execute` simulation
 * errors): a capability a chain has or has not, so a chain without one needs no refusing stubs.
 */
export interface GaslessRelayCapability {
  /** Runs `call` from the relayer against the chain's current state with a full call trace; nothing is sent. */
  simulateRelayedCall(call: RelayedCall): Promise<RelayedCallSimulation>;
  /**
   * Signs `call` from the relayer's account (the relayer pays the gas; an authorization list is
   * honoured) and broadcasts it; answers the transaction hash. A node that refuses the send throws
   * `RelayBroadcastRefusedError`.
   */
  relayCall(call: RelayedCall, gasUnits: bigint, options?: RelaySendOptions): Promise<string>;
  /** Waits for a relayed call's receipt. */
  awaitRelayedCall(txHash: string): Promise<RelayedCallReceipt>;
  /** Whether `currency` can be deposited with a signature alone (EIP-3009 on EVM), so a `usePermit` quote gets a signature step. */
  canDepositBySignature(currency: Currency): boolean;
  /** The quote's signature step of a deposit by signature (`data.sign` typed data, `data.post` → `/execute/permits`). */
  buildSignedDepositSteps(params: DepositStepParams): Promise<QuoteStep[]>;
  /** The call the relayer submits to pull a signed deposit into the depository. */
  signedDepositCall(params: SignedDepositParams): RelayedCall;
}
