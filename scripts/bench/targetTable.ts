/**
 * The bench's closing note: each figure of issue 24's table, what it was when the issue was filed
 * (its "now" column), what this run measured, the target and PASS/MISS. A figure this run could
 * not measure shows as `not measured` with a MISS: a miss stays visible, never hidden.
 */
import type { ColdStartResult } from './coldStart';
import type { BridgeResult } from './bridgeLatency';
import type { LoadResult } from './load';
import { formatMs } from './measure';
import type { NonEvmChainsResult } from './nonEvmChains';
import { formatMinutes, type NpmTestTime } from './npmTestTime';
import type { QuoteLatencyResult } from './quoteLatency';
import type { SideBySideResult } from './sideBySide';

export interface TargetFigure {
  figure: string;
  before: string;
  now: string;
  target: string;
  pass: boolean;
}

export interface IssueTargets {
  cliStartMs: number;
  libraryStartMs: number;
  e2eOverFloor: number;
  evmToSvmOverFloor: number;
  quoteP99Ms: number;
  quoteP99At8Ms: number;
  quoteP99At64Ms: number;
  statusAt8RequestsPerSecond: number;
  npmTestSeconds: number;
  simulatorMemoryMb: number;
}

export interface MeasuredFigures {
  cold: ColdStartResult;
  bridge: BridgeResult;
  quotes: QuoteLatencyResult;
  load: LoadResult;
  nonEvm: NonEvmChainsResult;
  sideBySide: SideBySideResult;
  npmTest: NpmTestTime | undefined;
}

const NOT_MEASURED = 'not measured';

function loadRow(load: LoadResult, route: string, connections: number) {
  return load.rows.find((row) => row.route === route && row.connections === connections);
}

/** Issue 24's figures, in its table's order. */
export function issueTargetFigures(m: MeasuredFigures, t: IssueTargets): TargetFigure[] {
  const quote8 = loadRow(m.load, 'POST /quote/v2', 8);
  const quote64 = loadRow(m.load, 'POST /quote/v2', 64);
  const status8 = loadRow(m.load, 'GET /intents/status/v3', 8);
  const library = Math.max(m.cold.library.summary.median, m.nonEvm.coldStartEveryChain.summary.median);
  const worstRss = Math.max(...m.sideBySide.simulators.map((s) => s.rssMb));
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    { figure: `intentsim start --json ready (median of ${m.cold.runs})`, before: '1.62 s', now: seconds(m.cold.cli.summary.median), target: `<= ${seconds(t.cliStartMs)}`, pass: m.cold.cli.summary.median <= t.cliStartMs },
    { figure: 'startSimulator() ready, all six chains', before: '0.77-0.89 s', now: seconds(library), target: `<= ${seconds(t.libraryStartMs)}`, pass: library <= t.libraryStartMs },
    { figure: 'native bridge e2e / floor', before: '2.60x', now: `${m.bridge.ratio.toFixed(2)}x`, target: `<= ${t.e2eOverFloor.toFixed(1)}x`, pass: m.bridge.ratio <= t.e2eOverFloor },
    { figure: 'EVM -> SVM bridge e2e / floor', before: '3.06x', now: `${m.nonEvm.evmToSvm.ratio.toFixed(2)}x`, target: `<= ${t.evmToSvmOverFloor.toFixed(1)}x`, pass: m.nonEvm.evmToSvm.ratio <= t.evmToSvmOverFloor },
    { figure: 'POST /quote/v2 p99, sequential', before: '13.6 ms', now: formatMs(m.quotes.p99), target: `<= ${formatMs(t.quoteP99Ms)}`, pass: m.quotes.p99 <= t.quoteP99Ms },
    { figure: 'POST /quote/v2 p99 at 8 connections', before: '38 ms', now: quote8 ? `${quote8.p99Ms} ms` : NOT_MEASURED, target: `<= ${t.quoteP99At8Ms} ms`, pass: quote8 !== undefined && quote8.p99Ms <= t.quoteP99At8Ms },
    { figure: 'POST /quote/v2 p99 at 64 connections', before: '976 ms', now: quote64 ? `${quote64.p99Ms} ms` : NOT_MEASURED, target: `<= ${t.quoteP99At64Ms} ms`, pass: quote64 !== undefined && quote64.p99Ms <= t.quoteP99At64Ms },
    { figure: 'GET /intents/status/v3 at 8 connections', before: '2,522 req/s', now: status8 ? `${status8.requestsPerSecond.toLocaleString('en-US')} req/s` : NOT_MEASURED, target: `>= ${t.statusAt8RequestsPerSecond.toLocaleString('en-US')} req/s`, pass: status8 !== undefined && status8.requestsPerSecond >= t.statusAt8RequestsPerSecond },
    { figure: 'npm test, clean run', before: '5 min 25 s', now: m.npmTest ? `${formatMinutes(m.npmTest.seconds)}${m.npmTest.passed ? '' : ' (failed)'}` : NOT_MEASURED, target: `<= ${formatMinutes(t.npmTestSeconds)}`, pass: m.npmTest !== undefined && m.npmTest.passed && m.npmTest.seconds <= t.npmTestSeconds },
    { figure: `one simulator's memory, all processes (worst of ${m.sideBySide.count})`, before: '~273 MB', now: `${worstRss} MB`, target: `<= ${t.simulatorMemoryMb} MB`, pass: worstRss <= t.simulatorMemoryMb },
  ];
}

/** The figures as an aligned table with PASS/MISS. */
export function targetTableLines(figures: readonly TargetFigure[], verdict: (pass: boolean) => string): string[] {
  const header: TargetFigure = { figure: 'figure', before: 'before', now: 'now', target: 'target', pass: true };
  const width = (key: 'figure' | 'before' | 'now' | 'target') => Math.max(...[header, ...figures].map((f) => f[key].length));
  const line = (f: TargetFigure, result: string) => `  ${f.figure.padEnd(width('figure'))}  ${f.before.padStart(width('before'))}  ${f.now.padStart(width('now'))}  ${f.target.padEnd(width('target'))}  ${result}`;
  const passed = figures.filter((f) => f.pass).length;
  return [`issue 24 targets: before (when filed) / now / target — ${passed} of ${figures.length} PASS`, line(header, ''), ...figures.map((f) => line(f, verdict(f.pass)))];
}
