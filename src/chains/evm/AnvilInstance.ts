import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ChildProcessInstance } from '../../process/ChildProcessInstance';
import { callJsonRpc } from './callJsonRpc';
import type {
  ChildProcessStatus,
  ReadyProbeContext,
  UnexpectedExitListener,
} from '../../process/ChildProcessInstance';
import { ProcessError } from '../../errors/IntentsimError';

export type AnvilInstanceOptions = {
  chainId: number;
  /** From resolveAnvilBinary(). */
  binaryPath: string;
  /** Anvil's banner and logs go here (the directory is created). */
  logFile: string;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Default 0: a free port chosen by the OS and read back from anvil's output. Once chosen, later
   * starts of the same instance (restart) ask for that port again so its URLs stay valid.
   */
  port?: number;
  mnemonic?: string;
  accounts?: number;
  balanceEther?: number;
  /** Undefined: a block is mined per transaction (automine). */
  blockTimeSeconds?: number;
  /** `--state`: loaded at start if the file exists, written on a graceful exit. Its directory is created. */
  statePath?: string;
  /** `--state-interval`: also write the state every N seconds. */
  stateIntervalSeconds?: number;
  /**
   * `--preserve-historical-states`: also save per-block states, so that calls at an older block
   * number (eth_getBalance at N) still work after a reload. Without it they fail with
   * BlockOutOfRangeError after a reload.
   */
  preserveHistoricalStates?: boolean;
  baseFeeWei?: bigint;
  /** `--timestamp`: the genesis block's time, unix seconds (a chain rebuilt from a journal needs its old genesis). */
  genesisTimestamp?: number;
  /**
   * `--fork-url` / `--fork-block-number`: the chain starts as a copy of `url`'s chain at
   * `blockNumber`, fetched lazily (FORK_UPSTREAM_ARGS bound each upstream call).
   */
  fork?: { url: string; blockNumber: bigint };
  /** `--ipc`: also serve JSON-RPC on this Unix socket (its directory is created; a stale socket file is replaced). */
  ipcPath?: string;
  /** Default 10 000. */
  startTimeoutMs?: number;
  /** Appended after the flags derived from the options above. */
  extraArgs?: readonly string[];
};

/** The options that become command-line flags. */
export type AnvilArgsOptions = Omit<AnvilInstanceOptions, 'binaryPath' | 'logFile' | 'startTimeoutMs'>;

export type AnvilEndpoints = {
  rpcUrl: string;
  wsUrl: string;
  port: number;
  /** The IPC socket, when started with `ipcPath`. */
  ipcPath?: string;
};

export type AnvilInstance = {
  /** `anvil-<chainId>`; names the instance in errors. */
  readonly name: string;
  readonly chainId: number;
  readonly status: ChildProcessStatus;
  /** Throws AnvilNotStartedError unless started. */
  readonly rpcUrl: string;
  /** Throws AnvilNotStartedError unless started. */
  readonly wsUrl: string;
  /** Pid of the running anvil process, `undefined` when none runs. */
  readonly pid: number | undefined;
  readonly logFile: string;
  start(): Promise<AnvilEndpoints>;
  stop(): Promise<void>;
  /** stop() then start(), on the same port. */
  restart(): Promise<AnvilEndpoints>;
  /** Called when anvil dies without stop() being asked. Returns an unsubscribe function. */
  onUnexpectedExit(listener: UnexpectedExitListener): () => void;
};

export class AnvilNotStartedError extends ProcessError {
  override readonly name = 'AnvilNotStartedError';

  constructor(instanceName: string, status: ChildProcessStatus) {
    super(`${instanceName} has no endpoints while ${status}; await start() first.`);
  }
}

/**
 * How a fork reads its upstream: each call gives up after 10 s and is tried once more after 250 ms,
 * so an upstream that stops answering makes the call fail in about 20 s instead of hanging (Anvil's
 * defaults: 45 s and 5 retries); what it fetched is kept in memory only, never in Anvil's shared
 * disk cache (~/.foundry/cache/rpc), which keys state by chain id and block alone.
 */
export const FORK_UPSTREAM_ARGS: readonly string[] = ['--timeout', '10000', '--retries', '1', '--fork-retry-backoff', '250', '--no-storage-caching'];

/** Maps typed options to anvil's command-line flags. */
export function anvilArgs(options: AnvilArgsOptions): string[] {
  const args = ['--host', options.host ?? '127.0.0.1', '--port', String(options.port ?? 0)];
  args.push('--chain-id', String(options.chainId));
  if (options.mnemonic !== undefined) args.push('--mnemonic', options.mnemonic);
  if (options.accounts !== undefined) args.push('--accounts', String(options.accounts));
  if (options.balanceEther !== undefined) args.push('--balance', String(options.balanceEther));
  if (options.blockTimeSeconds !== undefined) args.push('--block-time', String(options.blockTimeSeconds));
  if (options.statePath !== undefined) args.push('--state', options.statePath);
  if (options.stateIntervalSeconds !== undefined) args.push('--state-interval', String(options.stateIntervalSeconds));
  if (options.preserveHistoricalStates === true) args.push('--preserve-historical-states');
  if (options.baseFeeWei !== undefined) args.push('--base-fee', options.baseFeeWei.toString());
  if (options.genesisTimestamp !== undefined) args.push('--timestamp', String(options.genesisTimestamp));
  if (options.ipcPath !== undefined) args.push('--ipc', options.ipcPath);
  if (options.fork !== undefined) args.push('--fork-url', options.fork.url, '--fork-block-number', options.fork.blockNumber.toString(), ...FORK_UPSTREAM_ARGS);
  args.push(...(options.extraArgs ?? []));
  return args;
}

