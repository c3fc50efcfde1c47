import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * bin/intentsim.js in a source checkout bundles src/ with esbuild when a source is newer than its
 * bundle. CLIs started side by side right after an edit (a CI matrix's shards on one runner) each
 * load one whole build: each build is a directory of its own that appears complete.
 */
const run = promisify(execFile);
const checkout = mkdtempSync(join(tmpdir(), 'intentsim-bin-builds-'));
for (const part of ['bin', 'src', 'fixtures', 'conformance', 'package.json']) cpSync(resolve(part), join(checkout, part), { recursive: true });
symlinkSync(resolve('node_modules'), join(checkout, 'node_modules'));
// where the copy's builds go: the shared node_modules' cache, under the copy's own key
const builds = join(resolve('node_modules'), '.cache', 'intentsim', createHash('sha256').update(realpathSync(checkout)).digest('hex').slice(0, 12));
afterAll(() => {
  rmSync(builds, { recursive: true, force: true });
  rmSync(checkout, { recursive: true, force: true });
});

describe('the CLI bundle of a source checkout', () => {
  it('four CLIs started at once on changed sources all run, from one complete build', async () => {
    const help = () => run(join(checkout, 'bin', 'intentsim.js'), ['start', '--help'], { encoding: 'utf8', timeout: 120_000 });
    const outputs = await Promise.all([help(), help(), help(), help()]);
    for (const { stdout } of outputs) expect(stdout).toContain('Usage: intentsim start');
    const made = readdirSync(builds);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(/^sources-\d+$/);
    expect(readdirSync(join(builds, made[0]!))).toEqual(expect.arrayContaining(['cli.mjs', 'chunks']));
  });
});
