import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createWalletClient, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { isProcessAlive } from '../../src/process/isProcessAlive';

/** The one JSON line of `intentsim start --json`. */
export interface CliReady {
  baseUrl: string;
  apiKey: string;
  solverAddress: string;
  chains: Array<{ id: number; rpcUrl: string; contracts: Record<string, string>; currencies: Array<{ symbol: string; address: string; decimals: number }> }>;
  accounts: Array<{ address: Address; privateKey: Hex }>;
}

export interface CliProcess {
  /** The process started: the CLI itself, or the wrapper shell around it. */
  top: ChildProcess;
  /** The CLI's own node process. */
  cliPid: number;
  ready: CliReady;
}

/** Direct children of `pid` (with this exact program name, when given). */
export function childPidsOf(pid: number, name?: string): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), ...(name ? ['-x', name] : [])], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** Waits until every pid is gone; returns those still running after `ms`. */
export async function waitUntilGone(pids: readonly number[], ms = 20_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (pids.some(isProcessAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return pids.filter(isProcessAlive);
}

/** The V8 flags the bin's exec line gives node (`exec node --max-semi-space-size=4 "$0" "$@"`). */
function binNodeFlags(): string[] {
  const execLine = readFileSync('bin/intentsim.js', 'utf8').split('\n').find((line) => line.includes('exec node'));
  const flags = execLine && /exec node\s(.*?)\s*"\$0"/.exec(execLine)?.[1];
  if (flags === undefined) throw new Error('bin/intentsim.js: no `exec node <flags> "$0"` line to read its node flags from');
  return flags.split(' ').filter(Boolean);
}

/**
 * Starts `intentsim start --json --port 0 <args>` as a user does (the bin run as a program), as its own process (in its own
 * process group with `detached`), or through a wrapper shell (`sh -c '…; true'`, so node's parent
 * is the shell, as under npx), and resolves with its JSON line. `nodeArgs` go to node itself
 * (a benchmark's `--cpu-prof`): node then runs the bin as a script, with the V8 flags of the bin's
 * exec line before them (Node 20 refuses `--cpu-prof` in NODE_OPTIONS).
 */
export async function startCliProcess(params: { args: readonly string[]; viaWrapper?: boolean; detached?: boolean; nodeArgs?: readonly string[] }): Promise<CliProcess> {
  // the bin run as a program, as npx runs it (its first line execs node, same process, with the CLI's
  // V8 flags); with node arguments of a caller's own (a profile), node runs it with the same flags
  const cli = ['bin/intentsim.js', 'start', '--json', '--port', '0', ...params.args];
  const command = params.nodeArgs?.length ? [process.execPath, ...binNodeFlags(), ...params.nodeArgs, ...cli] : cli;
  const options = { stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], detached: params.detached ?? false };
  const top = params.viaWrapper ? spawn('/bin/sh', ['-c', `${command.map((a) => `'${a}'`).join(' ')}; true`], options) : spawn(command[0]!, command.slice(1), options);
  let stderr = '';
  top.stderr!.on('data', (chunk) => (stderr += chunk));
  const ready = await new Promise<CliReady>((resolve, reject) => {
    createInterface({ input: top.stdout! }).on('line', (line) => line.startsWith('{') && resolve(JSON.parse(line) as CliReady));
    top.once('exit', (code) => reject(new Error(`intentsim exited ${code} before it was ready: ${stderr.slice(-2000)}`)));
  });
  const cliPid = params.viaWrapper ? childPidsOf(top.pid!, 'node')[0]! : top.pid!;
  return { top, cliPid, ready };
}

export interface DepositStep {
  requestId: Hex;
  items: Array<{ data: { to: Address; data: Hex; value: string } }>;
}

/** Quotes a native bridge of 0.01 ETH from chain 1 to 8453 over HTTP (with the default key, so webhooks are sent). */
export async function quoteNativeBridge(ready: CliReady, user: Address, recipient: Address): Promise<DepositStep> {
  const response = await fetch(`${ready.baseUrl}/quote/v2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': ready.apiKey },
    body: JSON.stringify({ user, recipient, originChainId: 1, destinationChainId: 8453, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000', tradeType: 'EXACT_INPUT' }),
  });
  return ((await response.json()) as { steps: DepositStep[] }).steps[0]!;
}

/** Sends the deposit step's transaction on chain 1 of `ready` (the instance running now). */
export async function payDepositStep(ready: CliReady, privateKey: Hex, step: DepositStep): Promise<Hex> {
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey), transport: http(ready.chains.find((chain) => chain.id === 1)!.rpcUrl) });
  const item = step.items[0]!.data;
  return wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value), chain: null });
}

/** The request's status now (`GET /intents/status/v3`). */
export async function statusOf(baseUrl: string, requestId: string): Promise<{ status: string; txHashes: Hex[] }> {
  return (await (await fetch(`${baseUrl}/intents/status/v3?requestId=${requestId}`)).json()) as { status: string; txHashes: Hex[] };
}

/** Polls the status until the request settles (or `ms` pass). */
export async function waitUntilSettled(baseUrl: string, requestId: string, ms = 30_000): Promise<{ status: string; txHashes: Hex[] }> {
  const deadline = Date.now() + ms;
  for (;;) {
    const status = await statusOf(baseUrl, requestId);
    if (['success', 'failure', 'refund'].includes(status.status) || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * CLIs a test starts each in its own process group (`start`), to SIGKILL the whole group as a
 * crash does; `killAll` (in afterAll) ends every group still running.
 */
export function cliProcessGroups(): { start(args: readonly string[]): Promise<CliProcess>; killAll(): void } {
  const groups: number[] = [];
  return {
    async start(args) {
      const started = await startCliProcess({ args, detached: true });
      groups.push(started.top.pid!);
      return started;
    },
    killAll() {
      for (const pgid of groups.splice(0)) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}
