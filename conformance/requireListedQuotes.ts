import { CheckSkipped } from './check';
import type { ConformanceHttp, RequestOptions } from './http';
import { getListing } from './listRequests';
import type { QuotedRequestSet } from './quotedRequests';
import { listingPageSchema } from './schemas/requestRecordSchema';

/**
 * The run's quoted requests, once the target is known to list requests that were quoted and
 * never paid: some of them show up by `id`, by `recipient` or on the first page of the whole
 * listing. When none does, the target keeps unpaid quotes out of its listing and the check is
 * skipped (read-only mode pays nothing, so it has nothing else of its own to look for).
 */
export function requireListedQuotes(http: ConformanceHttp, set: QuotedRequestSet): Promise<void> {
  // the answer holds for the whole run: probed once per set, not by each check that needs it
  // (fewer listing calls against the §8 per-key rate)
  let probed = probes.get(set);
  if (!probed) probes.set(set, (probed = probeListedQuotes(http, set)));
  return probed;
}

const probes = new WeakMap<QuotedRequestSet, Promise<void>>();

async function probeListedQuotes(http: ConformanceHttp, set: QuotedRequestSet): Promise<void> {
  const ours = new Set(set.requests.map((request) => request.requestId.toLowerCase()));
  const queries: RequestOptions['query'][] = [{ id: set.requests[0]!.requestId }, { recipient: set.recipient, limit: 50 }, { limit: 50 }];
  for (const query of queries) {
    const exchange = await getListing(http, query);
    if (exchange.status !== 200) continue;
    const parsed = listingPageSchema.safeParse(exchange.json);
    if (parsed.success && parsed.data.requests.some((record) => ours.has(record.id.toLowerCase()))) return;
  }
  throw new CheckSkipped('the target does not list requests that were quoted and not paid: none of this run\'s quotes is in GET /requests/v3');
}
