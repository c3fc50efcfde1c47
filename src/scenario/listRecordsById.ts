import type { RunningSimulator } from '../simulator';

/** SPEC §8: the most records one `GET /requests/v3` page holds. */
const PAGE = 50;

/**
 * The §2.3 record of each request id (`GET /requests/v3`, one page per 50 ids through `filters`),
 * by lower-case id; an id not listed is absent. One call per id would count against the key's
 * listing rate (20 a second of the virtual clock, which a scenario's end does not move): a
 * scenario with more quotes found its last records refused.
 */
export async function listRecordsById(sim: Pick<RunningSimulator, 'baseUrl' | 'apiKey'>, requestIds: readonly string[]): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  for (let start = 0; start < requestIds.length; start += PAGE) {
    const ids = requestIds.slice(start, start + PAGE).map((id) => id.toLowerCase());
    const url = `${sim.baseUrl}/requests/v3?limit=${PAGE}&filters=${encodeURIComponent(JSON.stringify([{ id: ids }]))}`;
    const response = await fetch(url, { headers: { 'x-api-key': sim.apiKey } });
    const page = (await response.json()) as { requests?: Array<{ id: string }> };
    for (const record of page.requests ?? []) found.set(record.id.toLowerCase(), record);
  }
  return found;
}
