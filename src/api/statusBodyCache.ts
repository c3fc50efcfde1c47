import type { RequestRecord } from '../domain/request/requestRecord';
import { parseRecordJson } from '../store/RequestStore';

/** Bodies kept at most; past it the cache starts over (a look-up of a forgotten one builds it again). */
const MAX_BODIES = 1_000;

/** A status look-up's JSON body and its length in bytes (the Content-Length). */
export interface StatusBody {
  text: string;
  byteLength: number;
}

/** What the cache needs of the stored request: its row's version (`RequestRowVersions`) and its text. */
export interface StoredRequestRows {
  rowVersion(requestId: string): number;
  recordJson(requestId: string): string | undefined;
}

/**
 * The JSON body of a status look-up, built once per version of a record. Clients poll a request's
 * status in a loop while nothing changes. While the row's version is the one the kept body was
 * built from (no write since: `RequestRowVersions`), the body is answered without reading the row;
 * otherwise the row is read, and while its stored text is the one the body was built from, the body
 * is kept (a write that changed nothing, a revert that put the same row back); else the record is
 * parsed and its view serialised again. Any write of the record changes its version, so an answer
 * is never older than the row.
 */
export class StatusBodyCache {
  private readonly bodies = new Map<string, { version: number; recordJson: string; body: StatusBody }>();

  constructor(
    private readonly rows: StoredRequestRows,
    private readonly build: (record: RequestRecord) => unknown,
  ) {}

  /** The body for request `requestId`, or undefined when none is stored. */
  bodyFor(requestId: string): StatusBody | undefined {
    const key = requestId.toLowerCase();
    const version = this.rows.rowVersion(key);
    const kept = this.bodies.get(key);
    if (kept?.version === version) return kept.body;
    const recordJson = this.rows.recordJson(key);
    if (recordJson === undefined) {
      this.bodies.delete(key);
      return undefined;
    }
    if (kept?.recordJson === recordJson) {
      kept.version = version;
      return kept.body;
    }
    const text = JSON.stringify(this.build(parseRecordJson(recordJson)));
    const body = { text, byteLength: Buffer.byteLength(text) };
    if (!kept && this.bodies.size >= MAX_BODIES) this.bodies.clear();
    this.bodies.set(key, { version, recordJson, body });
    return body;
  }
}
