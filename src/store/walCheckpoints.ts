import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the WAL is copied into the database file (real time): often, so that each copy is small. */
const CHECKPOINT_INTERVAL_MS = 100;
/**
 * Commits come fast (quotes under load) when this many checkpoints in a row each copied more than
 * `BUSY_CHECKPOINT_FRAMES` pages (~2.5 MB/s): from then on a worker thread checkpoints, and the event
 * loop never waits for a copy again. Counted in pages, not milliseconds: a start's one burst of
 * writes, or a machine busy with other work, is no reason.
 */
const BUSY_CHECKPOINTS_IN_A_ROW = 3;
const BUSY_CHECKPOINT_FRAMES = 64;
/** SQLite's own default, restored when the checkpoints stop or fail. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/**
 * The worker: its own connection, a PASSIVE checkpoint (never blocks writers) on a timer. CommonJS
 * for `eval`, so it runs the same from the esbuild bundle, tsx and vitest.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqliteModule);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpoints {
  /** Stops the checkpoints (and the worker, with its connection, before the main connection closes). */
  stop(): Promise<void>;
  /** Where checkpoints run now: on the event loop, or in the worker thread once commits came fast. */
  readonly runningIn: 'event-loop' | 'worker' | 'commits';
  /** The start's own writes (genesis, journals) are done: from now on, commits coming fast move the checkpoints to the worker. */
  startupDone(): void;
}

/**
 * WAL checkpoints that never stall a request for long. With `synchronous = NORMAL` a commit only
 * appends to the WAL; the cost is in the checkpoint, which SQLite otherwise runs inside whichever
 * commit crosses 1000 pages (a few MB copied and fsynced at once, ~10 ms, several times a second
 * under quote load). Here the main connection never checkpoints on its own (`wal_autocheckpoint = 0`):
 * a PASSIVE checkpoint runs every 100 ms on the event loop while each is small (a bridge's commits:
 * well under a millisecond), and once three in a row after the start copied more than 64 pages each
 * (commits coming fast, e.g. quotes under load) a worker thread takes them over for good (a second V8 isolate,
 * ~10 MB, that an idle or bridging simulator never pays for).
 * Durability is unchanged: commits are in the WAL as before. Should the worker fail, commits
 * checkpoint on their own again.
 */
export function startWalCheckpoints(db: Database.Database, path: string, log: (message: string) => void = () => undefined): WalCheckpoints {
  if (path === ':memory:' || db.memory) return { stop: () => Promise.resolve(), runningIn: 'commits', startupDone: () => undefined };
  let runningIn: WalCheckpoints['runningIn'] = 'event-loop';
  let worker: { stop(): Promise<void> } | undefined;
  let stopped = false;
  const fallBack = (reason: string) => {
    runningIn = 'commits';
    if (!db.open) return;
    db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    log(`WAL checkpoints stopped (${reason}); checkpointing on commit again`);
  };
  db.pragma('wal_autocheckpoint = 0');
  let busyInARow = 0;
  let startupDone = false;
  const timer = setInterval(() => {
    let copied: number;
    try {
      copied = (db.pragma('wal_checkpoint(PASSIVE)') as Array<{ checkpointed: number }>)[0]?.checkpointed ?? 0;
    } catch (error) {
      clearInterval(timer);
      fallBack(error instanceof Error ? error.message : String(error));
      return;
    }
    busyInARow = startupDone && copied > BUSY_CHECKPOINT_FRAMES ? busyInARow + 1 : 0;
    if (busyInARow < BUSY_CHECKPOINTS_IN_A_ROW) return;
    clearInterval(timer);
    runningIn = 'worker';
    worker = startCheckpointWorker(path, log, fallBack);
  }, CHECKPOINT_INTERVAL_MS);
  timer.unref(); // never what keeps the process alive
  return {
    get runningIn() {
      return runningIn;
    },
    startupDone: () => {
      startupDone = true;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await worker?.stop();
      if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    },
  };
}

/** The checkpoint worker on the database at `path`; `fallBack` when it fails or exits on its own. */
function startCheckpointWorker(path: string, log: (message: string) => void, fallBack: (reason: string) => void): { stop(): Promise<void> } {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { sqliteModule: createRequire(import.meta.url).resolve('better-sqlite3'), path, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref(); // never what keeps the process alive
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: { error?: string }) => {
    if (message.error) log(`WAL checkpoint failed: ${message.error}`);
  });
  worker.on('error', (error) => {
    if (!stopping) fallBack(error.message);
  });
  worker.once('exit', (code) => {
    if (!stopping) fallBack(`the checkpoint worker exited with code ${code}`);
  });
  return {
    stop: async () => {
      if (stopping) return exited;
      stopping = true;
      // unref'd, the worker would not keep the process alive until it exits: `await sim.stop()`
      // as a script's last step would never resolve (node ends with exit code 13)
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
