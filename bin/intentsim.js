#!/bin/sh
':' //; exec node --max-semi-space-size=4 "$0" "$@"
// Run as a program (npx, node_modules/.bin, ./bin/intentsim.js) this file is first a shell script
// whose one line replaces the shell with node (same process) and V8's young generation capped at
// 2 × 4 MiB instead of 2 × 16: a simulator's process holds ~20 MB less (docs/start.md "Memory").
// Node reads the line above as a string and a comment; `node bin/intentsim.js` runs without the cap.
// An installed package (no src/) runs the CLI that `npm run build` wrote into dist/: nothing is
// written next to the package's own files, which may be read-only.
// A source checkout runs the CLI from an esbuild bundle of src/ and its dependencies (native ones
// stay external), rebuilt whenever a source is newer than it: loading TypeScript through a loader
// hook costs ~1 s at every start. It falls back to tsx's loader when the bundle cannot be written.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// first of all, the process that launched this one (src/process/launchParent.ts reads it): if it goes
// away while the CLI loads or its chains start, `intentsim start` still notices and stops
globalThis[Symbol.for('intentsim.launchParent')] ??= process.ppid;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// one set of bundles per checkout: git worktrees may share one node_modules
const checkoutKey = createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 12);
const bundles = join(root, 'node_modules', '.cache', 'intentsim', checkoutKey);

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

// packages loaded from node_modules at run time: native addons (better-sqlite3, litesvm, the
// optional ws helpers), and esbuild itself (the explorer's page is bundled on demand)
const BUNDLE_EXTERNALS = ['better-sqlite3', 'litesvm', 'esbuild', 'bufferutil', 'utf-8-validate', 'playwright-core'];

/**
 * Each build is a directory of its own, named by the newest source time it was built from, and
 * complete before it appears (written beside, then renamed into place): CLIs started side by side
 * after an edit each load one whole build, never a cli.mjs of one build with chunks of another.
 * Builds of older sources go once they are a minute old (a CLI started a moment ago may still be
 * loading one).
 */
function dropOldBuilds(current) {
  for (const name of readdirSync(bundles)) {
    const path = join(bundles, name);
    if (name !== current && Date.now() - statSync(path).mtimeMs > 60_000) rmSync(path, { recursive: true, force: true });
  }
}

async function freshBundle() {
  const sourcesChanged = Math.max(newestSourceMtime(join(root, 'src')), newestSourceMtime(join(root, 'fixtures')), newestSourceMtime(join(root, 'conformance')), statSync(join(root, 'package.json')).mtimeMs, statSync(fileURLToPath(import.meta.url)).mtimeMs);
  const buildName = `sources-${Math.floor(sourcesChanged)}`;
  const bundle = join(bundles, buildName, 'cli.mjs');
  if (existsSync(bundle)) return bundle;
  const { build } = await import('esbuild');
  mkdirSync(bundles, { recursive: true });
  const building = mkdtempSync(join(bundles, `${buildName}.building-`));
  try {
    await build({
      entryPoints: { cli: join(root, 'src', 'cli.ts') },
      outdir: building,
      // code loaded on demand (the SVM chain's runtime) goes into chunks that load only when used
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // dependencies are bundled too (tree-shaken: one file instead of hundreds of viem modules to
      // resolve and compile at every start), except those with native parts or files of their own
      external: BUNDLE_EXTERNALS,
      // bundled CommonJS packages call require() for Node's built-ins
      banner: { js: "import { createRequire as __intentsimCreateRequire } from 'node:module'; const require = __intentsimCreateRequire(import.meta.url);" },
      // the explorer's browser sources are found in this checkout (src/api/explorer/explorerBundle.ts)
      define: { __INTENTSIM_ROOT__: JSON.stringify(root) },
      logLevel: 'silent',
      // less text to decode and compile at every start (~0.1 s); names stay as written (errors and logs show them)
      minifyWhitespace: true,
      minifySyntax: true,
    });
    try {
      renameSync(building, join(bundles, buildName));
    } catch {
      // another CLI put the same build in place first: theirs is used
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  dropOldBuilds(buildName);
  return bundle;
}

async function checkoutEntry() {
  try {
    return pathToFileURL(await freshBundle()).href;
  } catch {
    const { register } = await import('tsx/esm/api');
    register();
    return pathToFileURL(join(root, 'src', 'cli.ts')).href;
  }
}

const isSourceCheckout = existsSync(join(root, 'src', 'cli.ts'));
await import(isSourceCheckout ? await checkoutEntry() : pathToFileURL(join(root, 'dist', 'cli.js')).href);
