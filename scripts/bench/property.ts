import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface PropertyResult {
  runs: number;
  seed: number;
  seconds: number;
  passed: boolean;
  /** On failure: the end of vitest's output (the shrunk sequence, as a scenario file, is in it). */
  failure: string | undefined;
}

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The long run of the model-based property test (test/property/requestLifecycle.test.ts; `npm test`
 * runs 10 sequences of it): `runs` random sequences from `seed`, through vitest, which starts the
 * pooled chains the test needs.
 */
export function benchProperty(runs: number, seed: number, progress: (line: string) => void): Promise<PropertyResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/property/requestLifecycle.test.ts'], {
      cwd: root,
      env: { ...process.env, INTENTSIM_PROPERTY_RUNS: String(runs), INTENTSIM_PROPERTY_SEED: String(seed), NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      progress(`  property: ${runs} runs in ${seconds.toFixed(1)} s, exit ${code}`);
      resolve({ runs, seed, seconds, passed: code === 0, failure: code === 0 ? undefined : output.split('\n').slice(-80).join('\n') });
    });
  });
}
