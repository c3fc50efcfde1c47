/**
 * The bench's closing table for issue 36: each figure beside its floor measured in the same run on
 * the same machine, the ratio, the target and PASS/MISS. A ratio travels between machines (they
 * differ by 1.7x in absolute speed); a figure whose target is absolute (a revert in ms, quote p99
 * in ms, the npm test time) says that it depends on the machine. A figure this run could not
 * measure shows as `not measured` with a MISS: a miss stays visible, never hidden.
 */
import type { BridgeResult } from './bridgeLatency';
import type { ColdStartResult } from './coldStart';
import { STATUS_FLOOR_ROUTE, type LoadRow } from './load';
import { formatMs } from './measure';
import { formatMinutes, type NpmTestTime } from './npmTestTime';
import type { WorldRevertResult } from './worldRevert';

export interface FloorFigure {
  figure: string;
  /** What the floor is, and its figure this run. */
  floor: string;
  now: string;
  /** now / floor (or floor / now for a throughput), as printed. */
  ratio: string;
  target: string;
  pass: boolean;
  /** The target is absolute: it depends on the machine's speed, not only on the code. */
  machineDependent: boolean;
}

export interface FloorTargets {
  cliStartOverBareAnvil: number;
  worldRevertMs: number;
  statusOverBareHttp: number;
  quoteP99At8Ms: number;
  e2eOverFloor: number;
  npmTestSeconds: number;
}

/** The figures and their floors, each measured in this run (undefined: not measured). */
export interface FloorMeasurements {
  cliStart?: { medianMs: number; bareAnvilMedianMs: number };
  worldRevert?: { medianMs: number; evmRevertMedianMs: number };
  status8?: { requestsPerSecond: number; bareHttpRequestsPerSecond: number };
  quote8?: { p99Ms: number; bareHttpP99Ms: number };
  bridge?: { e2eMedianMs: number; floorMedianMs: number };
  npmTest?: NpmTestTime;
}

const NOT_MEASURED = 'not measured';
const x = (ratio: number) => `${ratio.toFixed(2)}x`;

/** Issue 36's figures, each beside its floor. */
export function floorFigures(m: FloorMeasurements, t: FloorTargets): FloorFigure[] {
  const missing = (figure: string, floor: string, target: string, machineDependent: boolean): FloorFigure => ({ figure, floor, now: NOT_MEASURED, ratio: '-', target, pass: false, machineDependent });
  const figures: FloorFigure[] = [];

  const startTarget = `<= ${t.cliStartOverBareAnvil}x`;
  if (m.cliStart) {
    const ratio = m.cliStart.medianMs / m.cliStart.bareAnvilMedianMs;
    figures.push({ figure: 'intentsim start ready, six chains (median)', floor: `one bare Anvil to its port ${formatMs(m.cliStart.bareAnvilMedianMs)}`, now: formatMs(m.cliStart.medianMs), ratio: x(ratio), target: startTarget, pass: ratio <= t.cliStartOverBareAnvil, machineDependent: false });
  } else figures.push(missing('intentsim start ready, six chains (median)', 'one bare Anvil to its port', startTarget, false));

  const revertTarget = `<= ${formatMs(t.worldRevertMs)}`;
  if (m.worldRevert) {
    figures.push({ figure: 'world revert, six chains + requests (median)', floor: `one Anvil evm_revert ${formatMs(m.worldRevert.evmRevertMedianMs)}`, now: formatMs(m.worldRevert.medianMs), ratio: x(m.worldRevert.medianMs / m.worldRevert.evmRevertMedianMs), target: revertTarget, pass: m.worldRevert.medianMs <= t.worldRevertMs, machineDependent: true });
  } else figures.push(missing('world revert, six chains + requests (median)', 'one Anvil evm_revert', revertTarget, true));

  const statusTarget = `>= ${t.statusOverBareHttp}x the floor`;
  if (m.status8) {
    const ratio = m.status8.requestsPerSecond / m.status8.bareHttpRequestsPerSecond;
    figures.push({ figure: 'GET /intents/status/v3, 8 connections', floor: `bare node:http, same bytes, ${m.status8.bareHttpRequestsPerSecond.toLocaleString('en-US')} req/s`, now: `${m.status8.requestsPerSecond.toLocaleString('en-US')} req/s`, ratio: x(ratio), target: statusTarget, pass: ratio >= t.statusOverBareHttp, machineDependent: false });
  } else figures.push(missing('GET /intents/status/v3, 8 connections', 'bare node:http, same bytes', statusTarget, false));

  const quoteTarget = `<= ${t.quoteP99At8Ms} ms`;
  if (m.quote8) {
    figures.push({ figure: 'POST /quote/v2 p99, 8 connections', floor: `bare node:http p99 ${m.quote8.bareHttpP99Ms} ms`, now: `${m.quote8.p99Ms} ms`, ratio: m.quote8.bareHttpP99Ms > 0 ? x(m.quote8.p99Ms / m.quote8.bareHttpP99Ms) : '-', target: quoteTarget, pass: m.quote8.p99Ms <= t.quoteP99At8Ms, machineDependent: true });
  } else figures.push(missing('POST /quote/v2 p99, 8 connections', 'bare node:http p99', quoteTarget, true));

  const bridgeTarget = `<= ${t.e2eOverFloor}x`;
  if (m.bridge) {
    const ratio = m.bridge.e2eMedianMs / m.bridge.floorMedianMs;
    figures.push({ figure: 'native bridge e2e (median)', floor: `two transfers with receipts ${formatMs(m.bridge.floorMedianMs)}`, now: formatMs(m.bridge.e2eMedianMs), ratio: x(ratio), target: bridgeTarget, pass: ratio <= t.e2eOverFloor, machineDependent: false });
  } else figures.push(missing('native bridge e2e (median)', 'two transfers with receipts', bridgeTarget, false));

  const testTarget = `<= ${formatMinutes(t.npmTestSeconds)}`;
  if (m.npmTest) {
    const when = m.npmTest.source === 'measured' ? 'this run' : `recorded ${m.npmTest.at.slice(0, 16)}`;
    figures.push({ figure: `npm test, 2 workers (${when}${m.npmTest.passed ? '' : ', FAILED'})`, floor: '-', now: formatMinutes(m.npmTest.seconds), ratio: '-', target: testTarget, pass: m.npmTest.passed && m.npmTest.seconds <= t.npmTestSeconds, machineDependent: true });
  } else figures.push(missing('npm test, 2 workers', '-', testTarget, true));
  return figures;
}

