import type { Hex } from 'viem';
import type { ChainDescription, VmType } from '../domain/chain/chainDescription';
import type { SolverPayment } from '../domain/fill/solverPayment';
import type { QuoteStep } from '../domain/quote/quoteStep';
import type { Currency } from '../domain/chain/currency';
import type { TransactionEntry, FailedCallData } from '../domain/request/requestRecord';
import type { ChainLiquidity, DestinationAction } from '../domain/quote/planRoute';
import type { DepositAddressPayment, IndexedDeposit } from '../domain/chain/observedDeposit';
import type { DecodedRevert } from '../domain/fill/decodedRevert';
import type { ChainCheats } from './capabilities/ChainCheats';
import type { UserWallet } from './capabilities/UserWallet';
import type { DepositAddressCapability } from './capabilities/DepositAddressCapability';
import type { FixtureContractsCapability } from './capabilities/FixtureContractsCapability';
import type { GaslessRelayCapability } from './capabilities/GaslessRelayCapability';

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
  /** A deposit gone from the chain; `conflictingTxHash`: a transaction that spent its inputs took its place (a double spend). */
  | { kind: 'depositReorged'; deposit: IndexedDeposit; detectedAt: number; conflictingTxHash?: string }
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

export interface SentSolverTransaction {
  txHash: Hex;
  chainId: number;
  /** The node answered the send by taking the transaction (pool or block): the solver need not ask `hasTransaction` before its receipt. */
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

/** What a chain's transactions cost, in its native currency (or the exchange's fee currency). */
export interface ChainGasCosts {
  /** What a fill in `currency` costs the solver. */
  fill(currency: Currency, action?: DestinationAction['kind']): { amount: bigint; currency: Currency };
  /** Gas units at this chain's gas price. */
  ofGasUnits(gasUnits: bigint): { amount: bigint; currency: Currency };
  /** What a refund of `currency` costs the solver. */
  refund(currency: Currency): { amount: bigint; currency: Currency };
  /** What the user's deposit transaction costs. */
  deposit(currency: Currency, needsApproval: boolean): bigint;
}

/**
 * One adapter per VM kind, all behind this interface: the API, the solver and the simulator
 * root never see an RPC client or a node process. The core is what every chain does for the
 * service (identity, lifecycle, currencies and addresses, quote-time reads, the deposit watcher,
 * solver payments); the rest are optional capabilities (`cheats`, `userWallet`, `depositAddresses`,
 * `fixtureContracts`, `gaslessRelay`): a chain without one simply lacks it, and callers ask for it
 * through `requireCapability` (capabilities/requireCapability.ts), the one place that answers
 * `UNSUPPORTED_ON_CHAIN`.
 */
export interface ChainAdapter {
  readonly chainId: number;
  readonly vmType: VmType;
  /** Starts the ledger's node only (the part that can overlap with other start-up work). */
  startNode(): Promise<void>;
  /** Brings the chain into service: contracts, watchers, the solver's wallet; resumes unfinished work. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** What the chain is (after `startNode`): names, RPC URLs (`httpRpcUrl`: what users get), currencies, contracts, funded accounts. */
  describe(): ChainDescription;
  nativeCurrency(): Currency;
  findCurrency(address: string): Currency | undefined;
  isValidAddress(address: string): boolean;
  /** Normalised form used for comparisons and storage. */
  normalizeAddress(address: string): string;
  buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]>;
  /** What fills, refunds and deposits cost on this chain. */
  readonly gasCosts: ChainGasCosts;
  /** Native, wrapped native and pools, for route planning; the sources an origin swap may name. */
  liquidity(): ChainLiquidity;
  /** A pool's reserves now (token0, token1); on the chains whose `liquidity()` has pools (EVM), absent on the others. */
  readPoolReserves?(pool: string): Promise<{ reserve0: bigint; reserve1: bigint }>;
  /** Simulates the fill the solver would send (SPEC §7.1 DESTINATION_TX_FAILED). */
  simulateSolverFill(payment: SolverPayment): Promise<FillSimulation>;
  /**
   * The call and revert error of a mined transaction that failed (SPEC §2.3 failedCallData), on the
   * chains where a transaction can be mined and fail (EVM, Solana); absent where a transaction is
   * valid or never mined (Bitcoin) or executed or refused (Lighter).
   */
  failedTransactionFacts?(txHash: Hex): Promise<FailedTransactionFacts>;
  balanceOf(owner: string, currency: Currency): Promise<bigint>;
  onObservation(listener: (observation: ChainObservation) => void): () => void;
  /** Looks at one transaction now (the `/transactions/index` hint) instead of waiting for the next block. */
  indexTransaction(txHash: string): Promise<void>;
  /** Indexes up to the chain head now, instead of waiting for the next block notification. */
  syncNow(): Promise<void>;
  /**
   * Signs, persists and broadcasts a solver payment; the same request+kind is never signed twice.
   * A node that refuses the send (a JSON-RPC error answer) throws `SolverBroadcastRefusedError`,
   * and nothing of the transaction is kept. With `withoutSending` it is only signed.
   */
  sendSolverPayment(kind: 'fill' | 'refund', payment: SolverPayment, options?: SolverSendOptions): Promise<SentSolverTransaction>;
  /** Whether the node knows a transaction: waiting in its pool or mined. */
  hasTransaction(txHash: Hex): Promise<boolean>;
  /** Waits for a solver transaction's receipt and returns its facts. */
  awaitSolverTransaction(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry>;
  /** An `inTxs` entry from what the watcher indexed alone (no RPC; fee filled in later). */
  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry;
  /** Facts of an observed deposit transaction (fee, timestamp) for `inTxs`. */
  depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry>;

  // Optional capabilities: present where the chain has them.
  /** Cheat calls: mine, time, and where the chain has them automine, code, snapshot/revert, reorg. */
  readonly cheats?: ChainCheats;
  /** A user's wallet (scenarios, conformance runs). */
  readonly userWallet?: UserWallet;
  /** A request's own deposit address (SPEC §1.6 `useDepositAddress`). */
  readonly depositAddresses?: DepositAddressCapability;
  /** Fixture contracts and the stablecoin issuer's blocklist (EVM). */
  readonly fixtureContracts?: FixtureContractsCapability;
  /** The gasless relayer (SPEC §1.6), on the chains that have one (EVM). */
  readonly gaslessRelay?: GaslessRelayCapability;
}
