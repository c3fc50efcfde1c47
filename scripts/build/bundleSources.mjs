// @ts-check
/**
 * The one esbuild recipe for intentsim's sources, used by both of its builds:
 * - the CLI of a source checkout, bundled at its first start by bin/intentsim.js (plain node, no
 *   TypeScript loader: so this file is JavaScript) into node_modules/.cache/intentsim/;
 * - the package's ESM JavaScript in dist/ (`npm run build`, scripts/build-package.ts), whose
 *   CommonJS files start from `NODE_BUNDLE_BASE` too.
 * (test/docs/packageBundle.ts bundles the package's index with it too, as the package does, for the doc snippets.)
 * It does not ship: an installed package runs dist/cli.js and never builds.
 */
import { join } from 'node:path';

/** The CLI's entry point, below the checkout's root. */
export const CLI_SOURCE = 'src/cli.ts';

/**
 * Packages loaded from node_modules at run time even when dependencies are bundled: native addons
 * (better-sqlite3, litesvm, the optional ws helpers), esbuild itself (the explorer's page is
 * bundled on demand) and playwright-core. A new dependency with native parts or files of its own
 * goes on this list.
 */
export const NATIVE_EXTERNALS = ['better-sqlite3', 'litesvm', 'esbuild', 'bufferutil', 'utf-8-validate', 'playwright-core'];

/**
 * Native packages whose JavaScript is bundled all the same, only the module that loads the addon
 * left to run from node_modules. LiteSVM's wrapper (dist/index.js) is CommonJS and requires
 * @solana/kit: run from node_modules it loads the whole of kit's CommonJS build (25 packages, ~0.1 s
 * of CPU at every start) beside the bundle's own copy. Bundled, its `require('@solana/kit')` is
 * given a module of ours that re-exports, from kit's ES build the bundle already holds, just the
 * names the wrapper reads (`kit_1.<name>`, read from the wrapper itself), and `require('./internal')`,
 * the addon's loader, stays a require of node_modules (`litesvm/dist/internal.js`).
 */
const NATIVE_LOADERS = [{ packageName: 'litesvm', wrapperDir: join('node_modules', 'litesvm', 'dist'), loader: /^\.\/internal$/, external: 'litesvm/dist/internal.js' }];

/** @type {import('esbuild').Plugin} */
const bundleNativeWrappers = {
  name: 'bundle-native-wrappers',
  setup(builder) {
    for (const { wrapperDir, loader, external } of NATIVE_LOADERS) {
      builder.onResolve({ filter: loader }, (args) => (args.importer.includes(wrapperDir) ? { path: external, external: true } : undefined));
      builder.onResolve({ filter: /^@solana\/kit$/ }, (args) =>
        args.importer.includes(wrapperDir) && args.kind === 'require-call' ? { path: args.importer, namespace: 'kit-names-of' } : undefined,
      );
    }
    builder.onLoad({ filter: /.*/, namespace: 'kit-names-of' }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const { dirname } = await import('node:path');
      const names = [...new Set([...(await readFile(args.path, 'utf8')).matchAll(/\bkit_1\.(\w+)/g)].map((match) => match[1]))];
      return { contents: `export { ${names.join(', ')} } from '@solana/kit';`, resolveDir: dirname(args.path), loader: 'js' };
    });
  },
};

/** What every build of the sources shares: one bundle per entry for Node 20. */
export const NODE_BUNDLE_BASE = /** @type {const} */ ({ bundle: true, platform: 'node', target: 'node20', legalComments: 'none' });

/**
 * @typedef {object} BundleSourcesOptions
 * @property {string} root the checkout's root
 * @property {Record<string, string>} entryPoints output name → source file below `root` (`bundled`: one entry)
 * @property {string} outdir
 * @property {'bundled' | 'external'} dependencies `bundled` (the checkout's CLI): one CommonJS file,
 *   `<name>.cjs`, with the dependencies bundled too, tree-shaken, and the output minified — one file
 *   to load instead of hundreds of viem modules to resolve and compile at every start (~1 s), less
 *   text to decode (~0.1 s); only `NATIVE_EXTERNALS` stay requires (of those in `NATIVE_LOADERS`,
 *   only the addon's loader). CommonJS because bin/intentsim.js runs it as a `vm.Script` with V8's
 *   code cache (Node 20 has none for ES modules): `import()` becomes a require, modules imported on
 *   demand (the SVM chain's runtime, the subcommands other than `start`) still run only when used,
 *   and `import.meta.url` is the file's URL. `.cjs`: the cache is outside any package's scope.
 *   `external` (the package): ES modules, every dependency stays an import of node_modules,
 *   installed beside the package; shared code in one chunk, code loaded on demand in chunks of its
 *   own; `.js` in the package's own `"type": "module"` scope.
 * @property {boolean} explorerSourcesInRoot the bundle runs away from the sources: the explorer's
 *   browser sources are found in `root` (src/api/explorer/explorerBundle.ts), not in dist/explorer/
 * @property {'silent' | 'warning'} logLevel
 */

/**
 * The build options of either build (`dependencies`, above).
 * @param {BundleSourcesOptions} options
 * @returns {import('esbuild').BuildOptions}
 */
export function bundleSourcesOptions({ root, entryPoints, outdir, dependencies, explorerSourcesInRoot, logLevel }) {
  const bundled = dependencies === 'bundled';
  /** @type {Record<string, string>} */
  const rootDefine = explorerSourcesInRoot ? { __INTENTSIM_ROOT__: JSON.stringify(root) } : {};
  return {
    ...NODE_BUNDLE_BASE,
    entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([name, source]) => [name, join(root, source)])),
    outdir,
    logLevel,
    ...(bundled
      ? {
          format: /** @type {const} */ ('cjs'),
          external: NATIVE_EXTERNALS.filter((name) => !NATIVE_LOADERS.some((native) => native.packageName === name)),
          plugins: [bundleNativeWrappers],
          // a vm.Script has no loader for import(): each one is a require (every external is CommonJS)
          supported: { 'dynamic-import': false },
          // the sources find their own files through import.meta.url (better-sqlite3's worker, the anvil package)
          define: { 'import.meta.url': '__intentsimImportMetaUrl', ...rootDefine },
          banner: { js: "const __intentsimImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
          outExtension: { '.js': '.cjs' },
          // names stay as written (errors and logs show them)
          minifyWhitespace: true,
          minifySyntax: true,
        }
      : { format: /** @type {const} */ ('esm'), splitting: true, chunkNames: 'chunks/[name]-[hash]', packages: /** @type {const} */ ('external'), define: rootDefine }),
  };
}

/**
 * Builds the sources with `bundleSourcesOptions`.
 * @param {BundleSourcesOptions} options
 */
export async function bundleSources(options) {
  const { build } = await import('esbuild');
  return build(bundleSourcesOptions(options));
}
