import { createHash } from 'node:crypto';
import { basename, dirname, extname, join } from 'node:path';

/**
 * One part of a suite split across the machines of a CI matrix (`--shard 2/4`): shard `index`
 * (1-based) of `count`. Shared by `intentsim conformance` (checks, keyed by id) and
 * `intentsim scenario run` (files, keyed by their path below the directory given).
 */
export interface Shard {
  index: number;
  count: number;
}

/** `--shard` was not `i/n` with 1 ≤ i ≤ n. */
export class ShardSpecError extends Error {
  constructor(text: string, why: string) {
    super(`--shard ${JSON.stringify(text)}: ${why}; expected i/n with 1 <= i <= n, e.g. 1/4`);
    this.name = 'ShardSpecError';
  }
}

/** Reads `i/n` (e.g. `2/4`); throws ShardSpecError for `0/2`, `3/2`, `a/b`, `1/0`. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new ShardSpecError(text, 'not two whole numbers i/n');
  const shard = { index: Number(match[1]), count: Number(match[2]) };
  checkShard(shard, text);
  return shard;
}

/** Throws ShardSpecError unless 1 ≤ index ≤ count (the programmatic options are checked too). */
export function checkShard(shard: Shard, text = `${shard.index}/${shard.count}`): void {
  if (!Number.isSafeInteger(shard.count) || shard.count < 1) throw new ShardSpecError(text, 'n must be 1 or more');
  if (!Number.isSafeInteger(shard.index) || shard.index < 1 || shard.index > shard.count) throw new ShardSpecError(text, `i must be between 1 and ${shard.count}`);
}

/**
 * The shard (1-based) a key belongs to out of `count`: by a hash of the key alone, so an item
 * stays on its shard when others are added or removed, and every machine of the matrix agrees.
 */
export function shardOfKey(key: string, count: number): number {
  return (createHash('sha256').update(key).digest().readUInt32BE(0) % count) + 1;
}

/** The items of `shard` (all of them when it is undefined), in their order. */
export function itemsOfShard<T>(items: readonly T[], keyOf: (item: T) => string, shard: Shard | undefined): T[] {
  if (shard === undefined) return [...items];
  checkShard(shard);
  return items.filter((item) => shardOfKey(keyOf(item), shard.count) === shard.index);
}

/**
 * Where a shard writes a report file given as `path`, so that shards never overwrite each other:
 * a `{shard}` in the path becomes `i-of-n`; without one, `.shard-i-of-n` goes before the extension
 * (`junit.xml` → `junit.shard-2-of-4.xml`). Unchanged when not sharded.
 */
export function shardReportPath(path: string, shard: Shard | undefined): string {
  if (shard === undefined) return path.replaceAll('{shard}', '1-of-1');
  const label = `${shard.index}-of-${shard.count}`;
  if (path.includes('{shard}')) return path.replaceAll('{shard}', label);
  const extension = extname(path);
  return join(dirname(path), `${basename(path, extension)}.shard-${label}${extension}`);
}

/** ` (shard 2/4)` for a report's title; empty when not sharded. */
export function shardSuffix(shard: Shard | undefined): string {
  return shard === undefined ? '' : ` (shard ${shard.index}/${shard.count})`;
}
