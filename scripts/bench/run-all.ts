/**
 * `npm run bench`: cold start and bridge latency, reported against the speed targets.
 *
 * Targets are reported (PASS/MISS), never enforced: a miss still exits 0. Only a benchmark that
 * could not run at all (an exception) exits 1. Figures also go to bench-results/latest.json.
 *
 * Options (environment): BENCH_COLD_RUNS (default 5), BENCH_BRIDGE_ITERATIONS (default 30),
 * BENCH_QUOTE_COUNT (default 1000), BENCH_FUZZ_COUNT (default 10000), BENCH_FUZZ_SEED (default 1),
 * BENCH_LOAD_SECONDS (default 3), BENCH_LISTING_STORED (default 100000), BENCH_RSS_QUOTES (default 30000),
 * BENCH_CHAOS_ITERATIONS (default 12), BENCH_CHAOS_SEED (default 1), BENCH_PROPERTY_RUNS (default 200),
 * BENCH_PROPERTY_SEED (default 1), BENCH_GASLESS_ITERATIONS (default 20), BENCH_SVM_TRANSFERS (default 1000),
 * BENCH_SVM_BRIDGES (default 20), BENCH_SVM_RESTART_TRANSACTIONS (default 1000), BENCH_BVM_TRANSACTIONS (default 2000), BENCH_LVM_TRANSFERS (default 1000), BENCH_EVM_FRONT_CALLS (default 200),
 * BENCH_SIDE_BY_SIDE (simulators started at once, default 8), BENCH_FORK_RUNS (default BENCH_COLD_RUNS), BENCH_WORLD_REVERT_RUNS (default 20), BENCH_WORLD_REQUESTS (default 300), BENCH_NPM_TEST=1 (run `npm test` and record its time;
 * without it the last recorded run is read, see npmTestTime.ts).
 *
 * BENCH_ONLY=<section> runs one section alone (the machine is often shared): its lines are printed and its
 * figures go to bench-results/<section>.json, latest.json untouched. Sections: see `SECTIONS_RUN_ALONE`;
 * `BENCH_ONLY=floors` measures just issue 36's figures, each beside its floor, and prints their table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchBridge, type BridgeResult } from './bridgeLatency';
import { benchGaslessBridge, gaslessBridgeLines, type GaslessBridgeResult } from './gaslessBridge';
import { benchColdStart, coldStartLines, type ColdStartResult } from './coldStart';
import { benchQuoteLatency, type QuoteLatencyResult } from './quoteLatency';
import { benchFuzz, benchOpenApiFuzz, type FuzzResult } from './fuzz';
import { benchHotPathRows, benchLoad, statusOverFloor, type LoadResult } from './load';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCrashHarness, type CrashHarnessResult } from '../chaos/crashHarness';
import { benchProperty, type PropertyResult } from './property';
import { benchScenarioLibrary, type ScenarioLibraryResult } from './scenarioLibrary';
import { benchConformance, type ConformanceBenchResult } from './conformance';
import { benchLvmRestart, benchNonEvmChains, formatLvmRestart, type NonEvmChainsResult } from './nonEvmChains';
import { benchBvm, formatBvmBench } from './bvm';
import { benchEvmFront, evmFrontLines } from './evmFront';
import { formatMs, percentile, positiveIntFromEnv, rounded } from './measure';
import { benchSideBySide, sideBySideLines, type SideBySideResult } from './sideBySide';
import { measureNpmTest, npmTestLine, recordedNpmTest, type NpmTestTime } from './npmTestTime';
import { issueTargetFigures, targetTableLines } from './targetTable';
import { floorFigures, floorMeasurementsFrom, floorTableLines } from './floorTable';
import { startCliProcess } from '../../test/support/cliProcess';
import { benchFork, forkBenchLines, type ForkBenchResult } from './fork';
import { benchWorldRevert, worldRevertLines, type WorldRevertResult } from './worldRevert';

/** The speed targets (issue 24's table). They live here only — never in tests (docs/testing.md). */
export const TARGETS = {
  /** `intentsim start --json` ready, median of BENCH_COLD_RUNS; the default start, all six chains. */
  cliStartMs: 1000,
  /** `startSimulator()` ready with all six chains, median. */
  libraryStartMs: 600,
  /** Issue 36: the CLI's default start / one bare Anvil process started to its port, medians of the same run. */
  cliStartOverBareAnvil: 4,
  /** Native bridge e2e / floor (two transfers, same run). */
  e2eOverFloor: 1.25,
  /** EVM → SVM bridge e2e / floor. */
  evmToSvmOverFloor: 2.5,
  /** The gasless bridge's e2e / floor: not in issue 24's table, so its earlier target stays. */
  gaslessE2eOverFloor: 3,
  /** POST /quote/v2 p99, sequential. */
  quoteP99Ms: 10,
  /** POST /quote/v2 p99 at 8 connections. */
  quoteP99At8Ms: 10,
  /** POST /quote/v2 p99 at 64 connections: overload queues, it does not collapse. */
  quoteP99At64Ms: 250,
  /** GET /intents/status/v3 throughput at 8 connections. */
  statusAt8RequestsPerSecond: 5000,
  /** GET /intents/status/v3 at 8 connections over a bare node:http server answering the same bytes, same run (issue 36). */
  statusOverBareHttp: 0.6,
  /** `npm test` wall time, a clean run (measured with BENCH_NPM_TEST=1, else the last recorded run). */
  npmTestSeconds: 120,
  /** A world revert (`sim.revert(kept)`), six chains and a few hundred stored requests, median (issue 36; its floor, one Anvil `evm_revert`, printed beside it). */
  worldRevertMs: 20,
  /** One simulator's memory, every process (node + Anvils + helpers), RSS, with eight side by side. */
  simulatorMemoryMb: 200,
  /** The whole scenario library, `intentsim scenario run scenarios/`. */
  scenarioLibrarySeconds: 60,
  /** One GET /requests/v3 page over 100,000 stored requests. */
  listingPageP99Ms: 50,
  /** Issue 35: `startSimulator()` with chain 1, Solana and Bitcoin forked / the same chains unforked, medians. */
  forkStartOverUnforked: 3,
} as const;

