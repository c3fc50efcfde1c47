import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { DEFAULT_EVM_CHAIN_IDS } from '../../fixtures/chains';
import { itemsOfShard, shardReportPath, type Shard } from '../../conformance/shard';
import { startChainNodes } from '../chains/startChainNodes';
import { loadScenarioFile, scenarioDocument, ScenarioFileError } from './loadScenarioFile';
import { runScenario, type ScenarioResult } from './runScenario';
import type { Scenario } from './scenarioSchema';
import type { ScenarioStepBounds } from './stepBounds';
import { junitReport } from './junitReport';
import { pooledChainsOf } from './scenarioForks';
import type { ScenarioFileOutcome } from './ScenarioFileOutcome';

export type { ScenarioFileOutcome };

export interface RunScenarioFilesOptions {
  paths: string[];
  seed?: number;
  /** Write one timeline file per scenario here. */
  outDir?: string;
  /** Write a JUnit XML report here (with `shard`, one file per shard: see shardReportPath). */
  junitFile?: string;
  /**
   * Run only this part of the files (a CI matrix, `--shard i/n`): split by a hash of each file's
   * name below the directory given, so a file stays on its shard when others are added.
   */
  shard?: Shard;
  /** Rewrite each unmet expectation in its file with what happened. */
  update?: boolean;
  anvilPath?: string;
  anvilSearchPath?: string;
  /** Progress lines (the terminal). */
  progress?: (line: string) => void;
  /** How long each step may take (src/scenario/stepBounds.ts); wins over each file's `stepBounds:`. */
  stepBounds?: Partial<ScenarioStepBounds>;
  /** Told as each step starts (`--verbose`). */
  onStepStart?: (line: string) => void;
}


/** Every scenario file under the paths (directories recursively, `.yaml`/`.yml`), sorted, with its name below its path. */
export function findScenarioFiles(paths: string[]): Array<{ file: string; relativeName: string }> {
  const found: Array<{ file: string; relativeName: string }> = [];
  const walk = (root: string, dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(root, path);
      else if (/\.ya?ml$/.test(entry.name)) found.push({ file: path, relativeName: relative(root, path).replace(/\.ya?ml$/, '') });
    }
  };
  for (const path of paths) {
    if (!existsSync(path)) throw new ScenarioFileError(path, undefined, '', 'no such file or directory');
    if (statSync(path).isDirectory()) walk(path, path);
    else found.push({ file: path, relativeName: basename(path).replace(/\.ya?ml$/, '') });
  }
  return found;
}

/**
 * `intentsim scenario run`: loads every file first (a bad file fails alone), starts one node per
 * chain once, and runs the scenarios one after another on those nodes (each resets them to
 * genesis), so each starts from the same state whatever ran before it.
 */
export async function runScenarioFiles(options: RunScenarioFilesOptions): Promise<ScenarioFileOutcome[]> {
  const progress = options.progress ?? (() => undefined);
  const files = itemsOfShard(findScenarioFiles(options.paths), (file) => file.relativeName, options.shard);
  const loaded = files.map(({ file, relativeName }) => {
    try {
      return { file, relativeName, scenario: loadScenarioFile(file), loadError: undefined };
    } catch (error) {
      return { file, relativeName, scenario: undefined, loadError: error instanceof Error ? error.message : String(error) };
    }
  });
  // a chain a scenario forks runs its own node (`fork:`): the pool has one only for the scenarios that do not fork it
  const chainIds = [...new Set(loaded.flatMap(({ scenario }) => (scenario ? pooledChainsOf(scenario, scenario.chains ?? DEFAULT_EVM_CHAIN_IDS) : [])))].sort((a, b) => a - b);
  const logDir = mkdtempSync(join(tmpdir(), 'intentsim-scenario-nodes-'));
  const outcomes: ScenarioFileOutcome[] = [];
  const nodes = chainIds.length > 0 ? await startChainNodes({ chainIds, logDir, anvilPath: options.anvilPath, anvilSearchPath: options.anvilSearchPath }) : undefined;
  try {
    for (const entry of loaded) {
      const started = performance.now();
      if (!entry.scenario) {
        outcomes.push({ file: entry.file, relativeName: entry.relativeName, result: undefined, loadError: entry.loadError, wallMs: 0 });
        progress(`✗ ${entry.relativeName}  ${entry.loadError}`);
        continue;
      }
      const result = await runScenario(entry.scenario, {
        ...(nodes ? { nodes: nodes.chains } : {}),
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.stepBounds ? { stepBounds: options.stepBounds } : {}),
        ...(options.onStepStart ? { onStepStart: options.onStepStart } : {}),
      });
      const outcome = { file: entry.file, relativeName: entry.relativeName, result, loadError: undefined, wallMs: performance.now() - started };
      outcomes.push(outcome);
      progress(describeOutcome(outcome));
      if (options.outDir) writeTimeline(options.outDir, entry.relativeName, result.timeline);
      if (options.update && result.mismatches.length > 0) updateExpectations(entry.scenario, result);
    }
  } finally {
    await nodes?.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
  if (options.junitFile) {
    const junitFile = shardReportPath(options.junitFile, options.shard);
    mkdirSync(dirname(junitFile), { recursive: true });
    writeFileSync(junitFile, junitReport(outcomes, options.shard));
  }
  return outcomes;
}

function writeTimeline(outDir: string, relativeName: string, timeline: string): void {
  const file = join(outDir, `${relativeName}.timeline`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, timeline);
}

/** `--update`: each unmet expectation in the file becomes what happened (comments and layout kept). */
function updateExpectations(scenario: Scenario, result: ScenarioResult): void {
  const doc = scenarioDocument(readFileSync(scenario.file, 'utf8'));
  for (const mismatch of result.mismatches) if (mismatch.path.length > 0) doc.setIn(mismatch.path, mismatch.actual);
  writeFileSync(scenario.file, doc.toString({ lineWidth: 0, flowCollectionPadding: false }));
}

/** One scenario's line (and its diff) for the terminal. */
export function describeOutcome(outcome: ScenarioFileOutcome): string {
  const { result } = outcome;
  if (!result) return `✗ ${outcome.relativeName}  ${outcome.loadError ?? ''}`;
  const seconds = `(${(outcome.wallMs / 1000).toFixed(1)} s)`;
  if (result.passed) return `✓ ${outcome.relativeName} ${seconds}`;
  const lines = [`✗ ${outcome.relativeName} ${seconds}  ${result.scenario.file}`];
  if (result.error) lines.push(`    ${result.error}`);
  for (const mismatch of result.mismatches) {
    lines.push(`    step ${mismatch.step} (line ${mismatch.line}): ${mismatch.what}`, `      - expected ${JSON.stringify(mismatch.expected)}`, `      + actual   ${JSON.stringify(mismatch.actual)}`);
    if (mismatch.waits) lines.push(`      waiting: ${mismatch.waits}`);
  }
  return lines.join('\n');
}
