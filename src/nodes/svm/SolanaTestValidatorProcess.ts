import { ChildProcessInstance, type ReadyProbeContext } from '../../process/ChildProcessInstance';
import { ChildProcessStartError } from '../../process/ChildProcessStartError';
import { callSvmRpc } from './callSvmRpc';
import { findFreePortRange } from './findFreePortRange';
import type { SvmGenesisAccountFile } from './writeSvmGenesisAccountFiles';
import type { SvmRpcEndpoints } from './SvmJsonRpcServer';
import { connectableHost } from '../../config/listenHost';

/** Ports of the validator's dynamic range (TPU, repair, …); agave asks for at least 25. */
const DYNAMIC_PORT_COUNT = 30;
/** RPC, its websocket (RPC + 1, fixed by the validator), faucet, gossip, then the dynamic range. */
const PORTS_NEEDED = 4 + DYNAMIC_PORT_COUNT;
/** Starts with a new free range after one of its ports was taken between the check and the validator's bind. */
const PORT_RACE_ATTEMPTS = 3;

export interface SolanaTestValidatorOptions {
  chainId: number;
  binaryPath: string;
  /** `--ledger`: the validator's own ledger directory. */
  ledgerDir: string;
  /** Its output goes here. */
  logFile: string;
  host: string;
  /** `--rpc-port` (its websocket on the next port; `--chain-port`); default: the first of a free range. */
  rpcPort?: number;
  /** `--reset`: start from genesis, dropping an existing ledger (every start without `--db`). */
  reset: boolean;
  /** `--account <address> <file>`: the genesis accounts. */
  accounts: readonly SvmGenesisAccountFile[];
  /** Default 60 000: a real validator takes seconds to make its genesis and first slots. */
  startTimeoutMs?: number;
}

export interface SolanaTestValidatorPorts {
  rpc: number;
  faucet: number;
  gossip: number;
  dynamic: [number, number];
}

/** The validator's command line: quiet, on its host, on the given ports, with the genesis accounts. */
export function solanaTestValidatorArgs(options: Omit<SolanaTestValidatorOptions, 'binaryPath' | 'logFile' | 'startTimeoutMs' | 'chainId'>, ports: SolanaTestValidatorPorts): string[] {
  const args = ['--ledger', options.ledgerDir, '--bind-address', options.host, '--rpc-port', String(ports.rpc), '--faucet-port', String(ports.faucet), '--gossip-port', String(ports.gossip)];
  args.push('--dynamic-port-range', `${ports.dynamic[0]}-${ports.dynamic[1]}`, '--quiet');
  if (options.reset) args.push('--reset');
  for (const account of options.accounts) args.push('--account', account.address, account.file);
  return args;
}

/** Ready once `getHealth` answers ok and `getSlot` a slot. */
async function probeValidator(endpoints: SvmRpcEndpoints, context: ReadyProbeContext): Promise<void> {
  const health = await callSvmRpc<string>(endpoints.rpcUrl, 'getHealth', [], context.signal);
  if (health !== 'ok') throw new Error(`getHealth answered ${JSON.stringify(health)}`);
  const slot = await callSvmRpc<unknown>(endpoints.rpcUrl, 'getSlot', [], context.signal);
  if (typeof slot !== 'number') throw new Error(`getSlot answered ${JSON.stringify(slot)}`);
}

/**
 * A `solana-test-validator` for the SVM chain (`--svm validator`), a supervised child as Anvil is
 * (ChildProcessInstance: its output in a log file, stopped with the simulator, reaped even when
 * the simulator is killed with SIGKILL). It prints nothing with `--quiet`: it is ready when its
 * RPC answers.
 */
export async function startSolanaTestValidator(options: SolanaTestValidatorOptions): Promise<{ endpoints: SvmRpcEndpoints; process: ChildProcessInstance<SvmRpcEndpoints> }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePorts(options);
    } catch (error) {
      if (attempt >= PORT_RACE_ATTEMPTS || !lostAPortRace(error)) throw error;
    }
  }
}

/**
 * Whether the validator exited because a port of its range was bound by another process after
 * `findFreePortRange` found it free (the range is in the OS's ephemeral range, which outgoing
 * connections use too): then a start on a new range can succeed.
 */
function lostAPortRace(error: unknown): boolean {
  return error instanceof ChildProcessStartError && error.reason === 'exited' && error.lastOutputLines.some((line) => /EADDRINUSE|address already in use/i.test(line.text));
}

async function startOnFreePorts(options: SolanaTestValidatorOptions): Promise<{ endpoints: SvmRpcEndpoints; process: ChildProcessInstance<SvmRpcEndpoints> }> {
  // a fixed RPC port (and its websocket) beside a free range for the rest, whose first two ports stay unused
  const first = await findFreePortRange(options.host, PORTS_NEEDED);
  const ports: SolanaTestValidatorPorts = { rpc: options.rpcPort ?? first, faucet: first + 2, gossip: first + 3, dynamic: [first + 4, first + PORTS_NEEDED - 1] };
  const host = connectableHost(options.host);
  const endpoints: SvmRpcEndpoints = { rpcUrl: `http://${host}:${ports.rpc}`, wsUrl: `ws://${host}:${ports.rpc + 1}` };
  const child = new ChildProcessInstance<SvmRpcEndpoints>({
    name: `solana-test-validator-${options.chainId}`,
    command: options.binaryPath,
    args: solanaTestValidatorArgs(options, ports),
    logFile: options.logFile,
    readyAtSpawn: endpoints,
    probeReady: probeValidator,
    probeRetryDelayMs: 100,
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
    // a graceful exit lets a kept ledger (--db, no --reset) close cleanly
    signalOnParentExit: options.reset ? 'SIGKILL' : 'SIGTERM',
  });
  await child.start();
  return { endpoints, process: child };
}
