import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWalCheckpoints } from '../../src/store/walCheckpoints';
import { openDatabase } from '../../src/store/openDatabase';
import { RequestRecordWriter } from '../../src/store/RequestRecordWriter';
import { hexId, makeRequestRecord } from '../support/requestRecordFixture';
import { RequestStore } from '../../src/store/RequestStore';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 500 && !condition(); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!condition()) throw new Error(`never happened: ${what}`);
}

/** Commits `count` request records in one transaction, ids from `first`. */
function commitRecords(writer: RequestRecordWriter, first: number, count: number): void {
  writer.transaction(() => {
    for (let n = first; n < first + count; n++) writer.insert(makeRequestRecord({ id: hexId(n + 1), createdAt: n, updatedAt: n }));
  });
}

let next = 10_000;
/** Commits a few hundred pages every 50 ms (commits coming fast) until `done()`; the next free id. */
async function commitFastUntil(writer: RequestRecordWriter, done: () => boolean): Promise<number> {
  for (let rounds = 0; rounds < 200 && !done(); rounds++) {
    commitRecords(writer, next, 300);
    next += 300;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return next;
}

describe('startWalCheckpoints', () => {
  it('the main connection stops checkpointing on commit; a timer on the event loop copies the WAL into the database file', async () => {
    const path = join(dir, 'a.db');
    const db = openDatabase(path);
    const checkpoints = startWalCheckpoints(db, path);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const sizeBefore = statSync(path).size;
    commitRecords(new RequestRecordWriter(db), 0, 2000);
    // only the timer can have grown the database file: the rows were committed to the WAL
    await until(() => statSync(path).size > sizeBefore + 1_000_000, 'the database file grew');
    // one burst (a start's genesis) moves nothing off the event loop
    expect(checkpoints.runningIn).toBe('event-loop');
    await checkpoints.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();

    const reopened = openDatabase(path);
    expect(new RequestStore(reopened).get(hexId(2000))?.createdAt).toBe(1999);
    reopened.close();
  });

  it('after the start, commits coming fast move the checkpoints to a worker thread for good; before it, they do not', async () => {
    const path = join(dir, 'b.db');
    const db = openDatabase(path);
    const writer = new RequestRecordWriter(db);
    const checkpoints = startWalCheckpoints(db, path);
    // the start's own writes, however many
    let rounds = 0;
    await commitFastUntil(writer, () => ++rounds > 12);
    expect(checkpoints.runningIn).toBe('event-loop');
    checkpoints.startupDone();
    const last = await commitFastUntil(writer, () => checkpoints.runningIn === 'worker');
    expect(checkpoints.runningIn).toBe('worker');
    // the worker copies what comes next
    const sizeBefore = statSync(path).size;
    commitRecords(writer, last, 3000);
    await until(() => statSync(path).size > sizeBefore + 1_000_000, 'the worker grew the database file');
    await checkpoints.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
  });

  it('does nothing for an in-memory database, and stops twice without harm', async () => {
    const db = openDatabase(':memory:');
    const checkpoints = startWalCheckpoints(db, ':memory:');
    checkpoints.startupDone();
    await checkpoints.stop();
    await checkpoints.stop();
    db.close();
  });

  it('falls back to checkpoints on commit when the worker cannot open the database', async () => {
    const path = join(dir, 'c.db');
    const db = openDatabase(path);
    const logged: string[] = [];
    const checkpoints = startWalCheckpoints(db, join(dir, 'missing', 'nowhere.db'), (message) => logged.push(message));
    checkpoints.startupDone();
    await commitFastUntil(new RequestRecordWriter(db), () => logged.length > 0);
    expect(logged[0]).toMatch(/checkpointing on commit again/);
    expect(checkpoints.runningIn).toBe('commits');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpoints.stop();
    db.close();
  });

  it('stop() resolves when nothing else keeps the process alive, the worker running (a script ending with `await sim.stop()`)', async () => {
    const script = join(dir, 'stop-last.mts');
    const path = join(dir, 'stop-last.db');
    writeFileSync(
      script,
      [
        `import { startWalCheckpoints } from ${JSON.stringify(resolve('src/store/walCheckpoints.ts'))};`,
        `import { openDatabase } from ${JSON.stringify(resolve('src/store/openDatabase.ts'))};`,
        `const db = openDatabase(${JSON.stringify(path)});`,
        'db.exec("create table filler (text text)");',
        `const checkpoints = startWalCheckpoints(db, ${JSON.stringify(path)});`,
        'checkpoints.startupDone();',
        'const insert = db.prepare("insert into filler (text) values (?)");',
        "while (checkpoints.runningIn !== 'worker') {",
        "  db.transaction(() => { for (let n = 0; n < 300; n++) insert.run('x'.repeat(1000)); })();",
        '  await new Promise((resolve) => setTimeout(resolve, 50));',
        '}',
        'await checkpoints.stop();',
        'db.close();',
        "console.log('stopped');",
      ].join('\n'),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), script], { timeout: 30_000 });
    expect(stdout).toBe('stopped\n');
  });
});