const resultsDir = fileURLToPath(new URL('../../bench-results/', import.meta.url));


const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

/** The fork section's figures for the JSON report, rounded. */
function forkJson(fork: ForkBenchResult) {
  const reads = Object.fromEntries(Object.entries(fork.reads).map(([kind, read]) => [kind, { first: rounded(read.first), floor: rounded(read.floor), ratio: Math.round(read.ratio * 100) / 100 }]));
  return {
    runs: fork.runs,
    start: { chainIds: fork.start.chainIds, forked: rounded(fork.start.forked), unforked: rounded(fork.start.unforked), ratio: Math.round(fork.start.ratio * 100) / 100 },
    reads,
    target: { forkStartOverUnforked: TARGETS.forkStartOverUnforked, pass: fork.start.ratio <= TARGETS.forkStartOverUnforked },
  };
}

/** The world revert section's measurement (BENCH_WORLD_REVERT_RUNS, BENCH_WORLD_REQUESTS). */
async function measureWorldRevert(progress: (line: string) => void): Promise<WorldRevertResult> {
  const runs = positiveIntFromEnv('BENCH_WORLD_REVERT_RUNS', 20);
  const requests = positiveIntFromEnv('BENCH_WORLD_REQUESTS', 300);
  progress(`world revert: ${runs} reverts with ${requests} stored requests`);
  return benchWorldRevert({ runs, requests }, progress);
}

/** The world revert section's lines and JSON figures. */
function worldRevertReport(world: WorldRevertResult): { lines: string[]; json: unknown } {
  const tenth = (ms: number) => Math.round(ms * 10) / 10;
  return {
    lines: worldRevertLines(world, TARGETS.worldRevertMs, verdict),
    json: { targetMs: TARGETS.worldRevertMs, medianMs: tenth(world.revert.median), floorMs: tenth(world.floor.median), ratio: tenth(world.ratio), cpuMs: tenth(world.revertCpuMs), loadAverage: tenth(world.loadAverage), pass: world.revert.median <= TARGETS.worldRevertMs },
  };
}

