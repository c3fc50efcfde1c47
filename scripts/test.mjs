// @ts-check
/**
 * `npm test`: vitest, and beside it the checks that need no simulator — the import rules
 * (`npm run check-imports`), the type check of the whole project (tsconfig.json: src, test,
 * scripts, fixtures, conformance, bin) and of the explorer's browser sources (web/explorer). They
 * run side by side with vitest instead of before it, so the suite is not longer by the ~1 min of
 * CPU the type check takes. vitest's output is shown as it runs; each check's output is kept and
 * printed after it, with a line per check. The exit code is vitest's when it failed, else 1 when a
 * check failed, else 0. Arguments go to vitest (`npm test -- test/api`).
 * The type checks run TypeScript 7's native compiler (the `typescript-native` alias of
 * typescript@7: the build's declaration emit and dependency-cruiser keep TypeScript 5's JavaScript
 * API), on one thread (`--singleThreaded`: the two vitest workers have the other cores). On a fresh
 * clone the project's check costs ~22 s of CPU, TypeScript 5's ~100 s; the explorer's ~2 s, 5's ~16 s.
 * They keep their state (`--incremental`) in node_modules/.cache: a run after a small edit checks
 * again only what the edit touched (~3 s); so does the import rules' check (its
 * `--cache`, by each file's text: ~8 s of CPU on a fresh clone, ~3 s after).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');
// one state per checkout: git worktrees may share one node_modules
const checkoutKey = createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 12);
const typeCheckState = join(root, 'node_modules', '.cache', 'intentsim-typecheck', `${checkoutKey}-ts7.tsbuildinfo`);
const explorerTypeCheckState = join(root, 'node_modules', '.cache', 'intentsim-typecheck', `${checkoutKey}-explorer-ts7.tsbuildinfo`);
// dependency-cruiser's cache: a file whose text is the one it cruised last time is not read again
const importRulesCache = join(root, 'node_modules', '.cache', 'intentsim-depcruise', checkoutKey);

/** The checks run beside vitest: a name and the command. */
export const CHECKS = [
  { name: 'import rules', command: ['npm', 'run', '--silent', 'check-imports', '--', '--cache', importRulesCache, '--cache-strategy', 'content'] },
  { name: 'types (tsconfig.json)', command: [process.execPath, tsc, '--noEmit', '-p', 'tsconfig.json', '--singleThreaded', '--incremental', '--tsBuildInfoFile', typeCheckState] },
  { name: 'types (web/explorer)', command: [process.execPath, tsc, '--noEmit', '-p', 'web/explorer', '--singleThreaded', '--incremental', '--tsBuildInfoFile', explorerTypeCheckState] },
];

/** The checks still running. */
const running = /** @type {Set<string>} */ (new Set());

/**
 * Runs a check with its output kept.
 * @param {{ name: string, command: string[] }} check
 * @returns {Promise<{ name: string, passed: boolean, seconds: number, output: string }>}
 */
function runCheck({ name, command }) {
  const started = performance.now();
  const [program = '', ...args] = command;
  running.add(name);
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const done = (/** @type {boolean} */ passed, /** @type {string} */ more = '') => {
      running.delete(name);
      resolve({ name, passed, seconds: (performance.now() - started) / 1000, output: output + more });
    };
    child.once('error', (error) => done(false, String(error)));
    child.once('close', (code) => done(code === 0));
  });
}

/** @returns {Promise<number>} vitest's exit code (1 when a signal ended it) */
function runVitest() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
    child.once('error', () => resolve(1));
    child.once('close', (code) => resolve(code ?? 1));
  });
}

async function main() {
  const checks = Promise.all(CHECKS.map(runCheck));
  const vitestCode = await runVitest();
  if (running.size > 0) process.stdout.write(`\nwaiting for: ${[...running].join(', ')}\n`);
  const results = await checks;
  process.stdout.write('\n');
  for (const result of results) {
    process.stdout.write(`${result.passed ? '✓' : '✗'} ${result.name} ${result.passed ? 'passed' : 'FAILED'} (${result.seconds.toFixed(1)} s)\n`);
    if (!result.passed) process.stdout.write(`${result.output.trimEnd()}\n\n`);
  }
  process.exitCode = vitestCode !== 0 ? vitestCode : results.every((result) => result.passed) ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
