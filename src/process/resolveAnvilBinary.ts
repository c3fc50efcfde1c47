import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ProcessError } from '../errors/IntentsimError';
import { anvilPackageFor } from './supportedPlatform';

/** Finds the anvil binary shipped by an npm package; `undefined` when there is none. */
export type PackagedAnvilResolver = () => string | undefined;

export type ResolveAnvilBinaryParameters = {
  /** A path chosen by the user (the caller passes `INTENTSIM_ANVIL`). Wins when given; must exist and be executable. */
  explicitPath?: string;
  /** The PATH string to search last (the caller passes `process.env.PATH`). Omitted: PATH is not searched. */
  pathEnv?: string;
  /** Replaces the lookup of this platform's `@foundry-rs/anvil-<os>-<cpu>` (tests use it to make that lookup fail). */
  packageResolver?: PackagedAnvilResolver;
};

export type ResolveAnvilBinaryReturnType = string;

/** The optional package npm installed for this machine (package.json lists one per supported platform). */
const anvilPackageName = anvilPackageFor() ?? `@foundry-rs/anvil (no package for ${process.platform}-${process.arch})`;

export class AnvilBinaryNotFoundError extends ProcessError {
  override readonly name = 'AnvilBinaryNotFoundError';
  /** Every place looked in, in order, each with why it did not qualify. */
  readonly searched: readonly string[];

  constructor(searched: readonly string[]) {
    super(
      [
        'No usable anvil binary found. Looked in:',
        ...searched.map((place, index) => `  ${index + 1}. ${place}`),
        `Set INTENTSIM_ANVIL to an anvil binary, install ${anvilPackageName}, or put anvil on PATH.`,
      ].join('\n'),
    );
    this.searched = searched;
  }
}

/**
 * Picks the anvil binary: an explicit path, else the one shipped by this platform's `@foundry-rs/anvil-<os>-<cpu>`,
 * else `anvil` on the given PATH. Reads no environment itself.
 */
export function resolveAnvilBinary(parameters: ResolveAnvilBinaryParameters = {}): ResolveAnvilBinaryReturnType {
  const { explicitPath, pathEnv, packageResolver = findPackagedAnvilBinary } = parameters;

  if (explicitPath !== undefined && explicitPath !== '') {
    const absolutePath = resolve(explicitPath);
    const problem = executableFileProblem(absolutePath);
    if (problem !== undefined) {
      throw new AnvilBinaryNotFoundError([`explicit path (INTENTSIM_ANVIL) ${absolutePath}: ${problem}`]);
    }
    return absolutePath;
  }

  const packagedBinary = packageResolver();
  if (packagedBinary !== undefined) return packagedBinary;

  if (pathEnv !== undefined) {
    const onPath = findOnPath('anvil', pathEnv);
    if (onPath !== undefined) return onPath;
  }

  throw new AnvilBinaryNotFoundError([
    'explicit path (INTENTSIM_ANVIL): not set',
    `npm package ${anvilPackageName}: not installed or has no executable binary`,
    pathEnv === undefined ? 'PATH: not given' : `PATH (${pathEnv === '' ? 'empty' : pathEnv}): no executable named anvil`,
  ]);
}

/** The binary named in the package's `bin` field, if the package is installed and the file is executable. */
function findPackagedAnvilBinary(): string | undefined {
  let packageJsonPath: string;
  if (anvilPackageFor() === undefined) return undefined;
  try {
    packageJsonPath = createRequire(import.meta.url).resolve(`${anvilPackageName}/package.json`);
  } catch {
    return undefined;
  }
  const binaryPath = join(dirname(packageJsonPath), readAnvilBinEntry(packageJsonPath));
  return executableFileProblem(binaryPath) === undefined ? binaryPath : undefined;
}

/** `bin` is either a string or `{ anvil: "./bin/anvil" }`; `bin/anvil` when the manifest says nothing usable. */
function readAnvilBinEntry(packageJsonPath: string): string {
  const fallback = 'bin/anvil';
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  } catch {
    return fallback;
  }
  if (typeof manifest !== 'object' || manifest === null || !('bin' in manifest)) return fallback;
  const bin: unknown = manifest.bin;
  if (typeof bin === 'string') return bin;
  if (typeof bin === 'object' && bin !== null && 'anvil' in bin && typeof bin.anvil === 'string') return bin.anvil;
  return fallback;
}

export function findOnPath(command: string, pathEnv: string): string | undefined {
  for (const directory of pathEnv.split(delimiter)) {
    if (directory === '') continue;
    const candidate = resolve(directory, command);
    if (executableFileProblem(candidate) === undefined) return candidate;
  }
  return undefined;
}

/** Why `path` cannot be run, or `undefined` when it is an executable file. */
export function executableFileProblem(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return 'not a file';
  } catch {
    return 'does not exist';
  }
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return 'not executable';
  }
  return undefined;
}
