/**
 * Cold start: how long until the simulator is ready to serve, beside its floor in the same run.
 *
 * - library: `startSimulator({ port: 0 })` from the call until it resolves (then stopped, untimed).
 * - CLI: `bin/intentsim.js start --port 0 --json` (as npx runs it) from spawn until its first stdout line (the
 *   ready JSON); then SIGINT, wait for exit, and check that none of its Anvil children survive. The CPU
 *   the CLI's node process spent until then is read from /proc (the machine is shared: CPU moves less
 *   than wall time with the load).
 * - floor: one bare Anvil process (`anvil --host 127.0.0.1 --port 0`, the binary the simulator runs)
 *   from spawn until it prints that it listens on its port, then killed. A floor run goes right before
 *   each CLI run, so the ratio CLI / floor (medians; issue 36's target: ≤ 4) compares the same moments
 *   of a loaded machine.
 * Both starts start the default chains: the three EVM chains, the SVM chain, the BVM chain and the exchange.
 * Both run with the kept genesis on (docs/start.md, "The kept genesis"): a start after a source change
 * deploys the EVM contracts and keeps them, the next ones load them; the library (tsx) and the CLI (the
 * bundle) keep entries of their own (the key holds the deploying code's text). Warm the CLI once first.
 */
import { isProcessAlive } from '../../src/process/isProcessAlive';
import { resolveAnvilBinary } from '../../src/process/resolveAnvilBinary';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../../src/simulator';
import { formatMs, positiveIntFromEnv, summarize, type Summary } from './measure';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const READY_TIMEOUT_MS = 60_000;
/** Issue 36: the CLI's default start within 4× one bare Anvil process started to its port (medians, same run). */
export const COLD_START_OVER_BARE_ANVIL = 4;
const EXIT_TIMEOUT_MS = 15_000;
const ORPHAN_CHECK_TIMEOUT_MS = 5_000;

export interface ColdStartRun {
  readyMs: number;
  /** CLI only: SIGINT until the process exited. */
  shutdownMs?: number;
}

export interface ColdStartResult {
  runs: number;
  library: { readyMs: number[]; summary: Summary };
  cli: {
    readyMs: number[];
    summary: Summary;
    /** CPU (user + system) of the CLI's node process from its start until the ready line. */
    cpuMs: number[];
    cpuSummary: Summary;
    shutdownMs: number[];
    shutdownSummary: Summary;
    leftoverAnvilPids: number[];
  };
  /** One bare Anvil process from spawn until it listens on its port, run right before each CLI start. */
  bareAnvil: { readyMs: number[]; summary: Summary };
  /** CLI ready median / bare Anvil median. */
  cliOverBareAnvil: number;
  /** The 1-minute load average before and after the runs. */
  loadAverage: { before: number; after: number };
}

/** CLI children still running when this process exits get a SIGINT (they stop their own Anvils). */
const liveCliChildren = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveCliChildren) child.kill('SIGINT');
});

export async function benchColdStart(runs = 5, progress: (line: string) => void = () => {}): Promise<ColdStartResult> {
  const loadBefore = loadavg()[0]!;
  const libraryMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const sim = await startSimulator({ port: 0, log: () => {} });
    const elapsed = performance.now() - started;
    try {
      libraryMs.push(elapsed);
      progress(`  library start ${i + 1}/${runs}: ${formatMs(elapsed)}`);
    } finally {
      await sim.stop();
    }
  }

  const cliMs: number[] = [];
  const cliCpuMs: number[] = [];
  const shutdownMs: number[] = [];
  const leftoverAnvilPids: number[] = [];
  const bareMs: number[] = [];
  const anvilBinary = resolveAnvilBinary();
  for (let i = 0; i < runs; i++) {
    bareMs.push(await bareAnvilStartOnce(anvilBinary));
    const run = await cliColdStartOnce();
    cliMs.push(run.readyMs);
    cliCpuMs.push(run.cpuMs);
    shutdownMs.push(run.shutdownMs);
    leftoverAnvilPids.push(...run.leftoverAnvilPids);
    progress(`  CLI start ${i + 1}/${runs}: ${formatMs(run.readyMs)}, node CPU ${formatMs(run.cpuMs)} (shutdown ${formatMs(run.shutdownMs)}); bare Anvil just before: ${formatMs(bareMs.at(-1)!)}`);
  }

  const cli = summarize(cliMs);
  const bare = summarize(bareMs);
  return {
    runs,
    library: { readyMs: libraryMs, summary: summarize(libraryMs) },
    cli: { readyMs: cliMs, summary: cli, cpuMs: cliCpuMs, cpuSummary: summarize(cliCpuMs), shutdownMs, shutdownSummary: summarize(shutdownMs), leftoverAnvilPids },
    bareAnvil: { readyMs: bareMs, summary: bare },
    cliOverBareAnvil: cli.median / bare.median,
    loadAverage: { before: loadBefore, after: loadavg()[0]! },
  };
}

