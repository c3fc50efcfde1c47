import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackgroundCheckpoints } from '../../src/store/backgroundCheckpoints';
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

describe('startBackgroundCheckpoints', () => {
  it('the main connection stops checkpointing; a worker copies the WAL into the database file', async () => {
    const path = join(dir, 'a.db');
    const db = openDatabase(path);
    const checkpoints = startBackgroundCheckpoints(db, path);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const sizeBefore = statSync(path).size;
    const writer = new RequestRecordWriter(db);
    writer.transaction(() => {
      for (let n = 0; n < 2000; n++) writer.insert(makeRequestRecord({ id: hexId(n + 1), createdAt: n, updatedAt: n }));
    });
    // only the worker can have grown the database file: the rows were committed to the WAL
    await until(() => statSync(path).size > sizeBefore + 1_000_000, 'the database file grew');
    await checkpoints.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();

    const reopened = openDatabase(path);
    expect(new RequestStore(reopened).get(hexId(2000))?.createdAt).toBe(1999);
    reopened.close();
  });

  it('does nothing for an in-memory database, and stops twice without harm', async () => {
    const db = openDatabase(':memory:');
    const checkpoints = startBackgroundCheckpoints(db, ':memory:');
    await checkpoints.stop();
    await checkpoints.stop();
    db.close();
  });

  it('falls back to checkpoints on commit when the worker cannot open the database', async () => {
    const path = join(dir, 'b.db');
    const db = openDatabase(path);
    const logged: string[] = [];
    const checkpoints = startBackgroundCheckpoints(db, join(dir, 'missing', 'nowhere.db'), (message) => logged.push(message));
    await until(() => logged.length > 0, 'the failure was logged');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpoints.stop();
    db.close();
  });

  it('stop() resolves when nothing else keeps the process alive (a script ending with `await sim.stop()`)', async () => {
    const script = join(dir, 'stop-last.mts');
    writeFileSync(
      script,
      [
        `import { startBackgroundCheckpoints } from ${JSON.stringify(resolve('src/store/backgroundCheckpoints.ts'))};`,
        `import { openDatabase } from ${JSON.stringify(resolve('src/store/openDatabase.ts'))};`,
        `const db = openDatabase(${JSON.stringify(join(dir, 'stop-last.db'))});`,
        `const checkpoints = startBackgroundCheckpoints(db, ${JSON.stringify(join(dir, 'stop-last.db'))});`,
        'await checkpoints.stop();',
        'db.close();',
        "console.log('stopped');",
      ].join('\n'),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), script], { timeout: 30_000 });
    expect(stdout).toBe('stopped\n');
  });
});
