import { setTimeout as sleep } from 'node:timers/promises';
import { CheckSkipped, ruleBroken } from './check';
import { expectShape, expectStatus } from './expectations';
import type { ConformanceHttp, Exchange, RequestOptions } from './http';
import { listingPageSchema, type ListingPage } from './schemas/requestRecordSchema';

/** Retries of one listing call answered 429, each after the answer's `Retry-After` (SPEC §8: 20 rps per key). */
const RATE_LIMIT_RETRIES = 5;
const LONGEST_RETRY_WAIT_MS = 3_000;

/**
 * `GET /requests/v3` with the run's key (unless `withApiKey: false`), as a well-behaved client:
 * a 429 is waited out (its `Retry-After` seconds, 1 s without one) and sent again, so the
 * listing checks never fail for their own pace under the §8 per-key rate.
 */
export async function getListing(http: ConformanceHttp, query: RequestOptions['query'], options: { withApiKey?: boolean; headers?: Record<string, string> } = {}): Promise<Exchange> {
  const requestOptions: RequestOptions = { query, withApiKey: options.withApiKey ?? true, ...(options.headers ? { headers: options.headers } : {}) };
  let exchange = await http.get('/requests/v3', requestOptions);
  for (let retry = 0; retry < RATE_LIMIT_RETRIES && exchange.status === 429; retry += 1) {
    const seconds = Number(exchange.responseHeaders['retry-after']);
    await sleep(Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, LONGEST_RETRY_WAIT_MS) : 1000);
    exchange = await http.get('/requests/v3', requestOptions);
  }
  return exchange;
}

/** One page of `GET /requests/v3` that must answer 200 with a `requests` array. */
export async function listPage(http: ConformanceHttp, query: RequestOptions['query'], rule = '§4.3: GET /requests/v3 with a valid key answers 200 with a requests array'): Promise<{ page: ListingPage; exchange: Exchange }> {
  const exchange = await getListing(http, query);
  expectStatus(exchange, 200, rule);
  return { page: expectShape(exchange, listingPageSchema, rule), exchange };
}

/** The listing checks need the run's API key (SPEC §5.2: GET /requests/v3 requires it). */
export function requireApiKey(http: ConformanceHttp): void {
  if (!http.apiKey) throw new CheckSkipped('no API key given (--api-key): GET /requests/v3 requires one (SPEC §5.2)');
}

/** Every page of a listing, following `continuation` (at most `maxPages`; more is a broken cursor). */
export async function listAllPages(http: ConformanceHttp, query: Record<string, string | number>, maxPages: number, rule: string): Promise<{ pages: ListingPage[]; exchanges: Exchange[] }> {
  const pages: ListingPage[] = [];
  const exchanges: Exchange[] = [];
  let continuation: string | undefined;
  do {
    const { page, exchange } = await listPage(http, continuation === undefined ? query : { ...query, continuation }, rule);
    pages.push(page);
    exchanges.push(exchange);
    continuation = page.continuation || undefined;
    if (pages.length > maxPages && continuation !== undefined) ruleBroken(rule, `the cursor still points to a further page after ${maxPages} pages of a listing that fits in fewer`, exchange);
  } while (continuation !== undefined);
  return { pages, exchanges };
}