/** One bare Anvil process (the binary the simulator runs, its default flags): spawn until it listens on its port; then killed. */
async function bareAnvilStartOnce(binary: string): Promise<number> {
  const started = performance.now();
  const child = spawn(binary, ['--host', '127.0.0.1', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      let buffered = '';
      const timer = setTimeout(() => reject(new Error(`bare anvil did not listen within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        if (/Listening on \S+:\d+/.test(buffered)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error('bare anvil exited before it listened'));
      });
    });
    return performance.now() - started;
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

async function cliColdStartOnce(): Promise<{ readyMs: number; cpuMs: number; shutdownMs: number; leftoverAnvilPids: number[] }> {
  const started = performance.now();
  // the bin run as a program, as npx runs it (its first line execs node with the CLI's V8 flags)
  const child = spawn('bin/intentsim.js', ['start', '--port', '0', '--json'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveCliChildren.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });

  let anvilPids: number[] = [];
  try {
    const firstLine = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      const timer = setTimeout(() => reject(new Error(`CLI printed no ready line within ${READY_TIMEOUT_MS} ms; stderr:\n${stderr}`)), READY_TIMEOUT_MS);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const newline = buffered.indexOf('\n');
        if (newline >= 0) {
          clearTimeout(timer);
          resolve(buffered.slice(0, newline));
        }
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`CLI exited (${signal ?? code}) before printing its ready line; stderr:\n${stderr}`));
      });
    });
    const readyMs = performance.now() - started;
    const cpuMs = cpuMsOf(child.pid!);

    const ready = JSON.parse(firstLine) as { baseUrl?: unknown; chains?: Array<{ vmType?: string }> };
    if (typeof ready.baseUrl !== 'string' || !Array.isArray(ready.chains)) throw new Error(`unexpected ready line: ${firstLine}`);
    // one Anvil per EVM chain; the SVM, BVM and exchange ledgers run in-process
    const evmChains = ready.chains.filter((chain) => chain.vmType === 'evm').length;
    anvilPids = childPidsOf(child.pid!).filter((pid) => commandOf(pid).includes('anvil'));
    if (anvilPids.length !== evmChains) {
      throw new Error(`expected ${evmChains} anvil children of the CLI (one per EVM chain), found ${anvilPids.length}`);
    }

    const stopping = performance.now();
    child.kill('SIGINT');
    const exit = await withTimeout(exited, EXIT_TIMEOUT_MS, `CLI did not exit within ${EXIT_TIMEOUT_MS} ms of SIGINT`);
    const shutdownMs = performance.now() - stopping;
    if (exit.code !== 0) throw new Error(`CLI exited with ${exit.signal ?? exit.code} after SIGINT; stderr:\n${stderr}`);

    const leftover = await survivors(anvilPids, ORPHAN_CHECK_TIMEOUT_MS);
    return { readyMs, cpuMs, shutdownMs, leftoverAnvilPids: leftover };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      await withTimeout(exited, EXIT_TIMEOUT_MS, '').catch(() => {
        child.kill('SIGKILL');
      });
    }
    liveCliChildren.delete(child);
    // anything the CLI left behind was started by this benchmark: end it by pid
    for (const pid of await survivors(anvilPids, 0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** The pids among `pids` still alive after up to `timeoutMs`. */
async function survivors(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isProcessAlive);
    if (alive.length === 0 || performance.now() >= deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Direct children of `pid`, read from /proc (Linux). */
function childPidsOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // fields after "(comm)": state ppid ...
      const [, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === pid) children.push(Number(entry));
    } catch {
      // the process went away while listing
    }
  }
  return children;
}

/** User + system CPU a process has spent so far, in ms, read from /proc (Linux; clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after "(comm)": state ppid … utime (14th field) stime (15th)
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The cold-start figures as lines: both starts, the bare Anvil floor and the ratio, the CLI's CPU, the load. */
export function coldStartLines(result: ColdStartResult, targetOverBareAnvil: number, verdict: (pass: boolean) => string): string[] {
  const line = (label: string, s: Summary) => `${label} median ${formatMs(s.median)}  min ${formatMs(s.min)}  max ${formatMs(s.max)}`;
  return [
    `cold start (${result.runs} runs, the default start: all six chains; load average ${result.loadAverage.before.toFixed(1)} -> ${result.loadAverage.after.toFixed(1)})`,
    `  ${line('startSimulator()       ', result.library.summary)}`,
    `  ${line('CLI start --json       ', result.cli.summary)}   node CPU until ready median ${formatMs(result.cli.cpuSummary.median)}`,
    `  ${line('bare Anvil to its port ', result.bareAnvil.summary)}   (floor, run before each CLI start)`,
    `  CLI / bare Anvil        ${result.cliOverBareAnvil.toFixed(1)}x   target <= ${targetOverBareAnvil}x ${verdict(result.cliOverBareAnvil <= targetOverBareAnvil)}`,
    `  CLI SIGINT -> exit      median ${formatMs(result.cli.shutdownSummary.median)}  max ${formatMs(result.cli.shutdownSummary.max)}; leftover anvil processes: ${result.cli.leftoverAnvilPids.length}`,
  ];
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchColdStart(positiveIntFromEnv('BENCH_COLD_RUNS', 5), (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`${coldStartLines(result, COLD_START_OVER_BARE_ANVIL, (pass) => (pass ? 'PASS' : 'MISS')).join('\n')}\n`);
  process.exit(0);
}
