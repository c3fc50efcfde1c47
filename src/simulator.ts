import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { chainMetadataFor } from '../fixtures/chains';
import type { ChainAdapterContext } from './chains/chainAdapterContext';
import { assertChainsSupported, createChainAdaptersStartingNodes } from './chains/chainAdapterRegistry';
import { createApp } from './api/createApp';
import { answerClientErrorsAsJson } from './api/httpServerErrors';
import type { ChainAdapter } from './chains/ChainAdapter';
import { QuoteRpcScope } from './chains/QuoteRpcScope';
import { ChainControl, type ControlledChain } from './chains/ChainControl';
import { RpcFaultStore } from './chains/RpcFaultStore';
import { deriveSimulatorAccounts, type SimulatorAccounts } from './keys/simulatorAccounts';
import { VirtualClock } from './clock/VirtualClock';
import { loadSimulatorConfig, resolveChains, resolveDepositConfirmations, type SimulatorConfig, type SimulatorConfigInput } from './config/simulatorConfig';
import { RequestEventBus, type CommittedStatusChange } from './events/RequestEventBus';
import { StatusStreamServer } from './events/statusStream/StatusStreamServer';
import { WebhookDispatcher } from './events/webhooks/WebhookDispatcher';
import { WebhookOutbox } from './events/webhooks/WebhookOutbox';
import { RequestLifecycle } from './lifecycle/transitionRequest';
import { SeededRng } from './rng/SeededRng';
import { Solver, type SolverPolicy } from './solver/Solver';
import { SolverRuleStore } from './solver/SolverRuleStore';
import type { SolverRule, SolverRuleInput } from './domain/fill/solverRules';
import { ApiKeyStore } from './store/ApiKeyStore';
import { AppFeeStore } from './store/AppFeeStore';
import { ExchangeAuthorizationStore } from './store/ExchangeAuthorizationStore';
import { AppFeeClaims } from './appFees/AppFeeClaims';
import { SponsorBalanceStore } from './store/SponsorBalanceStore';
import { GaslessRelay } from './execute/GaslessRelay';
import { ChainIndexStore } from './store/ChainIndexStore';
import { ChainJournalStore } from './store/ChainJournalStore';
import { LedgerJournalStore } from './store/LedgerJournalStore';
import { DepositAddressStore } from './store/DepositAddressStore';
import { MetaStore } from './store/MetaStore';
import { openDatabase } from './store/openDatabase';
import { startWalCheckpoints } from './store/walCheckpoints';
import { loadFastKeccak } from './domain/hash/keccak256Fast';
import { RequestListingStore } from './store/RequestListingStore';
import { RequestRecordWriter } from './store/RequestRecordWriter';
import { RequestStore } from './store/RequestStore';
import { SolverTxStore } from './store/SolverTxStore';
import { WebhookStore } from './store/WebhookStore';
import { readSolverInventory } from './lookups/readSolverInventory';
import { requestFastFill } from './solver/requestFastFill';

export interface StartSimulatorOptions extends Partial<SimulatorConfigInput> {
  /** A YAML or JSON config file merged under these options. */
  configFile?: string;
  /** Environment to read INTENTSIM_* variables from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where log lines go (default: stderr). */
  log?: (message: string, error?: unknown) => void;
  /**
   * Hears every committed status change from the very start, including those of requests a
   * previous run left mid-way and this start resumes (`control.events.subscribe` comes too late
   * for those).
   */
  onStatusChange?: (change: CommittedStatusChange) => void;
}

export interface SimulatorChainSummary {
  id: number;
  name: string;
  vmType: string;
  rpcUrl: string;
  /** Funded accounts of a non-EVM chain, keys in its own encoding (the top-level `accounts` are the EVM ones). */
  accounts?: SimulatorAccountSummary[];
  /** What the solver held at start of the chain's native currency and USDC (`GET /chains/liquidity` reads it now). */
  solverInventory: SolverInventoryEntry[];
}

export interface SolverInventoryEntry {
  symbol: string;
  address: string;
  decimals: number;
  /** Smallest units, as an integer string. */
  balance: string;
}

export interface SimulatorAccountSummary {
  address: string;
  privateKey: string;
  /** The account of another kind that owns this one (an exchange account's EVM owner). */
  owner?: string;
}

