#!/bin/sh
':' //; exec node --max-semi-space-size=4 "$0" "$@"
// Run as a program (npx, node_modules/.bin, ./bin/intentsim.js) this file is first a shell script
// whose one line replaces the shell with node (same process) and V8's young generation capped at
// 2 × 4 MiB instead of 2 × 16: a simulator's process holds ~20 MB less (docs/start.md "Memory").
// Node reads the line above as a string and a comment; `node bin/intentsim.js` runs without the cap.
// An installed package (no src/) runs the CLI that `npm run build` wrote into dist/: nothing is
// written next to the package's own files, which may be read-only, and neither esbuild nor tsx is
// needed (they are devDependencies, installed in a checkout only).
// A source checkout runs the CLI from an esbuild bundle of src/ and its dependencies (native ones
// stay external; the recipe is scripts/build/bundleSources.mjs, shared with `npm run build`),
// rebuilt whenever a source or the installed dependencies are newer than it (once: CLIs started
// side by side wait for the one that took the build's lock). A bundle, because loading TypeScript
// through a loader hook costs ~1 s at every start. The bundle is one CommonJS file run as a
// vm.Script with V8's code cache (one per subcommand, beside the bundle): the functions a command
// ran are not compiled again at its next run (~0.3 s of a start's CPU). When the bundle cannot be
// built it says why on stderr and runs the sources through tsx's loader instead.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

// first of all, the process that launched this one (src/process/launchParent.ts reads it): if it goes
// away while the CLI loads or its chains start, `intentsim start` still notices and stops
/** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('intentsim.launchParent')] ??= process.ppid;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// one set of bundles per checkout: git worktrees may share one node_modules
const checkoutKey = createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 12);
const bundles = join(root, 'node_modules', '.cache', 'intentsim', checkoutKey);

/** @param {string} dir */
function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Each build is a directory of its own, named by the newest time of the inputs it was built from, and
 * complete before it appears (written beside, then renamed into place): CLIs started side by side
 * after an edit each load one whole build, never a bundle of one build with code caches of another.
 * Builds of older inputs go once they are a minute old (a CLI started a moment ago may still be
 * loading one).
 * @param {string} current
 */
function dropOldBuilds(current) {
  for (const name of readdirSync(bundles)) {
    const path = join(bundles, name);
    if (name !== current && Date.now() - statSync(path).mtimeMs > 60_000) rmSync(path, { recursive: true, force: true });
  }
}

const BUILD_MODULE = join(root, 'scripts', 'build', 'bundleSources.mjs');

