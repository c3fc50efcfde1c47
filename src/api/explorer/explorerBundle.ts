import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installRoots } from '../installRoots';

/** Where `npm run build` writes the explorer's bundled script and styles, below the package's root. */
export const PREBUILT_EXPLORER_DIR = join('dist', 'explorer');
export const EXPLORER_SCRIPT_FILE = 'explorer.js';
export const EXPLORER_STYLES_FILE = 'explorer.css';

/**
 * The explorer's browser code, `web/explorer/` (ARCHITECTURE.md), in a checkout; in an installed
 * package, which ships no sources, the assets the build bundled into dist/explorer/.
 */
function findExplorer(): { sourceDir: string } | { prebuiltDir: string } {
  for (const root of installRoots()) {
    if (existsSync(join(root, 'web', 'explorer', 'main.ts'))) return { sourceDir: join(root, 'web', 'explorer') };
    if (existsSync(join(root, PREBUILT_EXPLORER_DIR, EXPLORER_SCRIPT_FILE))) return { prebuiltDir: join(root, PREBUILT_EXPLORER_DIR) };
  }
  throw new Error(`the explorer is not in this install (neither web/explorer/main.ts nor ${join(PREBUILT_EXPLORER_DIR, EXPLORER_SCRIPT_FILE)})`);
}

export interface ExplorerAssets {
  script: string;
  styles: string;
}

let building: Promise<ExplorerAssets> | undefined;

/**
 * The explorer's script and styles, bundled by esbuild from `web/explorer/` at the first page
 * load and kept in memory for the life of the process: nothing generated is committed, so
 * `npm ci && npx intentsim start` serves it. An installed package reads the bundle its build made.
 */
export function explorerAssets(): Promise<ExplorerAssets> {
  building ??= buildAssets().catch((error: unknown) => {
    building = undefined;
    throw error;
  });
  return building;
}

async function buildAssets(): Promise<ExplorerAssets> {
  const found = findExplorer();
  if ('prebuiltDir' in found) {
    return { script: readFileSync(join(found.prebuiltDir, EXPLORER_SCRIPT_FILE), 'utf8'), styles: readFileSync(join(found.prebuiltDir, EXPLORER_STYLES_FILE), 'utf8') };
  }
  return bundleExplorerSources(found.sourceDir);
}

/** esbuild bundles the explorer's sources in `dir` for the browser (at the first page load, or once by `npm run build`). */
export async function bundleExplorerSources(dir: string): Promise<ExplorerAssets> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(dir, 'main.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]?.text;
  if (script === undefined) throw new Error('esbuild wrote no explorer bundle');
  return { script, styles: readFileSync(join(dir, EXPLORER_STYLES_FILE), 'utf8') };
}