type ListeningAddress = { host: string; port: number };

/** Anvil prints `Listening on 127.0.0.1:8545` once its RPC server is bound. */
function readListeningLine(line: string): ListeningAddress | undefined {
  const match = /Listening on (\S+):(\d+)\s*$/.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
  if (match === null || match[1] === undefined || match[2] === undefined) return undefined;
  return { host: match[1], port: Number(match[2]) };
}

/** A listener on a wildcard address is reached through loopback. */
function connectableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host;
}

function endpointsOf(address: ListeningAddress): AnvilEndpoints {
  const host = connectableHost(address.host);
  return { rpcUrl: `http://${host}:${address.port}`, wsUrl: `ws://${host}:${address.port}`, port: address.port };
}

/** One `eth_chainId` call; throws unless it answers with `expectedChainId`. */
async function probeChainId(rpcUrl: string, expectedChainId: number, context: ReadyProbeContext): Promise<void> {
  const result = await callJsonRpc(rpcUrl, 'eth_chainId', [], context.signal);
  if (typeof result !== 'string' || Number.parseInt(result, 16) !== expectedChainId) {
    throw new Error(`eth_chainId at ${rpcUrl} answered ${JSON.stringify(result)}, expected chain id ${expectedChainId}`);
  }
}

/** An anvil process for one EVM chain: flags from typed options, ready once listening and answering eth_chainId. */
export function createAnvilInstance(options: AnvilInstanceOptions): AnvilInstance {
  const name = `anvil-${options.chainId}`;
  let assignedPort = options.port ?? 0;
  let endpoints: AnvilEndpoints | undefined;

  const createProcess = (port: number): ChildProcessInstance<AnvilEndpoints> =>
    new ChildProcessInstance<AnvilEndpoints>({
      name,
      command: options.binaryPath,
      args: anvilArgs({ ...options, port }),
      logFile: options.logFile,
      readyLine: (line) => {
        const address = readListeningLine(line);
        return address === undefined ? undefined : { ...endpointsOf(address), ...(options.ipcPath !== undefined ? { ipcPath: options.ipcPath } : {}) };
      },
      probeReady: (ready, context) => probeChainId(ready.rpcUrl, options.chainId, context),
      startTimeoutMs: options.startTimeoutMs,
      // A graceful exit lets anvil write its --state file even when the parent dies.
      signalOnParentExit: options.statePath === undefined ? 'SIGKILL' : 'SIGTERM',
    });

  const unexpectedExitListeners = new Set<UnexpectedExitListener>();
  const forwardUnexpectedExit: UnexpectedExitListener = (exit) => {
    for (const listener of [...unexpectedExitListeners]) listener(exit);
  };
  let processPort = assignedPort;
  let anvilProcess = createProcess(processPort);
  anvilProcess.onUnexpectedExit(forwardUnexpectedExit);
  let lastStart: { processStart: Promise<AnvilEndpoints>; start: Promise<AnvilEndpoints> } | undefined;

  const start = (): Promise<AnvilEndpoints> => {
    const idle = anvilProcess.status === 'idle' || anvilProcess.status === 'stopped';
    if (idle && processPort !== assignedPort) {
      processPort = assignedPort;
      anvilProcess = createProcess(processPort);
      anvilProcess.onUnexpectedExit(forwardUnexpectedExit);
    }
    if (idle && options.ipcPath !== undefined) {
      try {
        mkdirSync(dirname(options.ipcPath), { recursive: true });
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (idle && options.statePath !== undefined) {
      // anvil 1.7.1 silently skips writing --state when the file's directory is missing.
      try {
        mkdirSync(dirname(options.statePath), { recursive: true });
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const processStart = anvilProcess.start();
    if (lastStart?.processStart === processStart) return lastStart.start;
    const started = processStart.then((ready) => {
      assignedPort = ready.port;
      endpoints = ready;
      return ready;
    });
    lastStart = { processStart, start: started };
    return started;
  };

  const requireEndpoints = (): AnvilEndpoints => {
    if (endpoints === undefined || anvilProcess.status !== 'started') {
      throw new AnvilNotStartedError(name, anvilProcess.status);
    }
    return endpoints;
  };

  return {
    name,
    chainId: options.chainId,
    get status() {
      return anvilProcess.status;
    },
    get rpcUrl() {
      return requireEndpoints().rpcUrl;
    },
    get wsUrl() {
      return requireEndpoints().wsUrl;
    },
    get pid() {
      return anvilProcess.pid;
    },
    logFile: options.logFile,
    start,
    stop: () => anvilProcess.stop(),
    restart: async () => {
      await anvilProcess.stop();
      return start();
    },
    onUnexpectedExit: (listener) => {
      unexpectedExitListeners.add(listener);
      return () => {
        unexpectedExitListeners.delete(listener);
      };
    },
  };
}
