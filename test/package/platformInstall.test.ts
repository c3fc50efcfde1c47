import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { anvilPackageFor, assertSupportedPlatform } from '../../src/process/supportedPlatform';

/**
 * Integrators develop on macOS and run CI on Linux x64 and arm64: the lockfile must give each of
 * those machines its own Anvil and LiteSVM builds, and nothing another machine cannot install as a
 * required package. `npm ci --os --cpu --dry-run` reads what npm would install there (offline).
 */
const root = join(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'intentsim-platform-install-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function packagesInstalledOn(os: string, cpu: string): Promise<string[]> {
  const dir = mkdtempSync(join(scratch, `${os}-${cpu}-`));
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(dir, file));
  const { stdout } = await promisify(execFile)('npm', ['ci', `--os=${os}`, `--cpu=${cpu}`, '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\n').flatMap((line) => /^add (\S+) /.exec(line)?.[1] ?? []);
}

const nativeBuilds = (packages: readonly string[]) => packages.filter((name) => /^(@foundry-rs\/anvil-|litesvm-)/.test(name)).sort();

describe('installs on every supported platform from the lockfile', () => {
  it('macOS arm64 and Linux arm64 each take their own Anvil and LiteSVM, and no other platform\'s', async () => {
    const [mac, linuxArm] = await Promise.all([packagesInstalledOn('darwin', 'arm64'), packagesInstalledOn('linux', 'arm64')]);
    expect(mac).toContain('better-sqlite3'); // it builds or fetches its binary at install
    expect(nativeBuilds(mac)).toEqual(['@foundry-rs/anvil-darwin-arm64', 'litesvm-darwin-arm64']);
    expect(nativeBuilds(linuxArm)).toEqual(expect.arrayContaining(['@foundry-rs/anvil-linux-arm64', 'litesvm-linux-arm64-gnu']));
    expect(nativeBuilds(linuxArm).filter((name) => /x64|amd64|darwin/.test(name))).toEqual([]);
  });

  it('names the Anvil package of each supported machine, and refuses others in one line saying what to do', () => {
    expect(anvilPackageFor('darwin', 'x64')).toBe('@foundry-rs/anvil-darwin-amd64');
    expect(anvilPackageFor('linux', 'x64')).toBe('@foundry-rs/anvil-linux-amd64');
    expect(anvilPackageFor('win32', 'x64')).toBeUndefined();
    expect(() => assertSupportedPlatform('linux', 'x64')).not.toThrow();
    expect(() => assertSupportedPlatform('win32', 'x64')).toThrow('intentsim does not run on Windows x64: Anvil and LiteSVM publish no build for it; run it in WSL 2 (a Linux x64 or arm64 machine) (docs/platforms.md)');
    expect(() => assertSupportedPlatform('freebsd', 'x64')).toThrow(/^intentsim does not run on freebsd x64: .*macOS \(arm64, x64\) or Linux \(x64, arm64\)/);
  });
});
