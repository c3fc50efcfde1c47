import type Database from 'better-sqlite3';

/**
 * The versions of the request rows as this process wrote them, one set per database connection:
 * the status look-up keeps each request's answer and gives it again without reading the row while
 * the row's version is the one the answer was built from. `RequestRecordWriter`, the only writer of
 * request rows, calls `wrote` for each row it inserts or saves; whatever puts rows back under it (a
 * world revert's `DatabaseSnapshots.restore`, the control plane's delete of every request) calls
 * `replacedAll`. A version is a number never handed out twice on one connection; a write that is
 * rolled back still counts as one (the next look-up reads the row again: never a stale answer).
 */
export class RequestRowVersions {
  private last = 0;
  /** The version of every row not written since the last `replacedAll`. */
  private floor = 0;
  private readonly written = new Map<string, number>();

  /** Request `id` (lower case) was inserted or saved. */
  wrote(id: string): void {
    this.written.set(id, ++this.last);
  }

  /** Any request row may have changed (rows put back or deleted outside the writer). */
  replacedAll(): void {
    this.written.clear();
    this.floor = ++this.last;
  }

  /** Request `id`'s (lower case) version now: equal to an earlier reading only if the row was not written since. */
  versionOf(id: string): number {
    return this.written.get(id) ?? this.floor;
  }
}

const versionsByConnection = new WeakMap<Database.Database, RequestRowVersions>();

/** The request row versions of connection `db` (every writer, store and restore on it shares them). */
export function requestRowVersionsOf(db: Database.Database): RequestRowVersions {
  let versions = versionsByConnection.get(db);
  if (!versions) versionsByConnection.set(db, (versions = new RequestRowVersions()));
  return versions;
}
