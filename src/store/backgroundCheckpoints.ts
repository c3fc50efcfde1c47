import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * How often the checkpointer copies the WAL into the database file (real time). Each complete
 * checkpoint lets the next commit start the WAL over, and that commit fsyncs the WAL header on
 * the event loop: twice a second keeps those rare, and the WAL at a few MB under quote load.
 */
const CHECKPOINT_INTERVAL_MS = 500;
/** SQLite's own default, restored when the checkpointer cannot run. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/**
 * The checkpointer: its own connection in a worker thread, copying committed WAL frames into the
 * database file with a PASSIVE checkpoint (never blocks writers). CommonJS for `eval`, so it runs
 * the same from the esbuild bundle, tsx and vitest.
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

export interface BackgroundCheckpoints {
  /** Stops the checkpointer and closes its connection (before the main connection closes). */
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the event loop. With `synchronous = NORMAL` a commit only appends to
 * the WAL; the cost is in the checkpoint that SQLite runs inside whichever commit crosses 1000
 * pages, and its fsyncs stall the event loop (~10 ms each, several per second under quote load).
 * Here the main connection never checkpoints on its own (`wal_autocheckpoint = 0`) and a worker
 * thread does it every 500 ms. Durability is unchanged: commits are in the WAL as before. If the
 * worker fails, the main connection checkpoints by itself again.
 */
export function startBackgroundCheckpoints(db: Database.Database, path: string, log: (message: string) => void = () => undefined): BackgroundCheckpoints {
  if (path === ':memory:' || db.memory) return { stop: () => Promise.resolve() };
  const fallBack = (reason: string) => {
    if (!db.open) return;
    db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    log(`background WAL checkpoints stopped (${reason}); checkpointing on commit again`);
  };
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { sqliteModule: createRequire(import.meta.url).resolve('better-sqlite3'), path, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref(); // never what keeps the process alive
  db.pragma('wal_autocheckpoint = 0');
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
      if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    },
  };
}