export interface RunningSimulator {
  baseUrl: string;
  chains: SimulatorChainSummary[];
  accounts: SimulatorAccountSummary[];
  config: SimulatorConfig;
  dataDir: string;
  dbPath: string;
  /** The default API key (SPEC §5), printed at start like Anvil's accounts. */
  apiKey: string;
  /** The control plane tests, scenarios and the admin API use. */
  control: SimulatorControl;
  stop(): Promise<void>;
  /** Resolves with the error that stopped the simulator on its own (a chain process died). */
  readonly fatal: Promise<Error>;
}

export interface SimulatorControl {
  clock: VirtualClock;
  rng: SeededRng;
  events: RequestEventBus;
  requests: RequestStore;
  apiKeys: ApiKeyStore;
  /** Webhook endpoints and the delivery outbox; `idle()` waits for attempts in flight. */
  webhooks: { store: WebhookStore; idle(): Promise<void> };
  solver: {
    setPolicy(policy: SolverPolicy): void;
    getPolicy(): SolverPolicy;
    /** Solver behaviour as rules (also `/admin/solver/rules`): the newest matching rule wins. */
    addRule(input: SolverRuleInput): SolverRule;
    listRules(): SolverRule[];
    removeRule(id: string): boolean;
    clearRules(): void;
    /** See Solver.idle: `unlessHeld` counts work waiting on a receipt held in a pool as idle. */
    idle(options?: { unlessHeld?: (tx: { chainId: number; txHash: `0x${string}` }) => Promise<boolean> }): Promise<void>;
    /** The requests the solver works on now, each with the transaction whose receipt it waits for, if any. */
    work(): Array<{ requestId: string; awaiting: { chainId: number; txHash: `0x${string}`; kind?: 'fill' | 'refund' } | undefined }>;
  };
  /** Moves every chain's block time and then the virtual clock forward (due timers fire); also `POST /admin/clock/advance`. */
  advanceTime(seconds: number): Promise<void>;
  /** A chain's adapter with its cheat calls (mine, snapshot/revert, reorg, time; UNSUPPORTED_ON_CHAIN where the chain lacks one), description. */
  chain(chainId: number): ControlledChain;
  /** Chain RPC faults for quotes (also `POST /admin/faults`). */
  rpcFaults: RpcFaultStore;
  solverAddress: string;
  /**
   * Back to a fresh control state: solver rules, delays and policy as configured, no RPC faults,
   * the RNG at its seed. Requests and chain state are kept.
   */
  reset(): void;
}

function defaultLog(message: string, error?: unknown): void {
  process.stderr.write(`[intentsim] ${message}${error ? `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` : ''}\n`);
}

