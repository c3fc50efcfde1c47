import type { RequestRecord } from '../domain/request/requestRecord';
import { parseRecordJson } from '../store/RequestStore';

/** Bodies kept at most; past it the cache starts over (a look-up of a forgotten one builds it again). */
const MAX_BODIES = 1_000;

/**
 * The JSON body of a status look-up, built once per version of a record. Clients poll a request's
 * status in a loop while nothing changes; a look-up still reads the stored record (one indexed
 * row), and while its stored text is the one the kept body was built from, answers that body
 * instead of parsing the record and serialising its view again. Any write of the record changes
 * its text, so an answer is never older than the row.
 */
export class StatusBodyCache {
  private readonly bodies = new Map<string, { recordJson: string; body: string }>();

  constructor(private readonly build: (record: RequestRecord) => unknown) {}

  /** The body for the record stored as `recordJson` under `requestId`. */
  bodyFor(requestId: string, recordJson: string): string {
    const key = requestId.toLowerCase();
    const kept = this.bodies.get(key);
    if (kept?.recordJson === recordJson) return kept.body;
    const body = JSON.stringify(this.build(parseRecordJson(recordJson)));
    if (!kept && this.bodies.size >= MAX_BODIES) this.bodies.clear();
    this.bodies.set(key, { recordJson, body });
    return body;
  }
}
