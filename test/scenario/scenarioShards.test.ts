import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { itemsOfShard, shardOfKey } from '../../conformance/shard';
import { InvalidArgumentError } from 'commander';
import { findScenarioFiles } from '../../src/scenario/runScenarioFiles';
import { parseShardFlag } from '../../src/shardFlag';

/**
 * `intentsim scenario run --shard i/n`: the files of a library split across a CI matrix by a hash
 * of each file's path below the directory given; the shards' JUnit files together name every
 * scenario once.
 */
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'intentsim-scenario-shards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) =>
  run(process.execPath, ['bin/intentsim.js', 'scenario', 'run', ...args], { encoding: 'utf8' }).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (failed: { code: number; stdout: string; stderr: string }) => ({ code: failed.code, stdout: failed.stdout, stderr: failed.stderr }),
  );

describe('scenario run --shard', () => {
  it('the library split in 2, 3 or 4: every file once, a file keeps its shard whatever else is in the library', () => {
    const files = findScenarioFiles(['scenarios']).map((file) => file.relativeName);
    expect(files.length).toBeGreaterThan(10);
    for (const count of [2, 3, 4]) {
      const parts = Array.from({ length: count }, (_, i) => itemsOfShard(files, (name) => name, { index: i + 1, count }));
      expect(parts.flat().sort()).toEqual([...files].sort());
      for (const part of parts) expect(part.length).toBeGreaterThan(0);
      // the same file is on the same shard when the library is only one of its folders
      const bridgeOnly = files.filter((name) => name.startsWith('bridge/'));
      for (const name of bridgeOnly) expect(itemsOfShard(bridgeOnly, (n) => n, { index: shardOfKey(name, count), count })).toContain(name);
    }
  });

  it('bad values are a usage error, before any chain starts', async () => {
    // the CLI once; the flag's parser, which commander reports so, for each value (parseShard's
    // wording of each: test/conformance/conformanceShards.test.ts)
    const result = await cli(['scenarios', '--shard', '0/2']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`option '--shard <i/n>' argument '0/2' is invalid`);
    expect(result.stdout).toBe('');
    for (const value of ['0/2', '3/2', 'a/b']) expect(() => parseShardFlag(value), value).toThrow(InvalidArgumentError);
  });

  it('two shards run the files between them, each once, and write junit.shard-1-of-2.xml and junit.shard-2-of-2.xml', async () => {
    const library = join(dir, 'lib');
    mkdirSync(join(library, 'more'), { recursive: true });
    // names a and b hash to shard 1 of 2, more/e and d to shard 2 (test/conformance/conformanceShards.test.ts);
    // each file the least a scenario is (one chain, one step): what is split is the files
    for (const name of ['a', 'b', 'more/e', 'd']) writeFileSync(join(library, `${name}.yaml`), 'description: one step\nchains: [1]\nsteps:\n  - advanceClock: { seconds: 1 }\n');
    expect(['a', 'b', 'more/e', 'd'].map((name) => shardOfKey(name, 2))).toEqual([1, 1, 2, 2]);
    const reports = join(dir, 'reports');
    const results = await Promise.all([1, 2].map((index) => cli([library, '--shard', `${index}/2`, '--junit', join(reports, 'junit.xml'), '--json'])));
    for (const result of results) expect(result.code, result.stdout + result.stderr).toBe(0);
    const ran = results.map((result) => (JSON.parse(result.stdout) as { results: Array<{ name: string; passed: boolean }> }).results);
    expect(ran.map((part) => part.map((r) => r.name))).toEqual([['a', 'b'], ['d', 'more/e']]);
    expect(ran.flat().every((r) => r.passed)).toBe(true);
    expect(readdirSync(reports).sort()).toEqual(['junit.shard-1-of-2.xml', 'junit.shard-2-of-2.xml']);
    const second = readFileSync(join(reports, 'junit.shard-2-of-2.xml'), 'utf8');
    expect(second).toContain('<testsuite name="intentsim scenarios (shard 2/2)" tests="2" failures="0" skipped="0">');
    expect([...second.matchAll(/name="([^"]*)" time=/g)].map((match) => match[1])).toEqual(['d', 'more/e']);
  });
});
