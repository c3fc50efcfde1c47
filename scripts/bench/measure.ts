/**
 * Tiny measurement helpers shared by the benchmark scripts (`npm run bench`).
 * Speed targets live in scripts/bench only, never in tests (docs/testing.md).
 */

function sorted(values: readonly number[]): number[] {
  if (values.length === 0) throw new RangeError('no values to summarise');
  return [...values].sort((a, b) => a - b);
}

/** The p-th percentile (0–100), linear interpolation between closest ranks. */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const s = sorted(values);
  const rank = (p / 100) * (s.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return s[low]! + (s[high]! - s[low]!) * (rank - low);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function min(values: readonly number[]): number {
  return sorted(values)[0]!;
}

export function max(values: readonly number[]): number {
  const s = sorted(values);
  return s[s.length - 1]!;
}

/** `12.3 ms` below a second, `1.234 s` above. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (Math.abs(ms) >= 1000) return `${(ms / 1000).toFixed(3)} s`;
  return `${ms.toFixed(1)} ms`;
}

/** Runs `fn` and returns its result with the elapsed milliseconds (performance.now()). */
export async function timeIt<T>(fn: () => Promise<T> | T): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - started };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface Summary {
  n: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  return { n: values.length, median: median(values), p90: percentile(values, 90), min: min(values), max: max(values) };
}

/** Rounds every number in a summary to 0.1 ms, for the JSON report. */
export function rounded<T extends object>(summary: T): T {
  return Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 10) / 10 : v])) as T;
}

/** A positive integer from the environment (a bench or test knob), or the fallback when unset. */
export function positiveIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}
