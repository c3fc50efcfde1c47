import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { matchesListFilter, type FilterCondition, type FilterGroup, type ListFilter } from '../../src/domain/listing/requestListFilter';
import { REQUEST_STATUSES, type RequestStatus } from '../../src/domain/request/requestStatus';
import type { RequestRecord } from '../../src/domain/request/requestRecord';
import { listingPrefilter, type ListingPrefilter } from '../../src/store/listingPrefilter';
import { openDatabase } from '../../src/store/openDatabase';
import { RequestListingStore } from '../../src/store/RequestListingStore';
import { RequestRecordWriter } from '../../src/store/RequestRecordWriter';
import { ethOn, hexId, makeRequestRecord } from '../support/requestRecordFixture';

/**
 * The SQL prefilter only ever rules out rows the exact filter would rule out too: pages and
 * counts are the same with it as when every row is read and filtered in JS.
 */
const CHAINS = [1, 10, 8453];
const KEYS = ['key-a', 'key-b', null];
const RECIPIENTS = ['0x00000000000000000000000000000000000000aA', '0x00000000000000000000000000000000000000bb'];

let db: Database.Database;
let listing: RequestListingStore;
let all: RequestRecord[];
beforeAll(() => {
  db = openDatabase(':memory:');
  const writer = new RequestRecordWriter(db);
  listing = new RequestListingStore(db);
  all = Array.from({ length: 300 }, (_, n) => {
    const base = makeRequestRecord();
    return makeRequestRecord({
      id: hexId(n + 1),
      status: REQUEST_STATUSES[(n * 3) % REQUEST_STATUSES.length] as RequestStatus,
      // ties in both time orders (two records per createdAt, per updatedAt): the id decides
      createdAt: 1_700_000_000_000 + ((n * 37) % 150) * 1000,
      updatedAt: 1_700_000_000_000 + Math.floor(n / 2) * 1000,
      apiKey: KEYS[n % 3] ?? null,
      quote: {
        ...base.quote,
        originChainId: CHAINS[n % 3]!,
        destinationChainId: CHAINS[(n + 1) % 3]!,
        currencyIn: ethOn(CHAINS[n % 3]!),
        recipient: RECIPIENTS[n % 2]! as `0x${string}`,
        referrer: n % 5 === 0 ? 'special' : 'test-referrer',
      },
    });
  });
  writer.transaction(() => all.forEach((record) => writer.insert(record)));
});
afterAll(() => db.close());

