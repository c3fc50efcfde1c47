import type { ControlledChain } from '../chains/ChainControl';
import type { RpcFaultStore } from '../chains/RpcFaultStore';
import type { VirtualClock } from '../clock/VirtualClock';
import type { SimulatorConfig, SimulatorConfigInput } from '../config/simulatorConfig';
import type { SolverRule, SolverRuleInput } from '../domain/fill/solverRules';
import type { CommittedStatusChange, RequestEventBus } from '../events/RequestEventBus';
import type { SeededRng } from '../rng/SeededRng';
import type { SolverPolicy } from '../solver/Solver';
import type { ApiKeyStore } from '../store/ApiKeyStore';
import type { RequestStore } from '../store/RequestStore';
import type { WebhookStore } from '../store/WebhookStore';
import type { PublicUrlFrom } from './advertisedAddress';
import type { WorldSnapshots } from './worldSnapshots';

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
  /** The API's URL as the summary prints it: `--public-url`, else on a wildcard host this machine's first non-loopback IPv4, else the host it listens on (docs/shared-host.md). */
  baseUrl: string;
  /** The API's URL on the address it listens on, as this machine reaches it (loopback for a wildcard host). */
  listenUrl: string;
  /** Where the URLs handed out point (`baseUrl` and each chain's `rpcUrl` here, `GET /chains` for each client): `--public-url`, the Host header each client used (wildcard host), or the listening address. */
  publicUrlFrom: PublicUrlFrom;
  /** The hostname `baseUrl` and the chains' URLs here are given (undefined: the chains' own listening URLs). */
  chainHostname: string | undefined;
  chains: SimulatorChainSummary[];
  accounts: SimulatorAccountSummary[];
  config: SimulatorConfig;
  dataDir: string;
  dbPath: string;
  /** The default API key (SPEC §5), printed at start like Anvil's accounts. */
  apiKey: string;
  /** The control plane tests, scenarios and the admin API use. */
  control: SimulatorControl;
  /**
   * A snapshot of the whole world (docs/control-plane.md, "World snapshots"): every chain, the
   * requests and the listing, the webhook outbox, the solver's rules, the RPC faults, the clock and
   * the RNG; resolves with its id. Used up by a revert to it, unless taken with `keep: true`.
   */
  snapshot: WorldSnapshots['snapshot'];
  /** Back to a world snapshot; every snapshot taken after it is dropped. `SNAPSHOT_NOT_FOUND` for an id not held. */
  revert: WorldSnapshots['revert'];
  /** Back to the world as the start left it: the start's balances, no requests. */
  reset: WorldSnapshots['reset'];
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
  /** The world snapshots (also `sim.snapshot` / `sim.revert` / `sim.reset` and `POST /admin/snapshot|revert|reset`). */
  world: WorldSnapshots;
  /**
   * Back to a fresh control state: solver rules, delays and policy as configured, no RPC faults,
   * the RNG at its seed. Requests and chain state are kept.
   */
  reset(): void;
}
