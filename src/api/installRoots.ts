import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root, set by bin/intentsim.js when it bundles the CLI (the bundle lives in
 * node_modules/.cache, which a git worktree may share with another checkout); unset when src/
 * runs as it is (tests, tsx) or from the package's dist/, where the root is found from this file.
 */
declare const __INTENTSIM_ROOT__: string | undefined;

/**
 * The directories that may be intentsim's root, most likely first: the checkout's root the CLI's
 * bundle was built from, then the directory of the running code and each one above it (a checkout's
 * src/… or an installed package's dist/…). The browser assets (the explorer, the API reference
 * renderer) are found from these: in a checkout beside the sources, in a package in its dist/.
 */
export function installRoots(): string[] {
  const roots: string[] = [];
  if (typeof __INTENTSIM_ROOT__ === 'string') roots.push(__INTENTSIM_ROOT__);
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) roots.push(dir);
  return roots;
}
