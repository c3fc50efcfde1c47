/**
 * Side by side: `BENCH_SIDE_BY_SIDE` simulators (default 8) started at once on this machine, as a
 * CI runner would (`intentsim start --json --port 0 --data-dir <its own temp dir>`, the default
 * start: all six chains), a native bridge (1 → 8453) run on each at the same time, then all stopped
 * with SIGINT.
 *
 * Per simulator: the start time (spawn → ready line, all starting together), the bridge's quote →
 * `success` time, and the memory of all its processes (the node process, its Anvils and any
 * helper: every descendant), as RSS (what the target is judged on) and PSS (shared pages split
 * between the processes that share them, so eight Anvils of one binary are not counted eight
 * times). After the stop: every one of those processes must be gone. The orphan watchdog must
 * cost no process: a `node` child of a simulator would be one (src/process/spawnDyingWithParent.ts).
 *
 * Alone: `npx tsx scripts/bench/sideBySide.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import { childPidsOf, cliProcessGroups, payDepositStep, quoteNativeBridge, waitUntilGone, waitUntilSettled, type CliProcess } from '../../test/support/cliProcess';
import { formatMs, positiveIntFromEnv, summarize, type Summary } from './measure';

export interface SideBySideSimulator {
  startMs: number;
  bridgeMs: number;
  bridgeStatus: string;
  /** RSS of every process of the simulator, MB. */
  rssMb: number;
  /** The node process alone, MB. */
  nodeRssMb: number;
  /** PSS of every process of the simulator, MB. */
  pssMb: number;
  /** Its processes by name (`node`, `anvil`, …). */
  processes: Record<string, number>;
  /** `node` processes below the simulator's own (a watchdog would be one). */
  helperNodeProcesses: number;
}

export interface SideBySideResult {
  count: number;
  simulators: SideBySideSimulator[];
  start: Summary;
  rssMb: Summary;
  pssMb: Summary;
  /** Every simulator ready → every one stopped, ms. */
  stopMs: number;
  /** Processes of the simulators still running after the stop. */
  leftovers: number[];
}

/** `pid` and every process below it. */
function processTree(pid: number): number[] {
  return [pid, ...childPidsOf(pid).flatMap(processTree)];
}

/** A `/proc/<pid>/<file>` field in kB (`VmRSS:` of status, `Pss:` of smaps_rollup); 0 when the process is gone. */
function procKb(pid: number, file: string, field: string): number {
  try {
    const line = readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
    return Number(line?.split(/\s+/)[1] ?? 0);
  } catch {
    return 0;
  }
}

function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

const mb = (kb: number) => Math.round(kb / 1024);

function memoryOf(top: number): Pick<SideBySideSimulator, 'rssMb' | 'nodeRssMb' | 'pssMb' | 'processes' | 'helperNodeProcesses'> {
  const tree = processTree(top);
  const processes: Record<string, number> = {};
  for (const pid of tree) processes[commOf(pid)] = (processes[commOf(pid)] ?? 0) + 1;
  return {
    rssMb: mb(tree.reduce((sum, pid) => sum + procKb(pid, 'status', 'VmRSS'), 0)),
    nodeRssMb: mb(procKb(top, 'status', 'VmRSS')),
    pssMb: mb(tree.reduce((sum, pid) => sum + procKb(pid, 'smaps_rollup', 'Pss'), 0)),
    processes,
    helperNodeProcesses: tree.slice(1).filter((pid) => commOf(pid) === 'node').length,
  };
}

async function bridgeOn(sim: CliProcess, index: number): Promise<{ ms: number; status: string }> {
  const account = sim.ready.accounts[1 + (index % 8)]!;
  const recipient = `0x${(0xb0b0 + index).toString(16).padStart(40, '0')}` as Address;
  const started = performance.now();
  const step = await quoteNativeBridge(sim.ready, account.address, recipient);
  await payDepositStep(sim.ready, account.privateKey, step);
  const settled = await waitUntilSettled(sim.ready.baseUrl, step.requestId, 120_000);
  return { ms: performance.now() - started, status: settled.status };
}

