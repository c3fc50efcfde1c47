import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSources } from '../../scripts/build/bundleSources.mjs';

/** What the bundle of src/index.ts is made of: the sources it reaches, the build's recipe and the installed esbuild. */
const INPUT_DIRS = ['src', 'conformance', 'fixtures', join('scripts', 'build')];
const INPUT_FILES = ['package.json', 'tsconfig.json', join('node_modules', '.package-lock.json')];
const KEPT_BUNDLES = 4;

function filesBelow(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
}

/** A hash of the checkout's path (the bundle names it: the explorer's sources are read there) and of every input's path and bytes. */
function bundleInputsKey(root: string): string {
  const hash = createHash('sha256').update(`${root}\n`);
  const files = [...INPUT_DIRS.filter((dir) => existsSync(join(root, dir))).flatMap((dir) => filesBelow(root, dir)), ...INPUT_FILES.filter((file) => existsSync(join(root, file)))].sort();
  for (const file of files) hash.update(`${file}\n`).update(createHash('sha256').update(readFileSync(join(root, file))).digest('hex')).update('\n');
  return hash.digest('hex').slice(0, 24);
}

/**
 * Writes into `outdir` the package's ES modules of this checkout's sources as the package build
 * makes them (scripts/build/bundleSources.mjs, dependencies left as imports of node_modules), the
 * explorer's browser sources found in the checkout. Kept in node_modules/.cache/intentsim-docs-bundle/
 * by a hash of the inputs: a run whose sources are as before copies the bundle (~0.9 s of esbuild's
 * CPU less); any change to an input bundles again.
 */
export async function writePackageBundle(root: string, outdir: string): Promise<{ cached: boolean }> {
  const cacheDir = join(root, 'node_modules', '.cache', 'intentsim-docs-bundle');
  const kept = join(cacheDir, bundleInputsKey(root));
  const cached = existsSync(kept);
  if (!cached) {
    const building = `${kept}.${process.pid}.tmp`;
    await bundleSources({ root, entryPoints: { index: 'src/index.ts' }, outdir: building, dependencies: 'external', explorerSourcesInRoot: true, logLevel: 'warning' });
    try {
      renameSync(building, kept);
    } catch {
      // another run kept the same bundle first
      rmSync(building, { recursive: true, force: true });
    }
    pruneOldBundles(cacheDir);
  }
  mkdirSync(outdir, { recursive: true });
  cpSync(kept, outdir, { recursive: true });
  return { cached };
}

/** Keeps the `KEPT_BUNDLES` bundles made last. */
function pruneOldBundles(cacheDir: string): void {
  const bundles = readdirSync(cacheDir)
    .filter((name) => !name.endsWith('.tmp'))
    .map((name) => ({ path: join(cacheDir, name), made: statSync(join(cacheDir, name)).mtimeMs }))
    .sort((a, b) => b.made - a.made);
  for (const old of bundles.slice(KEPT_BUNDLES)) rmSync(old.path, { recursive: true, force: true });
}
