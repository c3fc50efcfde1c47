import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The tarball `npm pack` makes of a checkout, kept in node_modules/.cache/intentsim-package/ by a
 * hash of everything its build and its packing read: `prepack` builds dist/ (scripts/build-package.ts:
 * esbuild, the declarations, the explorer; ~20 s of CPU), the same bytes for the same inputs. A
 * change to any input packs again, as scripts/compiledContractsCache.ts compiles the contracts again.
 * The inputs: the sources the bundles and declarations are made of (src/, conformance/, fixtures/
 * and web/, the explorer's browser code), the CLI's bin, the build's own scripts, what npm packs
 * beside dist/ (package.json, README.md), the TypeScript configurations, the lockfile and what npm
 * installed (node_modules/.package-lock.json: esbuild, rollup, TypeScript and Scalar's renderer are
 * devDependencies), and Node's version (npm's with it).
 */
const INPUT_DIRS = ['src', 'conformance', 'fixtures', 'web', 'bin', join('scripts', 'build')];
const INPUT_FILES = ['scripts/build-package.ts', 'package.json', 'package-lock.json', 'README.md', 'tsconfig.json', 'tsconfig.declarations.json', '.gitignore', 'node_modules/.package-lock.json'];

const KEPT_TARBALLS = 4;

/** What `npm pack --json` says of the tarball it wrote. */
export interface PackedTarball {
  /** The tarball's path (in the destination given). */
  tarball: string;
  size: number;
  /** Paths of the files in it, relative to the package's root. */
  files: string[];
  /** Whether it came from the cache (the same inputs were packed before). */
  cached: boolean;
}

interface PackJson {
  filename: string;
  size: number;
  files: Array<{ path: string }>;
}

function filesBelow(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
}

/** The cache key of packing `root` now: a hash of every input's path and bytes. */
export function packInputsKey(root: string): string {
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  const files = [...INPUT_DIRS.flatMap((dir) => filesBelow(root, dir)), ...INPUT_FILES.filter((file) => existsSync(join(root, file)))].sort();
  for (const file of files) hash.update(`${file}\n`).update(createHash('sha256').update(readFileSync(join(root, file))).digest('hex')).update('\n');
  return hash.digest('hex');
}

/**
 * `npm pack` of `root` into `destination`, or the tarball it made of the same inputs before (copied
 * there). The cache keeps the `KEPT_TARBALLS` tarballs used last.
 */
export async function packedTarball(root: string, destination: string): Promise<PackedTarball> {
  const cacheDir = join(root, 'node_modules', '.cache', 'intentsim-package');
  const key = packInputsKey(root);
  const entry = join(cacheDir, key);
  if (existsSync(join(entry, 'pack.json'))) {
    const packed = JSON.parse(readFileSync(join(entry, 'pack.json'), 'utf8')) as PackJson;
    copyFileSync(join(entry, packed.filename), join(destination, packed.filename));
    const now = new Date();
    utimesSync(entry, now, now);
    return { tarball: join(destination, packed.filename), size: packed.size, files: packed.files.map((file) => file.path), cached: true };
  }
  // the build shares 2 cores with the suite and its type check
  const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', destination], { cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
  // prepack's build prints above npm's JSON
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as PackJson[];
  const tarball = join(destination, packed!.filename);
  if (packInputsKey(root) === key) {
    // written whole beside, then renamed into place: a reader sees all of an entry or none
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${entry}.${process.pid}.tmp`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial);
    copyFileSync(tarball, join(partial, packed!.filename));
    writeFileSync(join(partial, 'pack.json'), JSON.stringify({ filename: packed!.filename, size: packed!.size, files: packed!.files.map((file) => ({ path: file.path })) }));
    try {
      renameSync(partial, entry);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another run put the same inputs' tarball in place first
    }
    // the most recently used few stay (git worktrees sharing one node_modules each pack their own sources)
    const entries = readdirSync(cacheDir).filter((name) => /^[0-9a-f]{64}$/.test(name));
    const newestFirst = entries.map((name) => ({ name, mtimeMs: statSync(join(cacheDir, name)).mtimeMs })).sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const { name } of newestFirst.slice(KEPT_TARBALLS)) rmSync(join(cacheDir, name), { recursive: true, force: true });
  }
  return { tarball, size: packed!.size, files: packed!.files.map((file) => file.path), cached: false };
}