export async function benchSideBySide(count = 8, progress: (line: string) => void = () => {}): Promise<SideBySideResult> {
  const groups = cliProcessGroups();
  const dirs = Array.from({ length: count }, () => mkdtempSync(join(tmpdir(), 'intentsim-side-by-side-')));
  const killAll = () => groups.killAll();
  process.once('exit', killAll); // the bench interrupted: no simulator outlives it
  try {
    const started = await Promise.all(
      dirs.map(async (dir) => {
        const at = performance.now();
        const sim = await groups.start(['--data-dir', dir]);
        return { sim, startMs: performance.now() - at };
      }),
    );
    progress(`  ${count} simulators ready (slowest ${formatMs(Math.max(...started.map((s) => s.startMs)))})`);
    const bridges = await Promise.all(started.map(({ sim }, index) => bridgeOn(sim, index)));
    progress(`  ${count} bridges settled (${bridges.map((b) => b.status).join(', ')})`);
    const simulators = started.map(({ sim, startMs }, index) => ({ startMs, bridgeMs: bridges[index]!.ms, bridgeStatus: bridges[index]!.status, ...memoryOf(sim.cliPid) }));

    const pids = started.flatMap(({ sim }) => processTree(sim.cliPid));
    const stopping = performance.now();
    const exits = started.map(({ sim }) => new Promise<void>((resolve) => (sim.top.exitCode !== null ? resolve() : sim.top.once('exit', () => resolve()))));
    for (const { sim } of started) sim.top.kill('SIGINT');
    await Promise.all(exits);
    const leftovers = await waitUntilGone(pids, 10_000);
    const stopMs = performance.now() - stopping;
    return {
      count,
      simulators,
      start: summarize(simulators.map((s) => s.startMs)),
      rssMb: summarize(simulators.map((s) => s.rssMb)),
      pssMb: summarize(simulators.map((s) => s.pssMb)),
      stopMs,
      leftovers,
    };
  } finally {
    killAll();
    process.removeListener('exit', killAll);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** The report's lines; `targetMb` is one simulator's memory target (all its processes, RSS). */
export function sideBySideLines(result: SideBySideResult, targetMb: number, verdict: (pass: boolean) => string): string[] {
  const worst = Math.max(...result.simulators.map((s) => s.rssMb));
  const helpers = result.simulators.reduce((sum, s) => sum + s.helperNodeProcesses, 0);
  const failed = result.simulators.filter((s) => s.bridgeStatus !== 'success').length;
  const kinds = Object.entries(result.simulators[0]?.processes ?? {}).map(([name, n]) => `${n} ${name}`).join(' + ');
  return [
    `side by side: ${result.count} simulators started at once, all six chains each (${kinds} per simulator)`,
    `  start (spawn -> ready, together)  median ${formatMs(result.start.median)}  min ${formatMs(result.start.min)}  max ${formatMs(result.start.max)}`,
    `  native bridge on each, together   ${result.count - failed}/${result.count} success, median ${formatMs(summarize(result.simulators.map((s) => s.bridgeMs)).median)}`,
    `  memory per simulator, RSS         median ${result.rssMb.median} MB  max ${worst} MB (node alone: median ${summarize(result.simulators.map((s) => s.nodeRssMb)).median} MB); PSS median ${result.pssMb.median} MB   target <= ${targetMb} MB each ${verdict(worst <= targetMb)}`,
    `  watchdog processes ${helpers}; stopped in ${formatMs(result.stopMs)}; left running ${result.leftovers.length}   ${verdict(helpers === 0 && result.leftovers.length === 0 && failed === 0)}`,
    ...result.simulators.map((s, i) => `    #${i + 1} start ${formatMs(s.startMs)}  bridge ${formatMs(s.bridgeMs)} ${s.bridgeStatus}  RSS ${s.rssMb} MB (node ${s.nodeRssMb} MB)  PSS ${s.pssMb} MB`),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  benchSideBySide(positiveIntFromEnv('BENCH_SIDE_BY_SIDE', 8), progress).then(
    (result) => {
      process.stdout.write(`${sideBySideLines(result, 200, (pass) => (pass ? 'PASS' : 'MISS')).join('\n')}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`side by side failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
