import type { ConformanceCheck } from '../check';
import { expectClientError } from '../clientErrors';
import { expectThat } from '../expectations';
import { getListing, listPage, requireApiKey } from '../listRequests';
import { quotedRequestsOf } from '../quotedRequests';

/** SPEC §8 / §4.3: the page size of `GET /requests/v3`. */
const LIMIT = { default: 20, min: 1, max: 50 } as const;

/** Values of `limit` outside "an integer from 1 to 50", each with why. */
const OUT_OF_RANGE_LIMITS: ReadonlyArray<{ value: string; why: string }> = [
  { value: '0', why: 'below the minimum 1' },
  { value: '51', why: 'above the maximum 50' },
  { value: '-1', why: 'negative' },
  { value: '1.5', why: 'not an integer' },
  { value: 'twenty', why: 'not a number' },
];

/** §8 (and §4.3): `limit` of `GET /requests/v3`: default 20, minimum 1, maximum 50. */
export const listingLimitChecks: readonly ConformanceCheck[] = [
  {
    id: 'listing.limit-bounds',
    section: '8',
    title: 'limit takes an integer from 1 to 50: 0, 51, negative and non-integer values get a 4xx; 1 and 50 are honoured',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      // records to page over, so that limit=1 has more than one to hold back (none is needed to judge the refusals)
      await quotedRequestsOf(target).catch(() => undefined);
      for (const { value, why } of OUT_OF_RANGE_LIMITS) {
        const exchange = await getListing(http, { limit: value });
        expectClientError(exchange, `§8: limit is an integer from ${LIMIT.min} to ${LIMIT.max}: limit=${value} (${why}) is refused with a 4xx`);
      }
      for (const limit of [LIMIT.min, LIMIT.max]) {
        const { page, exchange } = await listPage(http, { limit }, `§8: limit=${limit} is within ${LIMIT.min} to ${LIMIT.max} and is accepted`);
        expectThat(page.requests.length <= limit, `§8: a page holds at most limit records`, `limit=${limit} answered ${page.requests.length} records`, exchange);
      }
    },
  },
  {
    id: 'listing.limit-default',
    section: '8',
    title: 'without limit a page holds at most 20 records',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      await quotedRequestsOf(target).catch(() => undefined);
      const { page, exchange } = await listPage(http, {});
      expectThat(page.requests.length <= LIMIT.default, `§8: the page size defaults to ${LIMIT.default}`, `a page without limit holds ${page.requests.length} records`, exchange);
    },
  },
];
