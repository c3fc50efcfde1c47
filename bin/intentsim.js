#!/bin/sh
':' //; exec node --max-semi-space-size=2 "$0" "$@"
// Run as a program (npx, node_modules/.bin, ./bin/intentsim.js) this file is first a shell script
// whose one line replaces the shell with node (same process) and V8's young generation capped at
// 2 × 2 MiB instead of 2 × 16: a simulator's process holds ~20 MB less (docs/start.md "Memory").
// Node reads the line above as a string and a comment; `node bin/intentsim.js` runs without the cap.
// An installed package (no src/) runs the CLI that `npm run build` wrote into dist/: nothing is
// written next to the package's own files, which may be read-only.
// A source checkout runs the CLI from an esbuild bundle of src/ and its dependencies (native ones
// stay external), rebuilt whenever a source is newer than it: loading TypeScript through a loader
// hook costs ~1 s at every start. It falls back to tsx's loader when the bundle cannot be written.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// first of all, the process that launched this one (src/process/launchParent.ts reads it): if it goes
// away while the CLI loads or its chains start, `intentsim start` still notices and stops
globalThis[Symbol.for('intentsim.launchParent')] ??= process.ppid;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// one bundle per checkout: git worktrees may share one node_modules
const checkoutKey = createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 12);
const bundle = join(root, 'node_modules', '.cache', 'intentsim', checkoutKey, 'cli.mjs');

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
 * Chunks are named by their hash, so each rebuild after a source change writes new ones: drop those
 * this build did not write once they are a minute old (a CLI started a moment ago may still be
 * loading them; two CLIs building at once write the same files).
 */
function dropStaleChunks(outdir, metafile) {
  const chunks = join(outdir, 'chunks');
  const written = new Set(Object.keys(metafile.outputs).map((output) => basename(output)));
  for (const name of existsSync(chunks) ? readdirSync(chunks) : []) {
    const path = join(chunks, name);
    if (!written.has(name) && Date.now() - statSync(path).mtimeMs > 60_000) rmSync(path, { force: true });
  }
}

async function freshBundle() {
  const sourcesChanged = Math.max(newestSourceMtime(join(root, 'src')), newestSourceMtime(join(root, 'fixtures')), newestSourceMtime(join(root, 'conformance')), statSync(join(root, 'package.json')).mtimeMs, statSync(fileURLToPath(import.meta.url)).mtimeMs);
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sourcesChanged) return bundle;
  const { build } = await import('esbuild');
  mkdirSync(dirname(bundle), { recursive: true });
  const built = await build({
    entryPoints: { cli: join(root, 'src', 'cli.ts') },
    outdir: dirname(bundle),
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
    metafile: true,
  });
  dropStaleChunks(dirname(bundle), built.metafile);
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
