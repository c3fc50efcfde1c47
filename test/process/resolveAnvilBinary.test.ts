import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AnvilBinaryNotFoundError, resolveAnvilBinary } from '../../src/process/resolveAnvilBinary';
import { anvilPackageFor } from '../../src/process/supportedPlatform';

const scratch = mkdtempSync(join(tmpdir(), 'intentsim-resolve-anvil-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writeScript(directory: string, name: string, mode: number): string {
  const path = join(directory, name);
  writeFileSync(path, '#!/bin/sh\necho fake anvil\n');
  chmodSync(path, mode);
  return path;
}

const noPackage = (): undefined => undefined;

describe('resolveAnvilBinary', () => {
  it('returns an explicit path when it is an executable file, ahead of the package and PATH', () => {
    const explicitPath = writeScript(mkdtempSync(join(scratch, 'explicit-')), 'my-anvil', 0o755);
    const pathDirectory = mkdtempSync(join(scratch, 'path-'));
    writeScript(pathDirectory, 'anvil', 0o755);

    expect(resolveAnvilBinary({ explicitPath, pathEnv: pathDirectory })).toBe(explicitPath);
  });

  it('throws when the explicit path does not exist, without falling back', () => {
    const missing = join(scratch, 'no-such-anvil');
    expect(() => resolveAnvilBinary({ explicitPath: missing })).toThrow(AnvilBinaryNotFoundError);
    expect(() => resolveAnvilBinary({ explicitPath: missing })).toThrow(`${missing}: does not exist`);
  });

  it('throws when the explicit path is not executable', () => {
    const notExecutable = writeScript(mkdtempSync(join(scratch, 'noexec-')), 'anvil', 0o644);
    expect(() => resolveAnvilBinary({ explicitPath: notExecutable })).toThrow('not executable');
  });

  it("falls back to the binary shipped by this platform's @foundry-rs/anvil-<os>-<cpu> package", () => {
    const binary = resolveAnvilBinary({ pathEnv: '' });
    expect(realpathSync(binary)).toBe(
      realpathSync(join(process.cwd(), `node_modules/${anvilPackageFor()}/bin/anvil`)),
    );
  });

  it('falls back to anvil on the given PATH when the package lookup finds nothing', () => {
    const withoutAnvil = mkdtempSync(join(scratch, 'empty-'));
    const withAnvil = mkdtempSync(join(scratch, 'bin-'));
    const notExecutableFirst = mkdtempSync(join(scratch, 'noexec-path-'));
    writeScript(notExecutableFirst, 'anvil', 0o644);
    const anvilOnPath = writeScript(withAnvil, 'anvil', 0o755);
    const pathEnv = ['', withoutAnvil, notExecutableFirst, withAnvil].join(delimiter);

    expect(resolveAnvilBinary({ pathEnv, packageResolver: noPackage })).toBe(anvilOnPath);
  });

  it('names all three places looked in when nothing is found', () => {
    const pathEnv = mkdtempSync(join(scratch, 'nothing-'));
    let thrown: unknown;
    try {
      resolveAnvilBinary({ pathEnv, packageResolver: noPackage });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AnvilBinaryNotFoundError);
    const error = thrown as AnvilBinaryNotFoundError;
    expect(error.searched).toHaveLength(3);
    expect(error.message).toContain('INTENTSIM_ANVIL');
    expect(error.message).toContain(anvilPackageFor());
    expect(error.message).toContain(`PATH (${pathEnv})`);
  });
});