/** A file's modification time, 0 when there is none. @param {string} path */
function mtimeOf(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/**
 * When the build's inputs last changed: the sources, package.json, the lockfile and what npm
 * installed (node_modules/.package-lock.json: `npm ci` after a lockfile update gives new
 * dependencies to bundle), this script and the build recipe. Times only: a start reads no file.
 */
function inputsChanged() {
  const sources = ['src', 'fixtures', 'conformance'].map((dir) => newestSourceMtime(join(root, dir)));
  const files = ['package.json', 'package-lock.json', join('node_modules', '.package-lock.json')].map((file) => mtimeOf(join(root, file)));
  return Math.max(...sources, ...files, mtimeOf(fileURLToPath(import.meta.url)), mtimeOf(BUILD_MODULE));
}

/** How long a CLI waits for another one's build before it builds on its own (real time). */
const BUILD_WAIT_MS = 120_000;
/** A lock without its holder's pid this long after it was made is left over from a CLI killed right then. */
const PIDLESS_LOCK_MS = 5_000;

/**
 * Takes the lock of a build (a directory made atomically, its holder's pid inside): true when this
 * CLI builds, false while another CLI holds it. A lock whose holder no longer runs is removed.
 * @param {string} lock
 */
function tryLockBuild(lock) {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
  }
  let holder;
  try {
    holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // made a moment ago, its pid not written yet, or left by a CLI killed right then
    const made = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    if (made !== undefined && Date.now() - made > PIDLESS_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    return false;
  }
  try {
    process.kill(holder, 0);
  } catch (error) {
    // ESRCH: the holder is gone (killed mid-build); EPERM: it runs, as another user
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ESRCH') rmSync(lock, { recursive: true, force: true });
  }
  return false;
}

/**
 * The bundle of the current inputs, built if there is none. CLIs started side by side right after
 * an edit (test workers, a CI matrix's shards) build it once: the first takes the build's lock and
 * builds, the others wait for its build to appear (polling its path) and load it. One whose lock
 * holder died, or that waited `BUILD_WAIT_MS`, builds on its own; builds stay whole either way.
 */
async function freshBundle() {
  const buildName = `sources-${Math.floor(inputsChanged())}`;
  const bundle = join(bundles, buildName, 'cli.cjs');
  if (existsSync(bundle)) return bundle;
  mkdirSync(bundles, { recursive: true });
  const lock = join(bundles, `${buildName}.lock`);
  const waitUntil = Date.now() + BUILD_WAIT_MS;
  let locked = tryLockBuild(lock);
  while (!locked && Date.now() < waitUntil) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (existsSync(bundle)) return bundle;
    locked = tryLockBuild(lock);
  }
  try {
    if (existsSync(bundle)) return bundle; // built by the holder that let the lock go just now
    const { bundleSources, CLI_SOURCE } = await import(pathToFileURL(BUILD_MODULE).href);
    const building = mkdtempSync(join(bundles, `${buildName}.building-`));
    try {
      await bundleSources({ root, entryPoints: { cli: CLI_SOURCE }, outdir: building, dependencies: 'bundled', explorerSourcesInRoot: true, logLevel: 'silent' });
      try {
        renameSync(building, join(bundles, buildName));
      } catch {
        // another CLI put the same build in place first: theirs is used
      }
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  } finally {
    if (locked) rmSync(lock, { recursive: true, force: true });
  }
  dropOldBuilds(buildName);
  return bundle;
}

/**
 * Why a build failed, on one line: esbuild's first error and where it is, or the error's first line.
 * @param {any} error whatever the build threw
 */
function buildFailure(error) {
  const first = error?.errors?.[0];
  if (first) return first.location ? `${first.location.file}:${first.location.line}: ${first.text}` : first.text;
  return String(error?.message ?? error).split('\n')[0];
}

/**
 * Runs the CommonJS bundle as Node runs a CommonJS module, but compiled with V8's code cache of this
 * subcommand and node's flags (`<command>-<flags>.v8cache` beside the bundle: `start`, `scenario`, …). Without one, or when
 * V8 refuses it (another V8 version or flags), the command runs compiled from source and leaves
 * its cache when the process exits, with every function it ran by then (written beside, then
 * renamed into place: CLIs exiting together each leave a whole file). A cache lives in its build's
 * directory, whose bundle never changes once in place: V8 checks little of the source beyond its
 * length, so a cache must never outlive the bundle it was made from.
 * @param {string} bundle
 */
function runWithCodeCache(bundle) {
  const command = /^[a-z][a-z-]{0,30}$/.test(process.argv[2] ?? '') ? process.argv[2] : 'other';
  // V8 refuses a cache made under other flags (`--max-semi-space-size` too): one per node version and flags
  const flags = createHash('sha256').update(JSON.stringify([process.version, process.execArgv, process.env.NODE_OPTIONS ?? ''])).digest('hex').slice(0, 8);
  const cacheFile = join(dirname(bundle), `${command}-${flags}.v8cache`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet: this run leaves it
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      const writing = `${cacheFile}.${process.pid}`;
      try {
        writeFileSync(writing, script.createCachedData());
        renameSync(writing, cacheFile);
      } catch {
        rmSync(writing, { force: true });
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

async function runCheckout() {
  let bundle;
  try {
    bundle = await freshBundle();
  } catch (error) {
    process.stderr.write(`intentsim: could not bundle the CLI (${buildFailure(error)})\nintentsim: running the sources through the tsx loader instead (about 1 s slower at each start)\n`);
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(join(root, 'src', 'cli.ts')).href);
    return;
  }
  runWithCodeCache(bundle);
}

const isSourceCheckout = existsSync(join(root, 'src', 'cli.ts'));
if (isSourceCheckout) await runCheckout();
else await import(pathToFileURL(join(root, 'dist', 'cli.js')).href);
