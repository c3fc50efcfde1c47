import { InvalidArgumentError } from 'commander';
import { parseShard, type Shard } from '../conformance/shard';

/** The help of `--shard` on `scenario run` and `conformance`: how the report files are named. */
export const SHARD_FLAG_HELP =
  'a stable split by hash, so an item stays on its shard when others are added; --junit/--json PATH: a {shard} in PATH becomes i-of-n, else .shard-i-of-n goes before the extension';

/** Commander's parser of `--shard i/n`: `0/2`, `3/2` or `a/b` is a usage error. */
export function parseShardFlag(text: string): Shard {
  try {
    return parseShard(text);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}
