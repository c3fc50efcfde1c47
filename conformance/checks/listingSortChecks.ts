import { CheckSkipped, type ConformanceCheck } from '../check';
import { expectThat } from '../expectations';
import { listPage, requireApiKey } from '../listRequests';
import { shortId } from '../requestIds';
import { requireListedQuotes } from '../requireListedQuotes';
import { quotedRequestsOf } from '../quotedRequests';
import type { ListingPage } from '../schemas/requestRecordSchema';

type Direction = 'asc' | 'desc';

function inOrder(values: readonly number[], direction: Direction): boolean {
  return values.every((value, i) => i === 0 || (direction === 'asc' ? values[i - 1]! <= value : values[i - 1]! >= value));
}

/** A record's `createdAt` / `updatedAt` as a number (an ISO date or a number; only the order matters). */
function timeOf(record: ListingPage['requests'][number], key: 'createdAt' | 'updatedAt'): number | undefined {
  const value = record[key];
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

interface SortCase {
  query: Record<string, string>;
  direction: Direction;
  rule: string;
}

/** §4.3: `sortBy` (createdAt by default) and `sortDirection` (desc for times, asc for amountUsd by default). */
export const listingSortChecks: readonly ConformanceCheck[] = [
  {
    id: 'listing.sort-by-time',
    section: '4.3',
    title: 'without sortBy records come newest createdAt first; sortDirection=asc reverses it; sortBy=updatedAt defaults to descending',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      const set = await quotedRequestsOf(target);
      await requireListedQuotes(http, set);
      const cases: ReadonlyArray<SortCase & { key: 'createdAt' | 'updatedAt' }> = [
        { query: {}, key: 'createdAt', direction: 'desc', rule: '§4.3: sortBy defaults to createdAt, and sortDirection to desc for time fields' },
        { query: { sortBy: 'createdAt', sortDirection: 'asc' }, key: 'createdAt', direction: 'asc', rule: '§4.3: sortBy=createdAt&sortDirection=asc lists oldest first' },
        { query: { sortBy: 'updatedAt' }, key: 'updatedAt', direction: 'desc', rule: '§4.3: sortBy=updatedAt sorts descending by default (a time field)' },
      ];
      for (const { query, key, direction, rule } of cases) {
        const { page, exchange } = await listPage(http, { recipient: set.recipient, limit: 50, ...query });
        const times = page.requests.map((record) => timeOf(record, key));
        if (times.some((time) => time === undefined)) throw new CheckSkipped(`the records carry no ${key} the suite can read: their order by it cannot be judged`);
        expectThat(
          inOrder(times as number[], direction),
          rule,
          `${key} in the order listed: ${page.requests.map((record) => `${shortId(record.id)} ${String(record[key])}`).join(', ')}`,
          exchange,
        );
      }
    },
  },
  {
    id: 'listing.sort-by-amount',
    section: '4.3',
    title: 'sortBy=amountUsd sorts by the quoted input in USD, ascending by default; sortDirection=desc reverses it',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      const set = await quotedRequestsOf(target);
      await requireListedQuotes(http, set);
      const usdOf = new Map(set.requests.map((request) => [request.requestId.toLowerCase(), request.amountInUsd]));
      const cases: readonly SortCase[] = [
        { query: { sortBy: 'amountUsd' }, direction: 'asc', rule: '§4.3: sortBy=amountUsd sorts ascending by default' },
        { query: { sortBy: 'amountUsd', sortDirection: 'desc' }, direction: 'desc', rule: '§4.3: sortBy=amountUsd&sortDirection=desc lists the largest first' },
      ];
      for (const { query, direction, rule } of cases) {
        const { page, exchange } = await listPage(http, { recipient: set.recipient, limit: 50, ...query });
        const ours = page.requests.filter((record) => usdOf.has(record.id.toLowerCase()));
        const amounts = ours.map((record) => usdOf.get(record.id.toLowerCase()));
        if (amounts.some((usd) => usd === undefined)) throw new CheckSkipped('a quote of this run has no details.currencyIn.amountUsd: the order by amountUsd cannot be judged');
        expectThat(inOrder(amounts as number[], direction), rule, `quoted USD in the order listed: ${ours.map((record) => `${shortId(record.id)} $${usdOf.get(record.id.toLowerCase())}`).join(', ')}`, exchange);
      }
    },
  },
];