const condition = fc.oneof(
  fc.record({ field: fc.constant('status' as const), negated: fc.boolean(), values: fc.subarray([...REQUEST_STATUSES], { minLength: 1 }) }),
  fc.record({ field: fc.constantFrom('originChainId' as const, 'destinationChainId' as const, 'chainId' as const), negated: fc.boolean(), values: fc.subarray(CHAINS, { minLength: 1 }) }),
  fc.record({ field: fc.constant('apiKey' as const), negated: fc.boolean(), values: fc.subarray(['key-a', 'key-b', 'key-c'], { minLength: 1 }) }),
  fc.record({ field: fc.constant('recipient' as const), negated: fc.boolean(), values: fc.subarray(RECIPIENTS.map((r) => r.toUpperCase().replace('0X', '0x')), { minLength: 1 }) }),
  fc.record({ field: fc.constant('id' as const), negated: fc.boolean(), values: fc.subarray([hexId(3), hexId(4), hexId(250)], { minLength: 1 }) }),
  // not a column: stays with the exact filter
  fc.record({ field: fc.constant('referrer' as const), negated: fc.boolean(), values: fc.constant(['special']) }),
) as fc.Arbitrary<FilterCondition>;
const group: fc.Arbitrary<FilterGroup> = fc.array(condition, { maxLength: 3 });
const filter: fc.Arbitrary<ListFilter> = fc.record({
  base: group,
  anyOf: fc.option(fc.array(group, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  sortBy: fc.constantFrom('createdAt' as const, 'updatedAt' as const, 'amountUsd' as const),
});

/** Every page, following the continuation cursor, with or without the prefilter. */
function allPages(f: ListFilter, direction: 'asc' | 'desc', limit: number, prefilter: ListingPrefilter | undefined): string[] {
  const matches = (record: RequestRecord) => matchesListFilter(record, f);
  const ids: string[] = [];
  let after;
  for (let guard = 0; guard < 400; guard++) {
    const page = listing.page({ sortBy: f.sortBy, direction, after, limit, matches, ...(prefilter ? { prefilter } : {}) });
    ids.push(...page.records.map((r) => r.id));
    if (!page.next) break;
    after = page.next;
  }
  return ids;
}

/**
 * Every stored record as the store reads it back, in the store's order for each sort key and
 * direction: one page holding them all, no prefilter (read once per order, not once per case).
 */
const storeOrders = new Map<string, RequestRecord[]>();
function storeOrder(sortBy: ListFilter['sortBy'], direction: 'asc' | 'desc'): RequestRecord[] {
  const key = `${sortBy} ${direction}`;
  let order = storeOrders.get(key);
  if (!order) {
    order = listing.page({ sortBy, direction, after: undefined, limit: all.length + 1, matches: () => true }).records;
    expect(order).toHaveLength(all.length);
    storeOrders.set(key, order);
  }
  return order;
}

/** Every row read and filtered in JS: the ids a listing of `f` holds, in order. */
function everyRowFiltered(f: ListFilter, direction: 'asc' | 'desc'): string[] {
  return storeOrder(f.sortBy, direction)
    .filter((record) => matchesListFilter(record, f))
    .map((record) => record.id);
}

function checkAgainstExactFilter(f: ListFilter, direction: 'asc' | 'desc', limit: number): ListingPrefilter {
  const matches = (record: RequestRecord) => matchesListFilter(record, f);
  const prefilter = listingPrefilter(f);
  const expected = everyRowFiltered(f, direction);
  expect(allPages(f, direction, limit, prefilter)).toEqual(expected);
  expect(listing.count(matches, prefilter)).toBe(all.filter(matches).length);
  expect(expected.length).toBe(all.filter(matches).length);
  return prefilter;
}

describe('listing prefilter (SQL) vs the exact filter alone', () => {
  // the reference the property runs hold the prefilter's pages to (every row read and filtered in
  // JS, from one read per order) is what the store's own pages give without a prefilter, page by
  // page, whatever the limit
  it('without a prefilter, the pages are every row read and filtered in JS, at any limit', () => {
    const filters: ListFilter[] = [
      { base: [], anyOf: undefined, sortBy: 'createdAt' },
      { base: [{ field: 'status', negated: true, values: ['success'] }], anyOf: undefined, sortBy: 'updatedAt' },
      { base: [{ field: 'referrer', negated: false, values: ['special'] }], anyOf: [[{ field: 'originChainId', negated: false, values: [1] }], [{ field: 'apiKey', negated: false, values: ['key-b'] }]], sortBy: 'amountUsd' },
    ];
    for (const f of filters) {
      for (const direction of ['asc', 'desc'] as const) {
        const expected = everyRowFiltered(f, direction);
        expect(expected.length).toBeGreaterThan(0);
        for (const limit of [1, 2, 7, 50]) expect(allPages(f, direction, limit, undefined), `${f.sortBy} ${direction} limit ${limit}`).toEqual(expected);
      }
    }
  });

  it('pages through the same records and counts the same total', () => {
    fc.assert(
      fc.property(filter, fc.constantFrom('asc' as const, 'desc' as const), fc.integer({ min: 1, max: 50 }), (f, direction, limit) => {
        checkAgainstExactFilter(f, direction, limit);
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  // one indexed column in a list (status or origin chain), as a status list or as `filters` groups
  // of one value each, beside other conditions: pages merge one index read per value
  const listed = fc.oneof(
    fc.record({ field: fc.constant('status' as const), values: fc.subarray([...REQUEST_STATUSES], { minLength: 2 }) }),
    fc.record({ field: fc.constant('originChainId' as const), values: fc.subarray(CHAINS, { minLength: 2 }) }),
  );
  const splitFilter: fc.Arbitrary<ListFilter> = fc
    .record({
      list: listed,
      asGroups: fc.boolean(),
      duplicate: fc.boolean(),
      others: fc.array(condition, { maxLength: 2 }),
      sortBy: fc.constantFrom('createdAt' as const, 'updatedAt' as const, 'amountUsd' as const),
    })
    .map(({ list, asGroups, duplicate, others, sortBy }) => {
      const values: FilterCondition['values'] = duplicate ? [...list.values, list.values[0]!] : list.values;
      return asGroups
        ? { base: others, anyOf: values.map((value) => [{ field: list.field, negated: false, values: [value] }]), sortBy }
        : { base: [{ field: list.field, negated: false, values }, ...others], anyOf: undefined, sortBy };
    });

  it('merges one indexed read per listed value into the same pages, cursors and counts', () => {
    let merged = 0;
    fc.assert(
      fc.property(splitFilter, fc.constantFrom('asc' as const, 'desc' as const), fc.integer({ min: 1, max: 40 }), (f, direction, limit) => {
        const prefilter = checkAgainstExactFilter(f, direction, limit);
        expect(prefilter.split).toBeDefined();
        if (f.sortBy !== 'amountUsd') merged++;
      }),
      { numRuns: 150, seed: 11 },
    );
    expect(merged).toBeGreaterThan(50);
  });

  it('leaves no statement busy after a merged page (the connection can write again)', () => {
    const f: ListFilter = { base: [{ field: 'status', negated: false, values: ['success', 'refund', 'failure'] }], anyOf: undefined, sortBy: 'createdAt' };
    const page = listing.page({ sortBy: 'createdAt', direction: 'desc', after: undefined, limit: 2, matches: (record) => matchesListFilter(record, f), prefilter: listingPrefilter(f) });
    expect(page.records).toHaveLength(2);
    expect(() => db.prepare("INSERT INTO meta (key, value) VALUES ('after-merged-page', '1')").run()).not.toThrow();
  });
});
