import { CheckSkipped, RuleBroken, type CheckResult, type ConformanceCheck, type ConformanceMode } from './check';
import { allChecks } from './checks';
import { ConformanceHttp, describeRequest, describeResponse } from './http';
import { itemsOfShard, type Shard } from './shard';
import { ConformanceTarget, type TargetOptions } from './target';

export interface ConformanceOptions extends TargetOptions {
  baseUrl: string;
  apiKey?: string;
  mode?: ConformanceMode;
  /** Tags to select (a section like `7.1` or `2`, a family like `listing`, a check id); every check when empty. */
  only?: readonly string[];
  /** The checks to run instead of the suite's own (tests, a CI suite with its own). */
  checks?: readonly ConformanceCheck[];
  /** Run only this part of the selected checks (a CI matrix, `--shard i/n`): split by a hash of each check's id. */
  shard?: Shard;
  /** Called as each check starts and ends (the terminal progress line). */
  onProgress?: (event: { index: number; total: number; check: ConformanceCheck; result?: CheckResult }) => void;
  requestTimeoutMs?: number;
}

export interface SectionScore {
  section: string;
  passed: number;
  run: number;
  skipped: number;
}

export interface ConformanceReport {
  baseUrl: string;
  mode: ConformanceMode;
  /** The part of the suite this run was (`--shard`); absent when it ran every selected check. */
  shard?: Shard;
  results: CheckResult[];
  /** Per top-level SPEC section ("2", "4", "7", …): checks passed / checks run. */
  sections: SectionScore[];
  passed: boolean;
  durationMs: number;
}

/** The tags a check answers to in `--only`: its id, its section and the section's parents, its family (the id's prefix) and its own tags. */
export function tagsOf(check: ConformanceCheck): string[] {
  const parts = check.section.split('.');
  const sections = parts.map((_, i) => parts.slice(0, i + 1).join('.'));
  return [check.id, check.id.split('.')[0]!, ...sections, ...sections.map((s) => `§${s}`), ...(check.tags ?? [])];
}

export function selectChecks(checks: readonly ConformanceCheck[], mode: ConformanceMode, only: readonly string[] = []): ConformanceCheck[] {
  return checks.filter((check) => (mode === 'full' || check.mode === 'read-only') && (only.length === 0 || tagsOf(check).some((tag) => only.includes(tag))));
}

/**
 * Runs the selected checks one after another against `baseUrl` and scores them per SPEC
 * section. A check passes unless it throws: `RuleBroken` is a failure with its rule and
 * exchange, `CheckSkipped` a skip, any other error (a refused connection, a timeout) a failure
 * of the check's own section.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const mode = options.mode ?? 'read-only';
  const started = performance.now();
  const selected = itemsOfShard(selectChecks(options.checks ?? allChecks, mode, options.only), (check) => check.id, options.shard);
  const targetHttp = new ConformanceHttp(options.baseUrl, options.apiKey, options.requestTimeoutMs);
  const target = new ConformanceTarget(targetHttp, mode, options);
  const results: CheckResult[] = [];
  for (const [index, check] of selected.entries()) {
    options.onProgress?.({ index, total: selected.length, check });
    const http = new ConformanceHttp(options.baseUrl, options.apiKey, options.requestTimeoutMs);
    const checkStarted = performance.now();
    const result = await runOneCheck(check, { http, target, mode });
    result.durationMs = Math.round(performance.now() - checkStarted);
    results.push(result);
    options.onProgress?.({ index, total: selected.length, check, result });
  }
  const sections = scoreSections(results);
  return { baseUrl: options.baseUrl, mode, ...(options.shard ? { shard: options.shard } : {}), results, sections, passed: results.every((result) => result.outcome !== 'fail'), durationMs: Math.round(performance.now() - started) };
}

async function runOneCheck(check: ConformanceCheck, context: Parameters<ConformanceCheck['run']>[0]): Promise<CheckResult> {
  const base = { id: check.id, section: check.section, title: check.title, durationMs: 0 };
  try {
    await check.run(context);
    return { ...base, outcome: 'pass' };
  } catch (error) {
    if (error instanceof CheckSkipped) return { ...base, outcome: 'skip', skipReason: error.reason };
    if (error instanceof RuleBroken) {
      const exchange = error.exchange ?? context.http.exchanges.at(-1);
      return {
        ...base,
        outcome: 'fail',
        failure: { rule: error.rule, detail: error.detail, ...(exchange ? { request: describeRequest(exchange), response: describeResponse(exchange) } : {}) },
      };
    }
    const exchange = context.http.exchanges.at(-1);
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      outcome: 'fail',
      failure: { rule: 'the check could not complete', detail: message, ...(exchange ? { request: describeRequest(exchange), response: describeResponse(exchange) } : {}) },
    };
  }
}

function scoreSections(results: readonly CheckResult[]): SectionScore[] {
  const bySection = new Map<string, SectionScore>();
  for (const result of results) {
    const section = result.section.split('.')[0]!;
    const score = bySection.get(section) ?? { section, passed: 0, run: 0, skipped: 0 };
    if (result.outcome === 'skip') score.skipped += 1;
    else {
      score.run += 1;
      if (result.outcome === 'pass') score.passed += 1;
    }
    bySection.set(section, score);
  }
  return [...bySection.values()].sort((a, b) => Number(a.section) - Number(b.section));
}
