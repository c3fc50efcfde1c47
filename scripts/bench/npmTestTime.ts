/**
 * `npm test`'s wall time, for the bench's target. Too long to run at every `npm run bench`, so:
 * with `BENCH_NPM_TEST=1` the bench runs `npm test` and records its time (and result) in
 * bench-results/npm-test.json; without it, the bench reads the last recorded run and says when it
 * was; with none recorded, the figure is missing and the bench prints a MISS saying so.
 *
 * Alone (records a run): `npx tsx scripts/bench/npmTestTime.ts`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const recordFile = fileURLToPath(new URL('../../bench-results/npm-test.json', import.meta.url));

export interface NpmTestTime {
  seconds: number;
  passed: boolean;
  /** When it ran (ISO), and whether this bench ran it or read it from an earlier run. */
  at: string;
  source: 'measured' | 'recorded';
}

/** Runs `npm test` in the repository (its output to stderr, as progress) and records the time. */
export async function measureNpmTest(): Promise<NpmTestTime> {
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('npm', ['test'], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  const time: NpmTestTime = { seconds: Math.round((performance.now() - started) / 100) / 10, passed: code === 0, at: new Date().toISOString(), source: 'measured' };
  mkdirSync(fileURLToPath(new URL('../../bench-results/', import.meta.url)), { recursive: true });
  writeFileSync(recordFile, `${JSON.stringify(time, null, 2)}\n`);
  return time;
}

/** The last recorded `npm test` run, or undefined when none was. */
export function recordedNpmTest(): NpmTestTime | undefined {
  if (!existsSync(recordFile)) return undefined;
  const recorded = JSON.parse(readFileSync(recordFile, 'utf8')) as Omit<NpmTestTime, 'source'>;
  return { ...recorded, source: 'recorded' };
}

/** The bench's line: the figure and its verdict, or a MISS that says why there is no figure. */
export function npmTestLine(time: NpmTestTime | undefined, targetSeconds: number, verdict: (pass: boolean) => string): string {
  if (time === undefined) return `npm test wall time: not measured (BENCH_NPM_TEST=1 runs it; none recorded in bench-results/npm-test.json), target <= ${targetSeconds} s   ${verdict(false)}`;
  const when = time.source === 'measured' ? 'this run' : `recorded ${time.at}`;
  return `npm test wall time: ${formatMinutes(time.seconds)} (${when}; ${time.passed ? 'green' : 'FAILED'}), target <= ${formatMinutes(targetSeconds)}   ${verdict(time.passed && time.seconds <= targetSeconds)}`;
}

export function formatMinutes(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  void measureNpmTest().then((time) => {
    process.stdout.write(`${npmTestLine(time, 120, (pass) => (pass ? 'PASS' : 'MISS'))}\n`);
    process.exit(0);
  });
}
