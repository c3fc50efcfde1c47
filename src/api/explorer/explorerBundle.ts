import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root, set by bin/intentsim.js when it bundles the CLI (the bundle lives in
 * node_modules/.cache, which a git worktree may share with another checkout); unset when src/
 * runs as it is (tests, tsx), where the root is found from this file.
 */
declare const __INTENTSIM_ROOT__: string | undefined;

/** The explorer's browser code: `web/explorer/` (ARCHITECTURE.md), its entry `main.ts`. */
function explorerSourceDir(): string {
  const roots: string[] = [];
  if (typeof __INTENTSIM_ROOT__ === 'string') roots.push(__INTENTSIM_ROOT__);
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) roots.push(dir);
  for (const root of roots) if (existsSync(join(root, 'web', 'explorer', 'main.ts'))) return join(root, 'web', 'explorer');
  throw new Error('the explorer\'s sources (web/explorer/main.ts) are not in this install');
}

export interface ExplorerAssets {
  script: string;
  styles: string;
}

let building: Promise<ExplorerAssets> | undefined;

/**
 * The explorer's script and styles, bundled by esbuild from `web/explorer/` at the first page
 * load and kept in memory for the life of the process: nothing generated is committed or installed,
 * so `npm ci && npx intentsim start` serves it.
 */
export function explorerAssets(): Promise<ExplorerAssets> {
  building ??= buildAssets().catch((error: unknown) => {
    building = undefined;
    throw error;
  });
  return building;
}

async function buildAssets(): Promise<ExplorerAssets> {
  const dir = explorerSourceDir();
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
  return { script, styles: readFileSync(join(dir, 'explorer.css'), 'utf8') };
}