/**
 * Starts the whole simulator: one Anvil per EVM chain (in parallel), the contracts on each,
 * the solver, and the HTTP API. Returns once everything is ready.
 */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const { configFile, env, log = defaultLog, onStatusChange, ...configOptions } = options;
  const config = loadSimulatorConfig({ options: configOptions, ...(configFile ? { configFile } : {}), ...(env ? { env } : {}) });

  assertChainsSupported(resolveChains(config));
  const depositConfirmations = resolveDepositConfirmations(config);
  await loadFastKeccak();

  const temporaryDir = config.dbPath === undefined && config.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'intentsim-')) : undefined;
  const dataDir = config.dataDir ?? temporaryDir ?? `${config.dbPath}.data`;
  const dbPath = config.dbPath ?? join(dataDir, 'intentsim.db');
  const persistState = config.dbPath !== undefined;

  const clock = new VirtualClock({ mode: config.clockMode, ...(config.clockStartMs !== undefined ? { startMs: config.clockStartMs } : {}) });
  const rng = new SeededRng(config.seed);
  const db = openDatabase(dbPath);
  // WAL checkpoints (and their fsyncs) on a timer, never inside a request's commit; in a worker thread under load
  const checkpoints = startWalCheckpoints(db, dbPath, (message) => log(message));
  const requests = new RequestStore(db);
  const chainIndex = new ChainIndexStore(db);
  const solverTransactions = new SolverTxStore(db);
  const depositAddresses = new DepositAddressStore(db);
  const meta = new MetaStore(db);
  const apiKeys = new ApiKeyStore(db, config.seed);
  const sponsorBalances = new SponsorBalanceStore(db);
  const defaultApiKey = apiKeys.ensureDefault(clock.now());
  const events = new RequestEventBus();
  if (onStatusChange) events.subscribe(onStatusChange);
  const rpcFaults = new RpcFaultStore();
  const quoteRpcScope = new QuoteRpcScope();
  const webhooks = new WebhookStore(db);
  if (config.webhook) webhooks.putEndpoint(defaultApiKey.key, config.webhook, clock.now());
  const appFees = new AppFeeStore(db);
  const lifecycle = new RequestLifecycle({ requests, writer: new RequestRecordWriter(db), clock, bus: events, outbox: new WebhookOutbox(webhooks), appFees });
  const webhookDispatcher = new WebhookDispatcher({ store: webhooks, clock, bus: events, retryBaseMs: config.webhookRetryBaseMs, requestTimeoutMs: config.webhookTimeoutMs, log });
  const statusStream = new StatusStreamServer({ bus: events, apiKeys, clock });

  let resolveFatal: (error: Error) => void = () => undefined;
  const fatal = new Promise<Error>((resolve) => (resolveFatal = resolve));
  let stopping = false;
  let stopPromise: Promise<void> | undefined;

  let accounts: SimulatorAccounts | undefined;
  /** The EVM accounts, derived once, on first use (a chain's node may ask before the start derives them). */
  const deriveAccounts = (): SimulatorAccounts => (accounts ??= deriveSimulatorAccounts(config.mnemonic, config.accountCount));
  const chainContext: ChainAdapterContext = {
    dataDir,
    persistState,
    mnemonic: config.mnemonic,
    accountCount: config.accountCount,
    accounts: deriveAccounts,
    anvilPath: config.anvilPath,
    anvilSearchPath: config.anvilSearchPath,
    clock,
    chainIndex,
    solverTransactions,
    depositAddresses,
    chainJournal: new ChainJournalStore(db),
    ledgerJournal: persistState ? new LedgerJournalStore(db) : undefined,
    pollIntervalMs: config.chainPollIntervalMs,
    bvmBlockTimeSeconds: config.bvmBlockTimeSeconds,
    depositConfirmations,
    svmRuntime: config.svmRuntime,
    solanaTestValidatorPath: config.solanaTestValidatorPath,
    quoteRpc: { scope: quoteRpcScope, faults: rpcFaults, timeoutMs: config.quoteRpcTimeoutMs },
    log,
    onFatalError: (error) => {
      if (stopping) return;
      log(`fatal: ${error.message}; stopping`, error);
      resolveFatal(error);
      void stop();
    },
  };
  // each chain's node starts as soon as its adapter exists (Anvil boots while LiteSVM loads)
  const { adapters: chainList, nodeStarted } = await createChainAdaptersStartingNodes(resolveChains(config), chainContext);
  const chains: ReadonlyMap<number, ChainAdapter> = new Map(chainList.map((chain) => [chain.chainId, chain]));
  const chainControl = new ChainControl({ clock, chains });
  const solver = new Solver({
    chains,
    lifecycle,
    chainIndex,
    rules: new SolverRuleStore(rng),
    clock,
    quoteTtlSeconds: config.quoteTtlSeconds,
    fillInclusionWindowSeconds: config.fillInclusionWindowSeconds,
    log,
  });
  if (config.solverPolicy === 'hold') solver.setPolicy('hold');
  let server: Server | undefined;

  async function stop(): Promise<void> {
    if (stopPromise) return stopPromise;
    stopping = true;
    stopPromise = (async () => {
      const failures: unknown[] = [];
      solver.detach();
      await statusStream.close().catch((error: unknown) => failures.push(error));
      if (server) {
        const closing = server;
        await new Promise<void>((resolve) => {
          closing.close(() => resolve());
          closing.closeAllConnections();
        });
      }
      await webhookDispatcher.stop().catch((error: unknown) => failures.push(error));
      clock.cancelAll();
      // stop in reverse order of start, gathering every failure
      for (const chain of [...chainList].reverse()) await chain.stop().catch((error: unknown) => failures.push(error));
      await checkpoints.stop().catch((error: unknown) => failures.push(error));
      try {
        db.close();
      } catch (error) {
        failures.push(error);
      }
      if (temporaryDir) rmSync(temporaryDir, { recursive: true, force: true });
      if (failures.length > 0) throw new AggregateError(failures, 'some parts of the simulator failed to stop');
    })();
    return stopPromise;
  }

  try {
    // derive keys while the Anvil processes boot
    deriveAccounts();
    webhookDispatcher.start();
    solver.attach(); // observations wait until activate()
    // each chain comes into service once its own node is up (an EVM chain deploys while the SVM genesis is written)
    await Promise.all(
      chainList.map(async (chain, index) => {
        await nodeStarted[index];
        await chain.start();
      }),
    );
    await solver.activate();
    // claims a stopped process debited but did not see paid are paid (at most once) and settled
    const appFeeClaims = new AppFeeClaims({ chains, store: appFees, clock, log });
    void appFeeClaims.resumePending();

    const app = createApp({
      host: config.host,
      quoteRpcScope,
      solver,
      fastFill: (params) => requestFastFill({ requests, solver }, params),
      chainControl,
      rpcFaults,
      chains,
      requests,
      listing: new RequestListingStore(db),
      listingRatePerSecond: config.listingRatePerSecond,
      apiKeys,
      clock,
      webhooks,
      depositAddresses,
      solverAccount: deriveAccounts().solver,
      log,
      appFees: appFeeClaims,
      authorize: { requests, authorizations: new ExchangeAuthorizationStore(db), clock },
      sponsorBalances,
      gaslessRelay: new GaslessRelay({
        lifecycle,
        meta,
        seed: config.seed,
        chains,
        clock,
        sponsorBalances,
        relayFaultFor: (record) => solver.relayFaultFor(record),
        inclusionWindowSeconds: config.fillInclusionWindowSeconds,
        log,
      }),
      quote: {
        chains,
        lifecycle,
        meta,
        clock,
        seed: config.seed,
        serviceFeeBps: BigInt(config.serviceFeeBps),
        defaultSlippageBps: BigInt(config.defaultSlippageBps),
        timeEstimateSeconds: (chainId) => chainMetadataFor(chainId).timeEstimateSeconds,
        quoteTtlSeconds: config.quoteTtlSeconds,
        solver: { address: deriveAccounts().solver.address, signOrderId: (orderId) => deriveAccounts().solver.sign({ hash: orderId }) },
        depositAddresses,
      },
    });
    server = await new Promise<Server>((resolve, reject) => {
      const created = createServer(
        // a request must arrive whole within this time (checked every second), or it is answered 408
        { requestTimeout: config.httpRequestTimeoutMs, headersTimeout: Math.min(config.httpRequestTimeoutMs, 60_000), connectionsCheckingInterval: 1000 },
        app,
      );
      answerClientErrorsAsJson(created);
      created.once('error', reject);
      created.listen(config.port, config.host, () => resolve(created));
    });
    statusStream.attach(server);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }

  const port = (server.address() as AddressInfo).port;
  const derived = deriveAccounts();
  const inventories = await Promise.all(chainList.map((chain) => readSolverInventory(chain)));
  checkpoints.startupDone();
  return {
    baseUrl: `http://${config.host}:${port}`,
    chains: chainList.map((chain, index) => {
      const described = chain.describe();
      return {
        id: chain.chainId,
        name: described.name,
        vmType: chain.vmType,
        rpcUrl: described.httpRpcUrl,
        ...(described.fundedAccounts ? { accounts: described.fundedAccounts } : {}),
        solverInventory: inventories[index]!,
      };
    }),
    accounts: derived.testAccounts.map((account) => ({ address: account.address, privateKey: account.privateKey })),
    config,
    dataDir,
    dbPath,
    apiKey: defaultApiKey.key,
    control: {
      clock,
      rng,
      events,
      requests,
      apiKeys,
      webhooks: { store: webhooks, idle: () => webhookDispatcher.idle() },
      solver,
      solverAddress: derived.solver.address,
      rpcFaults,
      advanceTime: (seconds) => chainControl.advanceTime(seconds),
      reset: () => {
        solver.reset();
        if (config.solverPolicy === 'hold') solver.setPolicy('hold');
        rpcFaults.reset();
        rng.reset();
      },
      chain: (chainId) => {
        const chain = chainControl.find(chainId);
        if (!chain) throw new Error(`no chain ${chainId} in this simulator (chains: ${[...chains.keys()].join(', ')})`);
        return chain;
      },
    },
    stop,
    fatal,
  };
}

