import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { statusV3Bodies } from '../../src/api/statusFastPath';
import { buildStatusResponse } from '../../src/domain/request/statusResponse';
import { DatabaseSnapshots } from '../../src/store/DatabaseSnapshots';
import { openDatabase } from '../../src/store/openDatabase';
import { RequestRecordWriter } from '../../src/store/RequestRecordWriter';
import { RequestStore } from '../../src/store/RequestStore';
import { hexId, makeRequestRecord } from '../support/requestRecordFixture';

/**
 * The status look-up's kept bodies (issue 36 part 4): a body is given again without reading its
 * row only while the row's version is the one it was built from; every way a request row changes —
 * a write, a write by another writer on the same connection, rows put back by a world revert, every
 * request deleted — gives the current record's body on the next look-up.
 */
describe('the status bodies kept per row version', () => {
  let db: Database.Database;
  let store: RequestStore;
  let writer: RequestRecordWriter;
  let rowReads: number;
  let bodyOf: ReturnType<typeof statusV3Bodies>;
  const id = hexId(1);
  const statusOf = (requestId: string) => {
    const body = bodyOf(requestId);
    return body && (JSON.parse(body.text) as { status: string; updatedAt: number });
  };

  beforeEach(() => {
    db = openDatabase(':memory:');
    store = new RequestStore(db);
    writer = new RequestRecordWriter(db);
    rowReads = 0;
    bodyOf = statusV3Bodies({
      rowVersion: (requestId) => store.rowVersion(requestId),
      recordJson: (requestId) => {
        rowReads += 1;
        return store.recordJson(requestId);
      },
    });
  });
  afterEach(() => db.close());

  it('answers the body res.json would send, with its byte length, and reads the row once while nothing writes it', () => {
    const record = makeRequestRecord({ id });
    writer.insert(record);
    const body = bodyOf(id)!;
    expect(body.text).toBe(JSON.stringify(buildStatusResponse(store.get(id)!)));
    expect(body.byteLength).toBe(Buffer.byteLength(body.text));
    for (let i = 0; i < 5; i++) expect(bodyOf(id.toUpperCase().replace('0X', '0x'))).toBe(body);
    expect(rowReads).toBe(1);
  });

  it('gives the new record after each write, by this writer or another on the same connection', () => {
    writer.insert(makeRequestRecord({ id }));
    expect(statusOf(id)?.status).toBe('waiting');
    writer.saveRecord({ ...store.get(id)!, status: 'pending', updatedAt: 1_700_000_001_000 });
    expect(statusOf(id)).toMatchObject({ status: 'pending', updatedAt: 1_700_000_001_000 });
    new RequestRecordWriter(db).saveRecord({ ...store.get(id)!, status: 'success', updatedAt: 1_700_000_002_000 });
    expect(statusOf(id)).toMatchObject({ status: 'success', updatedAt: 1_700_000_002_000 });
  });

  it('gives the record a world revert put back, and none once every request is deleted', () => {
    writer.insert(makeRequestRecord({ id }));
    const snapshots = new DatabaseSnapshots(db);
    const copy = snapshots.take();
    writer.saveRecord({ ...store.get(id)!, status: 'failure', updatedAt: 1_700_000_003_000 });
    expect(statusOf(id)?.status).toBe('failure');
    snapshots.restore(copy);
    expect(statusOf(id)?.status).toBe('waiting');
    writer.deleteAll();
    expect(bodyOf(id)).toBeUndefined();
    expect(bodyOf(hexId(2))).toBeUndefined();
  });
});