/** The figures as an aligned table with PASS/MISS; `*` marks a target that depends on the machine. */
export function floorTableLines(figures: readonly FloorFigure[], verdict: (pass: boolean) => string): string[] {
  const header = { figure: 'figure', floor: 'floor (same run)', now: 'now', ratio: 'ratio', target: 'target' };
  const rows = figures.map((f) => ({ ...f, target: `${f.target}${f.machineDependent ? ' *' : ''}` }));
  const keys = ['figure', 'floor', 'now', 'ratio', 'target'] as const;
  const width = Object.fromEntries(keys.map((key) => [key, Math.max(header[key].length, ...rows.map((row) => row[key].length))])) as Record<(typeof keys)[number], number>;
  const line = (row: Record<(typeof keys)[number], string>, result: string) =>
    `  ${row.figure.padEnd(width.figure)}  ${row.floor.padEnd(width.floor)}  ${row.now.padStart(width.now)}  ${row.ratio.padStart(width.ratio)}  ${row.target.padEnd(width.target)}  ${result}`;
  const passed = figures.filter((f) => f.pass).length;
  return [
    `issue 36 targets, each figure beside its floor in this run — ${passed} of ${figures.length} PASS`,
    line(header, ''),
    ...rows.map((row, index) => line(row, verdict(figures[index]!.pass))),
    '  * an absolute target: the figure depends on the machine (2 cores here), the ratio much less',
  ];
}

/** What the bench sections measured, as the floor table reads it. */
export function floorMeasurementsFrom(m: {
  cold?: ColdStartResult;
  worldRevert?: WorldRevertResult;
  loadRows?: readonly LoadRow[];
  bridge?: BridgeResult;
  npmTest?: NpmTestTime;
}): FloorMeasurements {
  const row = (route: string) => m.loadRows?.find((r) => r.route === route && r.connections === 8);
  const status = row('GET /intents/status/v3');
  const floor = row(STATUS_FLOOR_ROUTE);
  const quote = row('POST /quote/v2');
  return {
    ...(m.cold ? { cliStart: { medianMs: m.cold.cli.summary.median, bareAnvilMedianMs: m.cold.bareAnvil.summary.median } } : {}),
    ...(m.worldRevert ? { worldRevert: { medianMs: m.worldRevert.revert.median, evmRevertMedianMs: m.worldRevert.floor.median } } : {}),
    ...(status && floor ? { status8: { requestsPerSecond: status.requestsPerSecond, bareHttpRequestsPerSecond: floor.requestsPerSecond} } : {}),
    ...(quote && floor ? { quote8: { p99Ms: quote.p99Ms, bareHttpP99Ms: floor.p99Ms } } : {}),
    ...(m.bridge ? { bridge: { e2eMedianMs: m.bridge.e2e.median, floorMedianMs: m.bridge.floor.median } } : {}),
    ...(m.npmTest ? { npmTest: m.npmTest } : {}),
  };
}