/** The sections `BENCH_ONLY` can run alone: each prints its own lines and returns its JSON figures. */
const SECTIONS_RUN_ALONE: Record<string, (progress: (line: string) => void) => Promise<{ lines: string[]; json: unknown }>> = {
  coldStart: async (progress) => {
    const runs = positiveIntFromEnv('BENCH_COLD_RUNS', 5);
    progress(`cold start: ${runs} runs each (a bare Anvil start before each CLI start)`);
    const cold = await benchColdStart(runs, progress);
    const tenth = (ms: number) => Math.round(ms * 10) / 10;
    return {
      lines: coldStartLines(cold, TARGETS.cliStartOverBareAnvil, verdict),
      json: {
        libraryMedianMs: tenth(cold.library.summary.median),
        cliMedianMs: tenth(cold.cli.summary.median),
        cliCpuMedianMs: tenth(cold.cli.cpuSummary.median),
        bareAnvilMedianMs: tenth(cold.bareAnvil.summary.median),
        ratio: tenth(cold.cliOverBareAnvil),
        loadAverage: cold.loadAverage,
        target: { cliStartOverBareAnvil: TARGETS.cliStartOverBareAnvil, pass: cold.cliOverBareAnvil <= TARGETS.cliStartOverBareAnvil },
      },
    };
  },
  fork: async (progress) => {
    const runs = positiveIntFromEnv('BENCH_FORK_RUNS', positiveIntFromEnv('BENCH_COLD_RUNS', 5));
    progress(`fork: ${runs} forked and unforked starts, first reads per chain kind`);
    const fork = await benchFork(runs, progress);
    return { lines: forkBenchLines(fork, TARGETS.forkStartOverUnforked, verdict), json: forkJson(fork) };
  },
  floors: async (progress) => {
    const runs = positiveIntFromEnv('BENCH_COLD_RUNS', 5);
    progress(`floors: the CLI start beside a bare Anvil start (${runs} runs)`);
    const cold = await benchColdStart(runs, progress);
    const worldRevert = await measureWorldRevert(progress);
    progress('floors: status and quotes at 8 connections, the status beside a bare node:http server');
    const { top: child, ready: sim } = await startCliProcess({ args: [] });
    let loadRows;
    try {
      loadRows = await benchHotPathRows(sim, positiveIntFromEnv('BENCH_LOAD_SECONDS', 3), progress, { connectionCounts: [8], simPid: child.pid });
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    const bridgeIterations = positiveIntFromEnv('BENCH_BRIDGE_ITERATIONS', 20);
    progress(`floors: ${bridgeIterations} bridges beside two plain transfers each`);
    const bridge = await benchBridge(bridgeIterations, progress);
    const figures = floorFigures(floorMeasurementsFrom({ cold, worldRevert, loadRows, bridge, npmTest: recordedNpmTest() }), TARGETS);
    return { lines: [`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`, ...floorTableLines(figures, verdict)], json: figures };
  },
  worldRevert: async (progress) => worldRevertReport(await measureWorldRevert(progress)),
};

/** `BENCH_ONLY=<section>`: that section alone, its figures in bench-results/<section>.json. */
async function runOneSection(name: string, progress: (line: string) => void): Promise<void> {
  const section = SECTIONS_RUN_ALONE[name];
  if (!section) throw new Error(`BENCH_ONLY=${name}: no such section (sections run alone: ${Object.keys(SECTIONS_RUN_ALONE).join(', ')})`);
  const { lines, json } = await section(progress);
  process.stdout.write(`${['', `== intentsim bench (BENCH_ONLY=${name}) ==`, ...lines, ''].join('\n')}\n`);
  mkdirSync(resultsDir, { recursive: true });
  const file = `${resultsDir}${name}.json`;
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length }, [name]: json }, null, 2)}\n`);
  process.stdout.write(`figures written to ${file}\n`);
}

function report(
  cold: ColdStartResult,
  bridge: BridgeResult,
  quotes: QuoteLatencyResult,
  fuzz: FuzzResult,
  load: LoadResult,
  chaos: CrashHarnessResult,
  property: PropertyResult,
  scenarios: ScenarioLibraryResult,
  conformance: ConformanceBenchResult,
  gasless: GaslessBridgeResult,
  nonEvm: NonEvmChainsResult,
  sideBySide: SideBySideResult,
  npmTest: NpmTestTime | undefined,
): { lines: string[]; closing: string[]; targets: Record<string, unknown> } {
  const lib = cold.library.summary;
  const cli = cold.cli.summary;
  const b = bridge.breakdown;
  const coldLibPass = lib.median <= TARGETS.libraryStartMs;
  const coldCliPass = cli.median <= TARGETS.cliStartMs;
  const ratioPass = bridge.ratio <= TARGETS.e2eOverFloor;
  const quotePass = quotes.p99 <= TARGETS.quoteP99Ms;
  const lines = [
    '',
    '== intentsim bench ==',
    `cold start (${cold.runs} runs, the default start: all six chains)`,
    `  startSimulator()        median ${formatMs(lib.median)}  min ${formatMs(lib.min)}  max ${formatMs(lib.max)}   target median <= ${formatMs(TARGETS.libraryStartMs)} ${verdict(coldLibPass)}`,
    `  CLI start --json        median ${formatMs(cli.median)}  min ${formatMs(cli.min)}  max ${formatMs(cli.max)}   target median <= ${formatMs(TARGETS.cliStartMs)} ${verdict(coldCliPass)}`,
    ...coldStartLines(cold, TARGETS.cliStartOverBareAnvil, verdict).slice(3, 5),
    `  CLI SIGINT -> exit      median ${formatMs(cold.cli.shutdownSummary.median)}  max ${formatMs(cold.cli.shutdownSummary.max)}; leftover anvil processes: ${cold.cli.leftoverAnvilPids.length}`,
    `bridge native 1 -> 8453 (${bridge.iterations} iterations after warm-up, target e2e/floor <= ${TARGETS.e2eOverFloor}x)`,
    `  e2e (quote -> success)  median ${formatMs(bridge.e2e.median)}  p90 ${formatMs(bridge.e2e.p90)}  min ${formatMs(bridge.e2e.min)}  max ${formatMs(bridge.e2e.max)}`,
    `  floor (2 transfers)     median ${formatMs(bridge.floor.median)}  p90 ${formatMs(bridge.floor.p90)}  (one transfer: median ${formatMs(bridge.singleTransfer.median)})`,
    `  ratio e2e/floor         ${bridge.ratio.toFixed(2)}x   ${verdict(ratioPass)}`,
    `  breakdown (medians)     quote ${formatMs(b.quoteMs)} | deposit->receipt ${formatMs(b.depositToReceiptMs)} | receipt->success ${formatMs(b.receiptToSuccessMs)}`,
    `  from request events     receipt->pending ${formatMs(b.receiptToPendingMs)} | pending->submitted ${formatMs(b.pendingToSubmittedMs)} | submitted->success ${formatMs(b.submittedToSuccessMs)} | success->seen ${formatMs(b.successToSeenMs)} | status polls ${b.statusPolls}`,
    ...gaslessBridgeLines(gasless, TARGETS.gaslessE2eOverFloor),
    `POST /quote/v2 latency (${quotes.count} sequential quotes after warm-up, target p99 <= ${formatMs(TARGETS.quoteP99Ms)})`,
    `  p50 ${formatMs(quotes.p50)}  p90 ${formatMs(quotes.summary.p90)}  p99 ${formatMs(quotes.p99)}  min ${formatMs(quotes.summary.min)}  max ${formatMs(quotes.summary.max)}   ${verdict(quotePass)}`,
    `fuzz (every input route and the websocket; target: 0 answers that are 5xx, a 4xx without errorCode, or not in the OpenAPI documents)`,
    `  ${fuzz.httpInputs} HTTP inputs + ${fuzz.websocketBatches} websocket batches in ${fuzz.seconds.toFixed(1)} s: ${fuzz.failures.length} failures   ${verdict(fuzz.failures.length === 0)}`,
    ...fuzz.failures.slice(0, 10).map((failure) => `    ${failure.slice(0, 300)}`),
    `load on loopback (autocannon; targets: quote p99 <= ${formatMs(TARGETS.quoteP99At8Ms)} at 8 connections, <= ${formatMs(TARGETS.quoteP99At64Ms)} at 64; status >= ${TARGETS.statusAt8RequestsPerSecond} req/s at 8)`,
    ...load.rows.map((r) => `  ${r.route.padEnd(24)} ${String(r.connections).padStart(2)} conn  ${String(r.requestsPerSecond).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms${r.cpuMsPerRequest === undefined ? '' : `  cpu ${r.cpuMsPerRequest} ms/req`}${r.non2xx ? `  non-2xx ${r.non2xx}` : ''}${loadVerdict(r)}`),
    ...statusOverFloor(load.rows).map(({ connections, ratio }) => `  status / its floor (a bare node:http server, the same bytes) at ${connections} connections: ${ratio.toFixed(2)}`),
    `GET /requests/v3 over ${load.listing.stored} stored requests (60 sequential pages each, target p99 <= ${formatMs(TARGETS.listingPageP99Ms)})`,
    ...load.listing.queries.map((q) => `  ${q.name.padEnd(28)} p50 ${formatMs(q.p50Ms)}  p99 ${formatMs(q.p99Ms)}   ${verdict(q.p99Ms <= TARGETS.listingPageP99Ms)}`),
    `RSS of the simulator's process: ${load.rss.beforeMb} MB before, ${load.rss.afterMb} MB after ${load.rss.quotes} more quotes`,
    `crash harness (${chaos.kills.length} seeded SIGKILLs, each followed by a restart on the same database; target 0 problems, 0 leftovers, restart <= 2 s)`,
    ...(['group', 'node', 'wrapper'] as const).map((kind) => {
      const kills = chaos.kills.filter((kill) => kill.kind === kind);
      const at = [...new Set(kills.map((kill) => `${kill.point}→${kill.statusWhenKilled}`))].join(', ');
      const hooks = kills.filter((kill) => kill.webhooksInFlight).length;
      return `  ${kind.padEnd(8)} ${kills.length} kills (kill point→request status: ${at || '-'}; ${hooks} with a webhook in flight)`;
    }),
    `  requests ${chaos.requests}, problems ${chaos.problems.length}, leftover processes ${chaos.leftovers.length}, success webhooks missing ${chaos.webhooksMissing.length}   ${verdict(chaos.problems.length === 0 && chaos.leftovers.length === 0 && chaos.webhooksMissing.length === 0)}`,
    ...chaos.problems.slice(0, 10).map((problem) => `    ${problem}`),
    `  restart to ready: median ${formatMs(percentile(chaos.restartMs, 50))}  max ${formatMs(Math.max(...chaos.restartMs))}   ${verdict(Math.max(...chaos.restartMs) <= 2000)}`,
    `model-based property (test/property/requestLifecycle.test.ts; target: every invariant holds)`,
    `  ${property.runs} random sequences of up to 8 commands from seed ${property.seed} in ${property.seconds.toFixed(1)} s   ${verdict(property.passed)}`,
    ...(property.failure ? [`    the shrunk sequence and its scenario file: bench-results/property-failure.txt`] : []),
    `scenario library (intentsim scenario run scenarios/, one process; target wall time <= ${TARGETS.scenarioLibrarySeconds} s)`,
    `  ${scenarios.scenarios} scenarios, ${scenarios.failed} failed, ${(scenarios.wallMs / 1000).toFixed(1)} s, ${scenarios.scenariosPerSecond.toFixed(2)} scenarios/s   ${verdict(scenarios.failed === 0 && scenarios.wallMs / 1000 <= TARGETS.scenarioLibrarySeconds)}`,
    `conformance suite against the simulator (intentsim conformance; target: every check passes)`,
    ...(['readOnly', 'full'] as const).map((mode) => {
      const run = conformance[mode];
      return `  ${(mode === 'readOnly' ? 'read-only' : 'full').padEnd(10)} ${run.checks} checks: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped in ${run.seconds.toFixed(1)} s   ${verdict(run.failed === 0)}`;
    }),
    `non-EVM chains`,
    `  SVM transfers (embedded LiteSVM, over our JSON-RPC)   ${nonEvm.svmTransfers.perSecond.toFixed(0)}/s over ${nonEvm.svmTransfers.count}; latency median ${formatMs(nonEvm.svmTransfers.latency.median)}  p90 ${formatMs(nonEvm.svmTransfers.latency.p90)}`,
    `  EVM -> SVM bridge (USDC 8453 -> USDC, ${nonEvm.evmToSvm.iterations} iterations)  e2e median ${formatMs(nonEvm.evmToSvm.e2e.median)}, floor (EVM + SVM transfer) ${formatMs(nonEvm.evmToSvm.floor.median)}, ratio ${nonEvm.evmToSvm.ratio.toFixed(2)}x   target <= ${TARGETS.evmToSvmOverFloor}x ${verdict(nonEvm.evmToSvm.ratio <= TARGETS.evmToSvmOverFloor)}`,
    `  cold start, chains ${nonEvm.coldStartEveryChain.chainIds.join(',')}: startSimulator() median ${formatMs(nonEvm.coldStartEveryChain.summary.median)}  max ${formatMs(nonEvm.coldStartEveryChain.summary.max)}   target median <= ${formatMs(TARGETS.libraryStartMs)} ${verdict(nonEvm.coldStartEveryChain.summary.median <= TARGETS.libraryStartMs)}`,
    `  SVM restart on --db, ${nonEvm.svmRestart.transactions} journaled transactions: startSimulator() median ${formatMs(nonEvm.svmRestart.restart.median)}  max ${formatMs(nonEvm.svmRestart.restart.max)}; fresh database ${formatMs(nonEvm.svmRestart.freshStart.median)}`,
    ...sideBySideLines(sideBySide, TARGETS.simulatorMemoryMb, verdict),
    npmTestLine(npmTest, TARGETS.npmTestSeconds, verdict),
    '',
  ];
  const figures = issueTargetFigures({ cold, bridge, quotes, load, nonEvm, sideBySide, npmTest }, TARGETS);
  return {
    lines,
    targets: {
      coldStartLibrary: { targetMs: TARGETS.libraryStartMs, medianMs: Math.round(lib.median * 10) / 10, pass: coldLibPass },
      coldStartCli: { targetMs: TARGETS.cliStartMs, medianMs: Math.round(cli.median * 10) / 10, pass: coldCliPass },
      coldStartCliOverBareAnvil: { target: TARGETS.cliStartOverBareAnvil, bareAnvilMedianMs: Math.round(cold.bareAnvil.summary.median * 10) / 10, ratio: Math.round(cold.cliOverBareAnvil * 10) / 10, pass: cold.cliOverBareAnvil <= TARGETS.cliStartOverBareAnvil },
      e2eOverFloor: { target: TARGETS.e2eOverFloor, ratio: Math.round(bridge.ratio * 100) / 100, pass: ratioPass },
      gaslessE2eOverFloor: { target: TARGETS.gaslessE2eOverFloor, ratio: Math.round(gasless.ratio * 100) / 100, pass: gasless.ratio <= TARGETS.gaslessE2eOverFloor },
      quoteP99: { targetMs: TARGETS.quoteP99Ms, p99Ms: Math.round(quotes.p99 * 10) / 10, pass: quotePass },
      fuzzFailures: { target: 0, failures: fuzz.failures.length, inputs: fuzz.httpInputs, pass: fuzz.failures.length === 0 },
      listingPageP99: { targetMs: TARGETS.listingPageP99Ms, worstP99Ms: Math.round(Math.max(...load.listing.queries.map((q) => q.p99Ms)) * 10) / 10 },
      property: { runs: property.runs, seed: property.seed, pass: property.passed },
      issue24: figures,
    },
    closing: targetTableLines(figures, verdict),
  };
}

