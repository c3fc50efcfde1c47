import type { CheckResult } from '../check';
import type { ConformanceReport } from '../runConformance';
import { junitXml } from './junitXml';
import { shardSuffix } from '../shard';

/** A failure in words: the rule, what was seen, the request and the response excerpt. */
export function describeFailure(result: CheckResult): string {
  if (!result.failure) return '';
  const { rule, detail, request, response } = result.failure;
  return [`rule: ${rule}`, `seen: ${detail}`, ...(request ? [`request: ${request}`] : []), ...(response ? [`response: ${response}`] : [])].join('\n');
}

/** One line per check as it ends (the progress line), e.g. `[12/80] ✓ §7.1 quote.slippage-negative`. */
export function progressLine(index: number, total: number, result: CheckResult): string {
  const mark = { pass: '✓', fail: '✗', skip: '-' }[result.outcome];
  const tail = result.outcome === 'skip' ? `  (skipped: ${result.skipReason})` : '';
  return `[${index + 1}/${total}] ${mark} §${result.section} ${result.id}: ${result.title}${tail}`;
}

/** The terminal report: each failure in full, then the score per SPEC section and the verdict. */
export function terminalReport(report: ConformanceReport): string {
  const failed = report.results.filter((result) => result.outcome === 'fail');
  const lines: string[] = [];
  for (const result of failed) {
    lines.push('', `✗ §${result.section} ${result.id}: ${result.title}`, ...describeFailure(result).split('\n').map((line) => `    ${line}`));
  }
  lines.push('', `conformance of ${report.baseUrl} (${report.mode})${shardSuffix(report.shard)}`, 'section   passed/run   skipped');
  for (const score of report.sections) lines.push(`§${score.section.padEnd(8)} ${`${score.passed}/${score.run}`.padStart(10)}   ${String(score.skipped).padStart(7)}`);
  const totals = report.results.reduce((acc, r) => ({ ...acc, [r.outcome]: acc[r.outcome] + 1 }), { pass: 0, fail: 0, skip: 0 });
  lines.push('', `${totals.pass} passed, ${totals.fail} failed, ${totals.skip} skipped in ${(report.durationMs / 1000).toFixed(1)} s`);
  return `${lines.join('\n')}\n`;
}

export function jsonReport(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** JUnit XML: one test case per check, its class the SPEC section. */
export function junitReport(report: ConformanceReport): string {
  return junitXml(
    `intentsim conformance${shardSuffix(report.shard)}`,
    report.results.map((result) => ({
      classname: `SPEC §${result.section}`,
      name: `${result.id}: ${result.title}`,
      timeMs: result.durationMs,
      ...(result.failure ? { failure: { message: `${result.failure.rule}: ${result.failure.detail}`, detail: describeFailure(result) } } : {}),
      ...(result.outcome === 'skip' ? { skipped: result.skipReason ?? 'skipped' } : {}),
    })),
  );
}
