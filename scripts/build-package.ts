/**
 * `npm run build` (and `prepack`): the installable package in dist/ — JavaScript for Node's ESM
 * and CommonJS, bundled declaration files, the prebuilt CLI, the explorer's browser bundle and the
 * API reference renderer (copied from the devDependency @scalar/api-reference).
 * The package's `exports` map (package.json) names these files. Dependencies stay dependencies
 * (installed beside the package, never bundled): several have native parts or files of their own.
 * What only builds or tests (esbuild, tsx, solc, @scalar/api-reference) is a devDependency: the
 * installed package runs from dist/ without it.
 * The ESM build is the recipe the checkout's CLI is bundled with (scripts/build/bundleSources.mjs),
 * dependencies kept external.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { bundleSources, CLI_SOURCE, NODE_BUNDLE_BASE } from './build/bundleSources.mjs';
import { emitDeclarations } from './build/emitDeclarations';
import { bundleExplorerSources, EXPLORER_SCRIPT_FILE, EXPLORER_STYLES_FILE, PREBUILT_EXPLORER_DIR } from '../src/api/explorer/explorerBundle';
import { checkoutApiReferenceRenderer, PREBUILT_API_REFERENCE_RENDERER } from '../src/api/openapi/apiReferenceRenderer';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');

/** One entry of the package (dist/<name>.js, and .cjs when `commonJs`): its source. */
interface PackageEntry {
  source: string;
  commonJs: boolean;
}

const ENTRIES: Record<string, PackageEntry> = {
  index: { source: 'src/index.ts', commonJs: true },
  conformance: { source: 'conformance/index.ts', commonJs: true },
  scenario: { source: 'src/scenario/index.ts', commonJs: true },
  vitest: { source: 'src/testRunners/vitestGlobalSetup.ts', commonJs: false },
  'vitest-isolate': { source: 'src/testRunners/vitestIsolate.ts', commonJs: false },
  jest: { source: 'src/testRunners/jest.ts', commonJs: true },
  'jest-global-setup': { source: 'src/testRunners/jestGlobalSetup.ts', commonJs: true },
  'jest-global-teardown': { source: 'src/testRunners/jestGlobalTeardown.ts', commonJs: true },
  'jest-isolate': { source: 'src/testRunners/jestIsolate.ts', commonJs: true },
};

const COMMON = { ...NODE_BUNDLE_BASE, packages: 'external', logLevel: 'warning' } as const;

/**
 * CommonJS has no shared chunks: each entry is its own file. So that a process holds one
 * simulator module graph (one class per error, one orphan reaper), an entry requires the entry
 * that owns a module rather than bundling a second copy: these modules are owned by the entry
 * named, which exports every name the other entries import from them.
 */
const COMMONJS_OWNERS: Record<string, string> = {
  'src/index.ts': 'index',
  'src/simulator.ts': 'index',
  'src/scenario/runScenario.ts': 'index',
  'src/scenario/loadScenarioFile.ts': 'index',
  'src/scenario/runScenarioFiles.ts': 'index',
  'conformance/index.ts': 'conformance',
  'src/testRunners/jest.ts': 'jest',
};

function requireOwningEntries(entryName: string): Plugin {
  return {
    name: 'require-owning-entries',
    setup(builder) {
      builder.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData === 'owner-lookup') return undefined;
        const resolved = await builder.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'owner-lookup' });
        const owner = COMMONJS_OWNERS[relative(root, resolved.path)];
        if (owner === undefined || owner === entryName) return undefined;
        return { path: `./${owner}.cjs`, external: true };
      });
    },
  };
}

/** The ESM entries and the CLI, run by bin/intentsim.js in an installed copy (ESM only, no declarations). */
async function buildEsm(): Promise<void> {
  const entryPoints = { ...Object.fromEntries(Object.entries(ENTRIES).map(([name, entry]) => [name, entry.source])), cli: CLI_SOURCE };
  await bundleSources({ root, entryPoints, outdir: dist, dependencies: 'external', explorerSourcesInRoot: false, logLevel: 'warning' });
}

async function buildCommonJs(): Promise<void> {
  for (const [name, entry] of Object.entries(ENTRIES)) {
    if (!entry.commonJs) continue;
    await build({
      ...COMMON,
      entryPoints: [join(root, entry.source)],
      outfile: join(dist, `${name}.cjs`),
      format: 'cjs',
      // the sources find their own files through import.meta.url (better-sqlite3's worker, the explorer)
      define: { 'import.meta.url': '__intentsimImportMetaUrl' },
      banner: { js: "const __intentsimImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
      plugins: [requireOwningEntries(name)],
    });
  }
}

/**
 * Declarations: tsc's declaration emit writes one per source file the entries reach
 * (./build/emitDeclarations.ts: tsconfig.declarations.json, without checking the program — the
 * project's own type check is in npm test), then rollup-plugin-dts bundles them per entry, `.d.ts`
 * for `import` and `.d.cts` for `require`, with the types entries share in chunks (one declaration
 * of each class).
 */
async function buildDeclarations(): Promise<void> {
  const emitted = mkdtempSync(join(tmpdir(), 'intentsim-declarations-'));
  try {
    emitDeclarations({ root, tsconfigPath: join(root, 'tsconfig.declarations.json'), entries: Object.values(ENTRIES).map((entry) => entry.source), outDir: emitted });
    const bundle = await rollup({
      input: Object.fromEntries(Object.entries(ENTRIES).map(([name, entry]) => [name, join(emitted, entry.source.replace(/\.ts$/, '.d.ts'))])),
      plugins: [dts()],
      // the packages' own types stay imports of those packages
      external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    });
    await bundle.write({ dir: dist, format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/[name]-[hash].d.ts' });
    await bundle.write({ dir: dist, format: 'es', entryFileNames: '[name].d.cts', chunkFileNames: 'chunks/[name]-[hash].d.cts' });
    await bundle.close();
    for (const [name, entry] of Object.entries(ENTRIES)) if (!entry.commonJs) rmSync(join(dist, `${name}.d.cts`));
  } finally {
    rmSync(emitted, { recursive: true, force: true });
  }
}

async function buildExplorer(): Promise<void> {
  const assets = await bundleExplorerSources(join(root, 'web', 'explorer'));
  const dir = join(root, PREBUILT_EXPLORER_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, EXPLORER_SCRIPT_FILE), assets.script);
  writeFileSync(join(dir, EXPLORER_STYLES_FILE), assets.styles);
}

/** Scalar's standalone renderer, one file: the package serves it without installing @scalar/api-reference. */
function copyApiReferenceRenderer(): void {
  const target = join(root, PREBUILT_API_REFERENCE_RENDERER);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(checkoutApiReferenceRenderer(root), target);
}

const started = performance.now();
rmSync(dist, { recursive: true, force: true });
copyApiReferenceRenderer();
await Promise.all([buildEsm(), buildCommonJs(), buildExplorer(), buildDeclarations()]);
process.stdout.write(`dist/ built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
