import type { Hex } from 'viem';
import type { ChainDescription, VmType } from '../domain/chain/chainDescription';
import type { QuoteStep } from '../domain/quote/quoteStep';
import type { Currency } from '../domain/chain/currency';
import type { TransactionEntry } from '../domain/request/requestRecord';
import type { ChainLiquidity, DestinationAction } from '../domain/quote/planRoute';
import type { DepositAddressPayment, IndexedDeposit } from '../domain/chain/observedDeposit';
import type { SolverWallet } from './SolverWallet';
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
 * service (identity, lifecycle, currencies and addresses, quote-time reads, the deposit watcher)
 * and its one required part, the solver's wallet (`solverWallet`, SolverWallet.ts); the rest are optional capabilities (`cheats`, `userWallet`, `depositAddresses`,
 * `fixtureContracts`, `gaslessRelay`): a chain without one simply lacks it, and callers ask for it
 * through `requireCapability` (capabilities/requireCapability.ts), the one place that answers
 * `UNSUPPORTED_ON_CHAIN`.
 */
/** What a world revert asks of `syncNow` (see there). */
export interface WorldRevertSync {
  afterWorldRevert?: boolean;
  sendAfter?: Promise<unknown>;
  restoreMining?: () => Promise<void>;
}

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
  balanceOf(owner: string, currency: Currency): Promise<bigint>;
  onObservation(listener: (observation: ChainObservation) => void): () => void;
  /** Looks at one transaction now (the `/transactions/index` hint) instead of waiting for the next block. */
  indexTransaction(txHash: string): Promise<void>;
  /**
   * Indexes up to the chain head now, instead of waiting for the next block notification. With
   * `afterWorldRevert` (a world revert reverted the chain and put back the database's chain index
   * and solver transactions), what the adapter keeps beside them is read again first (the EVM
   * solver's next nonce and pool, the Bitcoin watcher's followed transactions); with `sendAfter`
   * too, nothing is sent again before it settles (the world revert's own snapshot of the chain,
   * taken meanwhile: it holds the chain as reverted); with `restoreMining`, the chain's block making
   * at the snapshot (`ChainCheats.captureMining`) is put back once nothing of the world left behind
   * is left to mine (the EVM pool emptied), before anything is sent again.
   */
  syncNow(options?: WorldRevertSync): Promise<void>;
  /** An `inTxs` entry from what the watcher indexed alone (no RPC; fee filled in later). */
  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry;
  /** Facts of an observed deposit transaction (fee, timestamp) for `inTxs`. */
  depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry>;
  /** The solver's wallet: simulates, sends and follows its fills and refunds (every chain pays them). */
  readonly solverWallet: SolverWallet;

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
