import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * bin/intentsim.js in a source checkout bundles src/ with esbuild (scripts/build/bundleSources.mjs)
 * when a source, the lockfile or the installed dependencies are newer than its bundle. CLIs started
 * side by side right after an edit (a CI matrix's shards on one runner) each load one whole build,
 * made once: one takes the build's lock and builds, the others wait for it; each build is a
 * directory of its own that appears complete. The bundle runs with V8's code cache
 * of its subcommand, left beside it by the first run. A build that fails says so and the CLI runs
 * through tsx's loader.
 */
const run = promisify(execFile);
const checkout = mkdtempSync(join(tmpdir(), 'intentsim-bin-builds-'));
for (const part of ['bin', 'src', 'fixtures', 'conformance', 'scripts/build', 'package.json', 'package-lock.json']) {
  mkdirSync(dirname(join(checkout, part)), { recursive: true });
  cpSync(resolve(part), join(checkout, part), { recursive: true });
}
symlinkSync(resolve('node_modules'), join(checkout, 'node_modules'));
// where the copy's builds go: the shared node_modules' cache, under the copy's own key
const builds = join(resolve('node_modules'), '.cache', 'intentsim', createHash('sha256').update(realpathSync(checkout)).digest('hex').slice(0, 12));
afterAll(() => {
  rmSync(builds, { recursive: true, force: true });
  rmSync(checkout, { recursive: true, force: true });
});

const help = () => run(join(checkout, 'bin', 'intentsim.js'), ['start', '--help'], { encoding: 'utf8', timeout: 120_000 });

describe('the CLI bundle of a source checkout', () => {
  it('four CLIs started at once on changed sources all run, from one complete build that one of them made', async () => {
    // each build is made in a `<name>.building-*` directory of its own: the ones seen while the CLIs run are the builds made
    const buildsSeen = new Set<string>();
    const watch = setInterval(() => {
      for (const name of existsSync(builds) ? readdirSync(builds) : []) if (name.includes('.building-')) buildsSeen.add(name);
    }, 5);
    const outputs = await Promise.all([help(), help(), help(), help()]).finally(() => clearInterval(watch));
    expect([...buildsSeen]).toHaveLength(1);
    for (const { stdout, stderr } of outputs) {
      expect(stdout).toContain('Usage: intentsim start');
      expect(stderr).toBe('');
    }
    const made = readdirSync(builds);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(/^sources-\d+$/);
    // one bundle, and the code cache the first `start` left (one whole file, whichever CLI wrote last)
    const files = readdirSync(join(builds, made[0]!));
    expect(files).toContain('cli.cjs');
    expect(files.filter((file) => /^start-[0-9a-f]{8}\.v8cache$/.test(file))).toHaveLength(1);
    expect(files.filter((file) => !file.endsWith('.v8cache') && file !== 'cli.cjs')).toEqual([]);
  });

  it("runs a subcommand with the code cache its first run left, unchanged (V8 took it); a cache V8 refuses is made again", async () => {
    const [build] = readdirSync(builds);
    const cacheOf = () => readdirSync(join(builds, build!)).find((file) => /^start-[0-9a-f]{8}\.v8cache$/.test(file))!;
    const cache = join(builds, build!, cacheOf());
    const before = { mtimeMs: statSync(cache).mtimeMs, bytes: readFileSync(cache) };
    expect(before.bytes.length).toBeGreaterThan(100_000);
    const again = await help();
    expect(again.stdout).toContain('Usage: intentsim start');
    expect(again.stderr).toBe('');
    // a cache V8 had refused would have been written again at exit
    expect(statSync(cache).mtimeMs).toBe(before.mtimeMs);
    expect(readFileSync(cache).equals(before.bytes)).toBe(true);

    writeFileSync(cache, 'not a code cache');
    const refused = await help();
    expect(refused.stdout).toContain('Usage: intentsim start');
    expect(refused.stderr).toBe('');
    expect(readFileSync(cache).length).toBeGreaterThan(100_000);
  });

  it('a lockfile newer than the build makes a new build, named by its time, even where a killed CLI left its lock', async () => {
    const lockfile = join(checkout, 'package-lock.json');
    const now = new Date();
    utimesSync(lockfile, now, now);
    const expected = `sources-${Math.floor(statSync(lockfile).mtimeMs)}`;
    expect(existsSync(join(builds, expected))).toBe(false);
    // the lock of that build left by a CLI killed while it built: its pid runs no more
    const gone = await run(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    mkdirSync(join(builds, `${expected}.lock`));
    writeFileSync(join(builds, `${expected}.lock`, 'pid'), gone.stdout);
    const { stdout, stderr } = await help();
    expect(stdout).toContain('Usage: intentsim start');
    expect(stderr).toBe('');
    expect(readdirSync(join(builds, expected))).toContain('cli.cjs');
    expect(existsSync(join(builds, `${expected}.lock`))).toBe(false);
  });

  it('a build that fails says why on stderr, and the CLI still runs through tsx', async () => {
    // the cache directory cannot be made: a file is where it goes (as in a read-only node_modules)
    rmSync(builds, { recursive: true, force: true });
    writeFileSync(builds, 'not a directory');
    const { stdout, stderr } = await help();
    expect(stdout).toContain('Usage: intentsim start');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^intentsim: could not bundle the CLI \(EEXIST: .*\)$/);
    expect(lines[1]).toContain('tsx loader');
  });
});
