import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { InvalidArgumentError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allChecks, selectChecks } from '../../conformance';
import { itemsOfShard, parseShard, shardOfKey, shardReportPath, type Shard } from '../../conformance/shard';
import { parseShardFlag } from '../../src/shardFlag';
import type { RunningSimulator } from '../../src/simulator';
import { LISTING_UNTHROTTLED, startTestSimulator } from '../support/startTestSimulator';

/**
 * `--shard i/n` (a CI matrix): every shard runs its part, the parts together are the whole suite
 * and never overlap, an item keeps its shard when others are added, and each shard writes its
 * own JUnit file. Bad values are a usage error.
 */
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'intentsim-conformance-shards-'));
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startTestSimulator(LISTING_UNTHROTTLED);
});
afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) =>
  run(process.execPath, ['bin/intentsim.js', 'conformance', ...args], { encoding: 'utf8' }).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (failed: { code: number; stdout: string; stderr: string }) => ({ code: failed.code, stdout: failed.stdout, stderr: failed.stderr }),
  );

const shardsOf = (count: number): Shard[] => Array.from({ length: count }, (_, i) => ({ index: i + 1, count }));

describe('the shard split', () => {
  it('i/n is read; 0/2, 3/2, a/b and 1/0 are refused with what is expected', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(() => parseShard('0/2')).toThrow('--shard "0/2": i must be between 1 and 2; expected i/n with 1 <= i <= n, e.g. 1/4');
    expect(() => parseShard('3/2')).toThrow('--shard "3/2": i must be between 1 and 2');
    expect(() => parseShard('a/b')).toThrow('--shard "a/b": not two whole numbers i/n');
    expect(() => parseShard('1/0')).toThrow('--shard "1/0": n must be 1 or more');
  });

  it('the shards of the whole suite are the suite: no check twice, none left out, every shard has some', () => {
    const ids = allChecks.map((check) => check.id);
    for (const count of [1, 2, 3, 5]) {
      const parts = shardsOf(count).map((shard) => itemsOfShard(allChecks, (check) => check.id, shard).map((check) => check.id));
      expect(parts.flat().sort()).toEqual([...ids].sort());
      expect(new Set(parts.flat()).size).toBe(ids.length);
      for (const part of parts) expect(part.length).toBeGreaterThan(0);
    }
  });

  it('is stable: a check keeps its shard when checks are added or removed, and the same key always lands on the same shard', () => {
    const ids = allChecks.map((check) => check.id);
    const withNew = [...ids, 'quote.added-later', 'zzz.another'];
    const withoutSome = ids.filter((_, i) => i % 3 !== 0);
    for (const shard of shardsOf(4)) {
      const before = itemsOfShard(ids, (id) => id, shard);
      expect(itemsOfShard(withNew, (id) => id, shard).filter((id) => ids.includes(id))).toEqual(before);
      expect(itemsOfShard(withoutSome, (id) => id, shard)).toEqual(before.filter((id) => withoutSome.includes(id)));
    }
    // fixed figures: a change of the hash would move every CI job's checks to other machines
    expect(['a', 'b', 'c', 'd', 'e', 'f'].map((key) => shardOfKey(key, 2))).toEqual([1, 1, 2, 2, 2, 1]);
  });

  it('report files: {shard} becomes i-of-n, else .shard-i-of-n goes before the extension; unsharded paths stay', () => {
    expect(shardReportPath('out/junit-{shard}.xml', { index: 2, count: 4 })).toBe('out/junit-2-of-4.xml');
    expect(shardReportPath('out/junit.xml', { index: 2, count: 4 })).toBe('out/junit.shard-2-of-4.xml');
    expect(shardReportPath('report', { index: 1, count: 2 })).toBe('report.shard-1-of-2');
    expect(shardReportPath('out/junit.xml', undefined)).toBe('out/junit.xml');
  });
});

describe('intentsim conformance --shard', () => {
  it('bad values are a usage error naming the flag, before anything is checked', async () => {
    // the CLI once; the flag's parser, which commander reports so, for each value (parseShard's wording: above)
    const result = await cli(['--base-url', sim.baseUrl, '--shard', '3/2']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`option '--shard <i/n>' argument '3/2' is invalid`);
    expect(result.stdout).toBe('');
    for (const value of ['0/2', '3/2', 'a/b']) expect(() => parseShardFlag(value), value).toThrow(InvalidArgumentError);
  });

  it('two shards run the selected checks between them, each once, and write one JUnit file each', async () => {
    const only = ['chains', 'versioning', 'status'];
    const expected = selectChecks(allChecks, 'read-only', only).map((check) => `${check.id}: ${check.title}`);
    const results = await Promise.all(
      [1, 2].map((index) => cli(['--base-url', sim.baseUrl, '--api-key', sim.apiKey, '--only', only.join(','), '--shard', `${index}/2`, '--junit', join(dir, 'conformance.xml'), '--json', join(dir, 'report-{shard}.json')])),
    );
    for (const result of results) expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(results[0]!.stdout).toContain('(read-only) (shard 1/2)');
    expect(readdirSync(dir).sort()).toEqual(['conformance.shard-1-of-2.xml', 'conformance.shard-2-of-2.xml', 'report-1-of-2.json', 'report-2-of-2.json']);
    const names = [1, 2].map((index) => {
      const xml = readFileSync(join(dir, `conformance.shard-${index}-of-2.xml`), 'utf8');
      expect(xml).toContain(`<testsuite name="intentsim conformance (shard ${index}/2)"`);
      return [...xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((match) => match[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
    });
    expect(names[0]!.length).toBeGreaterThan(0);
    expect(names[1]!.length).toBeGreaterThan(0);
    expect([...names[0]!, ...names[1]!].sort()).toEqual([...expected].sort());
    const report = JSON.parse(readFileSync(join(dir, 'report-2-of-2.json'), 'utf8')) as { shard: Shard; results: unknown[] };
    expect(report.shard).toEqual({ index: 2, count: 2 });
    expect(report.results).toHaveLength(names[1]!.length);
  });
});
