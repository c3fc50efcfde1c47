import { accessSync, constants, statSync } from 'node:fs';

/**
 * The temporary directory the test run uses: `/dev/shm` (memory) where there is one and it is
 * writable (Linux), unless `TMPDIR` is set already. Every simulator a test starts writes its
 * temporary database there (SQLite fsyncs at each WAL checkpoint, every 100 ms while it writes),
 * and so do the Anvil logs, the CLI runs' data directories and the scratch files: on a disk each
 * fsync is time a test waits with its core idle. What the tests prove is the same: a SIGKILLed
 * process leaves its writes in the page cache as on a disk; only a machine that loses power would
 * tell them apart.
 */
export function ramTempDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TMPDIR) return undefined;
  try {
    if (!statSync('/dev/shm').isDirectory()) return undefined;
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return undefined;
  }
}