/** PASS/MISS of the load rows that have a target: quote p99 at 8 and 64 connections, status throughput at 8. */
function loadVerdict(row: LoadResult['rows'][number]): string {
  if (row.route.startsWith('POST') && row.connections === 8) return `   ${verdict(row.p99Ms <= TARGETS.quoteP99At8Ms)}`;
  if (row.route.startsWith('POST') && row.connections === 64) return `   ${verdict(row.p99Ms <= TARGETS.quoteP99At64Ms)}`;
  if (row.route.startsWith('GET /intents/status') && row.connections === 8) return `   ${verdict(row.requestsPerSecond >= TARGETS.statusAt8RequestsPerSecond)}`;
  return '';
}

async function main(): Promise<void> {
  // Ctrl-C: exit through process.exit so the child-process safety nets (Anvil, CLI) run.
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));

  const coldRuns = positiveIntFromEnv('BENCH_COLD_RUNS', 5);
  const iterations = positiveIntFromEnv('BENCH_BRIDGE_ITERATIONS', 30);
  const quoteCount = positiveIntFromEnv('BENCH_QUOTE_COUNT', 1000);
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const only = process.env.BENCH_ONLY;
  if (only !== undefined && only !== '') return runOneSection(only, progress);

  progress(`cold start: ${coldRuns} runs each`);
  const cold = await benchColdStart(coldRuns, progress);
  progress(`bridge latency: ${iterations} iterations`);
  const bridge = await benchBridge(iterations, progress);
  const gaslessIterations = positiveIntFromEnv('BENCH_GASLESS_ITERATIONS', 20);
  progress(`gasless bridge latency: ${gaslessIterations} iterations`);
  const gasless = await benchGaslessBridge(gaslessIterations, progress);
  progress(`quote latency: ${quoteCount} quotes`);
  const quotes = await benchQuoteLatency(quoteCount, progress);
  const fuzzCount = positiveIntFromEnv('BENCH_FUZZ_COUNT', 10_000);
  progress(`fuzz: ${fuzzCount} inputs`);
  const fuzz = await benchFuzz(fuzzCount, positiveIntFromEnv('BENCH_FUZZ_SEED', 1), progress);
  const openApiFuzzCount = positiveIntFromEnv('BENCH_OPENAPI_FUZZ_COUNT', 40);
  progress(`OpenAPI fuzz: ${openApiFuzzCount} valid and ${openApiFuzzCount} invalid requests per operation`);
  const openApiFuzz = await benchOpenApiFuzz(openApiFuzzCount, positiveIntFromEnv('BENCH_FUZZ_SEED', 1), progress);

  progress('load: status and quote at 1/8/64 connections, listing over stored requests, RSS');
  const load = await benchLoad(
    {
      seconds: positiveIntFromEnv('BENCH_LOAD_SECONDS', 3),
      storedRequests: positiveIntFromEnv('BENCH_LISTING_STORED', 100_000),
      quotes: positiveIntFromEnv('BENCH_RSS_QUOTES', 30_000),
    },
    progress,
  );

  const chaosIterations = positiveIntFromEnv('BENCH_CHAOS_ITERATIONS', 12);
  progress(`crash harness: ${chaosIterations} seeded kills`);
  const chaosDir = mkdtempSync(join(tmpdir(), 'intentsim-chaos-'));
  const chaos = await runCrashHarness({ dir: chaosDir, iterations: chaosIterations, seed: positiveIntFromEnv('BENCH_CHAOS_SEED', 1), maxKillDelayMs: 60, log: progress }).finally(() =>
    rmSync(chaosDir, { recursive: true, force: true }),
  );

  const propertyRuns = positiveIntFromEnv('BENCH_PROPERTY_RUNS', 200);
  progress(`model-based property: ${propertyRuns} runs`);
  const property = await benchProperty(propertyRuns, positiveIntFromEnv('BENCH_PROPERTY_SEED', 1), progress);

  progress('scenario library');
  const scenarios = await benchScenarioLibrary();

  progress('conformance suite: read-only, then full');
  const conformance = await benchConformance(progress);

  progress('non-EVM chains: SVM transfers, EVM -> SVM bridge, cold start with every chain');
  const nonEvm = await benchNonEvmChains(
    {
      transfers: positiveIntFromEnv('BENCH_SVM_TRANSFERS', 1000),
      bridges: positiveIntFromEnv('BENCH_SVM_BRIDGES', 20),
      coldRuns: coldRuns,
      restartTransactions: positiveIntFromEnv('BENCH_SVM_RESTART_TRANSACTIONS', 1000),
    },
    progress,
  );

  const bvmTransactions = positiveIntFromEnv('BENCH_BVM_TRANSACTIONS', 2000);
  progress(`BVM ledger: ${bvmTransactions} signed transactions`);
  const bvm = benchBvm(bvmTransactions, progress, positiveIntFromEnv('BENCH_BVM_RESTART_TRANSACTIONS', 1000));

  const lvmTransfers = positiveIntFromEnv('BENCH_LVM_TRANSFERS', 1000);
  progress(`exchange restart: ${lvmTransfers} journaled transfers`);
  const lvmRestart = await benchLvmRestart({ transfers: lvmTransfers, runs: coldRuns }, progress);

  const frontCalls = positiveIntFromEnv('BENCH_EVM_FRONT_CALLS', 200);
  progress(`EVM front: ${frontCalls} reads and transfers, direct and through the front`);
  const evmFront = await benchEvmFront(frontCalls);

  const sideBySideCount = positiveIntFromEnv('BENCH_SIDE_BY_SIDE', 8);
  progress(`side by side: ${sideBySideCount} simulators at once, a bridge on each`);
  const sideBySide = await benchSideBySide(sideBySideCount, progress);

  const fork = await SECTIONS_RUN_ALONE.fork!(progress);
  const worldRevertResult = await measureWorldRevert(progress);
  const worldRevert = worldRevertReport(worldRevertResult);

  let npmTest = recordedNpmTest();
  if (process.env.BENCH_NPM_TEST === '1') {
    progress('npm test (BENCH_NPM_TEST=1)');
    npmTest = await measureNpmTest();
  }

  const { lines, closing, targets } = report(cold, bridge, quotes, fuzz, load, chaos, property, scenarios, conformance, gasless, nonEvm, sideBySide, npmTest);
  lines.splice(
    lines.length - 1,
    0,
    'OpenAPI fuzz (requests generated from GET /openapi.json and /admin/openapi.json; target: 0 answers that contradict them, 0 5xx)',
    `  ${openApiFuzz.requests} requests (${openApiFuzz.validRequests} valid, ${openApiFuzz.invalidRequests} invalid) on ${openApiFuzz.operations} operations in ${openApiFuzz.seconds.toFixed(1)} s: ${openApiFuzz.problems.length} problems   ${verdict(openApiFuzz.problems.length === 0)}`,
    ...openApiFuzz.problems.slice(0, 10).map((problem) => `    ${problem.slice(0, 300)}`),
  );
  lines.splice(lines.length - 1, 0, ...evmFrontLines(evmFront, formatMs));
  lines.splice(lines.length - 1, 0, formatBvmBench(bvm));
  lines.splice(lines.length - 1, 0, formatLvmRestart(lvmRestart));
  lines.splice(lines.length - 1, 0, ...fork.lines);
  lines.splice(lines.length - 1, 0, ...worldRevert.lines);
  targets.worldRevert = worldRevert.json;
  const floors = floorFigures(floorMeasurementsFrom({ cold, worldRevert: worldRevertResult, loadRows: load.rows, bridge, npmTest }), TARGETS);
  targets.issue36 = floors;
  lines.push(...floorTableLines(floors, verdict), '', ...closing, '');
  process.stdout.write(lines.join('\n'));

  const roundMs = (values: number[]) => values.map((v) => Math.round(v * 10) / 10);
  const json = {
    at: new Date().toISOString(),
    machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length },
    targets,
    coldStart: {
      runs: cold.runs,
      library: { summary: rounded(cold.library.summary), readyMs: roundMs(cold.library.readyMs) },
      cli: {
        summary: rounded(cold.cli.summary),
        readyMs: roundMs(cold.cli.readyMs),
        shutdown: rounded(cold.cli.shutdownSummary),
        leftoverAnvilPids: cold.cli.leftoverAnvilPids,
      },
    },
    bridge: {
      iterations: bridge.iterations,
      e2e: rounded(bridge.e2e),
      floor: rounded(bridge.floor),
      singleTransfer: rounded(bridge.singleTransfer),
      ratio: Math.round(bridge.ratio * 100) / 100,
      breakdownMedians: rounded(bridge.breakdown),
      samples: bridge.samples.map((s) => rounded(s)),
    },
    gaslessBridge: { iterations: gasless.iterations, e2e: rounded(gasless.e2e), floor: rounded(gasless.floor), ratio: Math.round(gasless.ratio * 100) / 100, breakdownMedians: rounded(gasless.breakdown) },
    load,
    chaos,
    property: { runs: property.runs, seed: property.seed, seconds: Math.round(property.seconds * 10) / 10, passed: property.passed },
    conformance,
    nonEvmChains: {
      svmTransfers: { count: nonEvm.svmTransfers.count, perSecond: Math.round(nonEvm.svmTransfers.perSecond), latency: rounded(nonEvm.svmTransfers.latency) },
      evmToSvm: { iterations: nonEvm.evmToSvm.iterations, e2e: rounded(nonEvm.evmToSvm.e2e), floor: rounded(nonEvm.evmToSvm.floor), ratio: Math.round(nonEvm.evmToSvm.ratio * 100) / 100 },
      coldStartEveryChain: { chainIds: nonEvm.coldStartEveryChain.chainIds, summary: rounded(nonEvm.coldStartEveryChain.summary) },
      svmRestart: { transactions: nonEvm.svmRestart.transactions, restart: rounded(nonEvm.svmRestart.restart), freshStart: rounded(nonEvm.svmRestart.freshStart) },
    },
    bvm,
    evmFront: { calls: evmFront.iterations, readDirect: rounded(evmFront.readDirect), readFront: rounded(evmFront.readFront), transferDirect: rounded(evmFront.transferDirect), transferFront: rounded(evmFront.transferFront) },
    lvmRestart: { transfers: lvmRestart.transfers, restart: rounded(lvmRestart.restart), freshStart: rounded(lvmRestart.freshStart) },
    sideBySide,
    fork: fork.json,
    npmTest: npmTest ?? null,
    scenarios: { ...scenarios, wallMs: Math.round(scenarios.wallMs), scenariosPerSecond: Math.round(scenarios.scenariosPerSecond * 100) / 100 },
    openApiFuzz: { requests: openApiFuzz.requests, operations: openApiFuzz.operations, seconds: Math.round(openApiFuzz.seconds * 10) / 10, problems: openApiFuzz.problems },
    fuzz: { httpInputs: fuzz.httpInputs, websocketBatches: fuzz.websocketBatches, seconds: Math.round(fuzz.seconds * 10) / 10, failures: fuzz.failures },
    quoteLatency: { count: quotes.count, summary: rounded(quotes.summary), p50: Math.round(quotes.p50 * 10) / 10, p99: Math.round(quotes.p99 * 10) / 10 },
  };
  mkdirSync(resultsDir, { recursive: true });
  if (property.failure) writeFileSync(`${resultsDir}property-failure.txt`, `${property.failure}\n`);
  const file = `${resultsDir}latest.json`;
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`figures written to ${file}\n`);
}

main().then(
  // exit explicitly: idle keep-alive sockets of fetch/viem must not hold the process open
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
