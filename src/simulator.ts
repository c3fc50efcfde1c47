import { RateLimiters } from './api/rateLimiter';
import { VirtualClock } from './clock/VirtualClock';
import { advertisedAddress } from './root/advertisedAddress';
import { connectableHost } from './config/listenHost';
import { loadSimulatorConfig } from './config/simulatorConfig';
import { loadFastKeccak } from './domain/hash/keccak256Fast';
import { assertSupportedPlatform } from './process/supportedPlatform';
import { deriveSimulatorAccounts, type SimulatorAccounts } from './keys/simulatorAccounts';
import { startDerivationCache } from './keys/startDerivationCache';
import { SeededRng } from './rng/SeededRng';
import { ApiRequestsInFlight } from './api/apiRequestsInFlight';
import { startHttpApi, type HttpApi } from './root/httpApi';
import { createRequestEvents, type RequestEvents } from './root/requestEvents';
import type { RunningSimulator, StartSimulatorOptions } from './root/runningSimulator';
import { createSimulatorChains, planChains, type SimulatorChains } from './root/simulatorChains';
import { buildSimulatorControl } from './root/simulatorControl';
import { resolveDataPaths, type SimulatorDataPaths } from './root/simulatorDataPaths';
import { createSimulatorSolver } from './root/simulatorSolver';
import { openSimulatorStores, type OpenedStores } from './root/simulatorStores';
import { summarizeChains } from './root/simulatorSummary';
import { stopParts } from './root/stopParts';
import { createWorldSnapshots, type WorldSnapshots } from './root/worldSnapshots';
import type { Solver } from './solver/Solver';

export type { RunningSimulator, SimulatorAccountSummary, SimulatorChainSummary, SimulatorControl, SolverInventoryEntry, StartSimulatorOptions } from './root/runningSimulator';

function defaultLog(message: string, error?: unknown): void {
  process.stderr.write(`[intentsim] ${message}${error ? `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` : ''}\n`);
}

/**
 * Starts the whole simulator and returns once everything is ready. The root only assembles parts,
 * each built (and stopped) by a function of its own in `root/`: the config, the data paths and
 * stores, the request lifecycle and what publishes it, the chains (their nodes start at once, in
 * parallel), the solver, the HTTP API. A failed start, a fatal chain error and `stop()` all stop
 * whatever had started, in one order.
 */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const { configFile, env, log = defaultLog, onStatusChange, ...configOptions } = options;
  assertSupportedPlatform();
  const config = loadSimulatorConfig({ options: configOptions, ...(configFile ? { configFile } : {}), ...(env ? { env } : {}) });
  const chainPlan = planChains(config);
  await loadFastKeccak();

  const clock = new VirtualClock({ mode: config.clockMode, ...(config.clockStartMs !== undefined ? { startMs: config.clockStartMs } : {}) });
  const rng = new SeededRng(config.seed);
  let accounts: SimulatorAccounts | undefined;
  /** The EVM accounts, derived once, on first use (a chain's node may ask before the start derives them). */
  const deriveAccounts = (): SimulatorAccounts => (accounts ??= deriveSimulatorAccounts(config.mnemonic, config.accountCount));

  let paths: SimulatorDataPaths | undefined;
  let stores: OpenedStores | undefined;
  let requestEvents: RequestEvents | undefined;
  let chains: SimulatorChains | undefined;
  let solver: Solver | undefined;
  let http: HttpApi | undefined;
  let world: WorldSnapshots | undefined;
  let stopping: Promise<void> | undefined;
  let resolveFatal: (error: Error) => void = () => undefined;
  const fatal = new Promise<Error>((resolve) => (resolveFatal = resolve));

  /** Stops what has started: the solver first (no new work), the API, deliveries, timers, chains, the database. */
  const stop = (): Promise<void> =>
    (stopping ??= stopParts([
      solver && { stop: () => solver!.detach() },
      http,
      requestEvents,
      { stop: () => clock.cancelAll() },
      chains,
      stores,
      paths,
    ]));

  try {
    paths = resolveDataPaths(config);
    stores = openSimulatorStores(config, paths, clock, (message) => log(message));
    requestEvents = createRequestEvents(config, { stores: stores.stores, clock, log, ...(onStatusChange ? { onStatusChange } : {}) });
    chains = await createSimulatorChains(config, chainPlan, {
      paths,
      stores: stores.stores,
      clock,
      accounts: deriveAccounts,
      log,
      onFatalError: (error) => {
        if (stopping) return;
        log(`fatal: ${error.message}; stopping`, error);
        resolveFatal(error);
        void stop();
      },
    });
    solver = createSimulatorSolver(config, { chains, lifecycle: requestEvents.lifecycle, stores: stores.stores, rng, clock, log });
    deriveAccounts(); // while the Anvil processes boot
    requestEvents.startDeliveries();
    solver.attach(); // observations wait until activate()
    await chains.start();
    // what the start derived (public keys, signatures) and no chain's genesis saved, for the next start
    startDerivationCache().save();
    await solver.activate();
    const rateLimiters = new RateLimiters();
    const requestsInFlight = new ApiRequestsInFlight();
    const snapshots = createWorldSnapshots({ chains, stores: stores.stores, requestEvents, solver, clock, rng, rateLimiters, requestsInFlight });
    world = snapshots;
    // the world as the start leaves it, for reset(), taken while the API starts to listen
    [http] = await Promise.all([startHttpApi(config, { stores: stores.stores, chains, requestEvents, solver, clock, accounts: deriveAccounts, world, rateLimiters, requestsInFlight, log }), snapshots.takeStartSnapshot()]);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }

  const advertised = advertisedAddress(config, http.port);
  const summaries = await summarizeChains(chains.list, advertised.chainHostname);
  stores.startupDone();
  const derived = deriveAccounts();
  const worldSnapshots = world;
  return {
    baseUrl: advertised.baseUrl,
    listenUrl: `http://${connectableHost(config.host)}:${http.port}`,
    publicUrlFrom: advertised.publicUrlFrom,
    chainHostname: advertised.chainHostname,
    chains: summaries,
    accounts: derived.testAccounts.map((account) => ({ address: account.address, privateKey: account.privateKey })),
    config,
    dataDir: paths.dataDir,
    dbPath: paths.dbPath,
    apiKey: stores.stores.defaultApiKey,
    control: buildSimulatorControl(config, { clock, rng, stores: stores.stores, requestEvents, chains, solver, world: worldSnapshots, solverAddress: derived.solver.address }),
    snapshot: (snapshotOptions) => worldSnapshots.snapshot(snapshotOptions),
    revert: (id) => worldSnapshots.revert(id),
    reset: () => worldSnapshots.reset(),
    stop,
    fatal,
  };
}
