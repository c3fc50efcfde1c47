import type { Hex } from 'viem';
import type { Currency } from '../domain/currency';
import type { DestinationCall, TransactionEntry, FailedCallData } from '../domain/requestRecord';
import type { ChainLiquidity, DestinationAction } from '../domain/routePlan';
import type { IndexedDeposit } from '../store/ChainIndexStore';
import type { DepositAddressPayment } from '../store/DepositAddressStore';

export type VmType = 'evm' | 'svm' | 'bvm' | 'lvm';

/** One step of a quote (SPEC §2.2), as a chain builds it. */
export interface QuoteStep {
  id: 'approve' | 'deposit';
  action: string;
  description: string;
  kind: 'transaction' | 'signature';
  /** SPEC §2.2 `depositAddress`: set when the user pays into a deposit address. */
  depositAddress?: string;
  items: Array<{ status: 'incomplete'; data: Record<string, unknown>; withCheck: boolean }>;
}

export interface DepositStepParams {
  requestId: Hex;
  user: string;
  currency: Currency;
  amount: bigint;
}

/** What a chain tells the solver about its ledger. */
export type ChainObservation =
  | { kind: 'deposit'; deposit: IndexedDeposit }
  | { kind: 'depositReorged'; deposit: IndexedDeposit; detectedAt: number }
  /** SPEC §1.6: the first payment into a request's deposit address (not yet swept). */
  | { kind: 'depositAddressPaid'; requestId: Hex; depositAddress: string; payment: DepositAddressPayment };

export interface SolverPayment {
  requestId: Hex;
  currency: Currency;
  recipient: string;
  amount: bigint;
  /** A fill that runs a route or calls (absent: pay `amount` of `currency` directly). */
  execution?: FillExecution;
}

/** How a fill turns the solver's inventory into the payment (see `planRoute`). */
export interface FillExecution {
  action: DestinationAction;
  /** What the solver spends, in `solverCurrency`. */
  solverCurrency: Currency;
  solverAmount: bigint;
  /** EXACT_OUTPUT: the pool sells exactly `amount` for at most `solverAmount`. */
  exactOutput: boolean;
  /** The quote's floor: the swap (or, without calls, the whole fill) reverts below it. */
  minimumAmountOut: bigint;
  /** Destination calls attached to the quote, run after the route. */
  calls: DestinationCall[];
  /** SPEC §1.6 gas top-up: destination native the fill also sends to the recipient. */
  gasTopUp?: bigint;
  /** Gas limit measured by the solver's simulation (a default when absent). */
  gasLimit?: bigint;
}

/** The outcome of simulating a fill with `eth_estimateGas` on the destination. */
export type FillSimulation =
  | { ok: true; gasUnits: bigint }
  | { ok: false; errorName: string; message: string; blockedAccount?: string };

/** What a mined, reverted transaction shows: the call it made and the error it reverted with. */
export interface FailedTransactionFacts {
  callData: FailedCallData;
  /** The decoded custom error (`Reverted` when there is no data or it matches no known error). */
  errorName: string;
  message: string;
}

export interface SentSolverTransaction {
  txHash: Hex;
  chainId: number;
}

/** SPEC §2.1 fields a chain describes about itself for `GET /chains` and the start summary. */
export interface ChainDescription {
  id: number;
  name: string;
  displayName: string;
  vmType: VmType;
  httpRpcUrl: string;
  wsRpcUrl: string;
  explorerUrl: string;
  explorerName: string;
  explorerPaths: { transaction: string; address: string; token: string };
  nativeCurrency: Currency;
  erc20Currencies: Currency[];
  contracts: {
    multicall3: string;
    multicaller: string;
    onlyOwnerMulticaller: string;
    serviceReceiver: string;
    erc20Router: string;
    approvalProxy: string;
    v3: { erc20Router: string; approvalProxy: string };
  };
  depository: string;
  solverAddress: string;
  logFile: string;
}

/**
 * One adapter per VM kind, all behind this interface: the API, the solver and the simulator
 * root never see an RPC client or a node process.
 */
export interface ChainAdapter {
  readonly chainId: number;
  readonly vmType: VmType;
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
  /** Signs, persists and broadcasts a solver payment; the same request+kind is never signed twice. */
  sendSolverPayment(kind: 'fill' | 'refund', payment: SolverPayment): Promise<SentSolverTransaction>;
  /** Waits for a solver transaction's receipt and returns its facts. */
  awaitSolverTransaction(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry>;
  /** An `inTxs` entry from what the watcher indexed alone (no RPC; fee filled in later). */
  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry;
  /** Facts of an observed deposit transaction (fee, timestamp) for `inTxs`. */
  depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry>;
}
