import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of package-lock.json (lockfileVersion 3) that say what a package depends on. */
interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** The lock path that `name` required from the package at `from` resolves to, as Node finds it (nearest node_modules first). */
function resolveInLock(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir = from; ; ) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (dir === '') return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}

/**
 * What `npm install intentsim` puts into a user's node_modules, read from this checkout's lock: the
 * packages reached from the root's `dependencies` and `optionalDependencies` through theirs and
 * their required peers. Optional peers (TypeScript for viem and @solana/kit) are not installed for
 * them: npm leaves those to the user. Returns the lock's paths ("node_modules/a",
 * "node_modules/a/node_modules/b").
 */
export function productionInstall(lock: { packages: Record<string, LockEntry> }): string[] {
  const { packages } = lock;
  const reached = new Set<string>();
  const visit = (from: string): void => {
    const entry = packages[from]!;
    const optionalPeers = new Set(Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional === true).map(([name]) => name));
    const requiredPeers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers.has(name));
    for (const name of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...requiredPeers]) {
      const path = resolveInLock(packages, from, name);
      if (path === undefined || reached.has(path)) continue; // an optional dependency for another platform may be absent from the lock
      reached.add(path);
      visit(path);
    }
  };
  visit('');
  return [...reached].sort();
}

/** The disk space (as `du -L` counts it: blocks, each file once) and the number of packages below a node_modules, symlinks followed. */
export function nodeModulesFootprint(nodeModules: string): { bytes: number; packages: number } {
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  let bytes = 0;
  let packages = 0;
  const walk = (dir: string, isNodeModules: boolean): void => {
    const real = realpathSync(dir);
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      const stats = statSync(path, { throwIfNoEntry: false }); // follows symlinks; a dangling one is skipped
      if (stats === undefined) continue;
      if (stats.isDirectory()) {
        if (isNodeModules && entry.startsWith('@')) {
          for (const scoped of readdirSync(path)) {
            if (statSync(join(path, scoped), { throwIfNoEntry: false })?.isDirectory()) {
              packages += 1;
              walk(join(path, scoped), false);
            }
          }
          continue;
        }
        if (isNodeModules && !entry.startsWith('.')) packages += 1;
        walk(path, entry === 'node_modules');
      } else if (stats.isFile()) {
        const key = `${stats.dev}:${stats.ino}`;
        if (seenFiles.has(key)) continue;
        seenFiles.add(key);
        bytes += stats.blocks * 512;
      }
    }
  };
  walk(nodeModules, true);
  return { bytes, packages };
}
