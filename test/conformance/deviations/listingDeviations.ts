import type { Deviation, ProxiedRequest } from '../deviationProxy';

const LISTING = '/requests/v3';

interface ListingBody {
  requests: Array<Record<string, any>>;
  continuation?: string;
}

/** Changes each 200 answer of `GET /requests/v3` whose request `when` accepts. */
function listingAnswer(change: (body: ListingBody, request: ProxiedRequest) => void, when: (request: ProxiedRequest) => boolean = () => true): Deviation['response'] {
  return (request, response) => {
    if (request.path !== LISTING || response.status !== 200 || !when(request)) return undefined;
    const body = structuredClone(response.body) as ListingBody;
    change(body, request);
    return { body };
  };
}

/** Changes the query of `GET /requests/v3` before it reaches the simulator (a parameter ignored, a bound not enforced). */
function listingQuery(change: (query: URLSearchParams) => void): Deviation['request'] {
  return (request) => {
    if (request.path !== LISTING) return undefined;
    const query = new URLSearchParams(request.query);
    change(query);
    return query.toString() === request.query.toString() ? undefined : { query };
  };
}

/** The filter parameter `name` never reaches the simulator: the filter is ignored. */
function ignoredFilter(name: string): Deviation['request'] {
  return listingQuery((query) => query.delete(name));
}

/**
 * An auth check dropped: remembers the first key a request carries (the run's valid key) and
 * puts it on listing requests that come without one (`keyless`) or with another one.
 */
function keyAddedToListings(name: string, only: string, replace: 'keyless' | 'unknown'): Deviation {
  let validKey: string | undefined;
  return {
    name,
    section: '5',
    only: [only],
    request: (request) => {
      const key = request.headers['x-api-key'];
      if (typeof key === 'string') validKey ??= key;
      if (request.path !== LISTING || validKey === undefined) return undefined;
      if (replace === 'keyless' ? key !== undefined : key === undefined || key === validKey) return undefined;
      return { headers: { ...request.headers, 'x-api-key': validKey } };
    },
  };
}

/** Paging that repeats a record: each next page starts with the last record of the page before it. */
function pagesRepeatARecord(): Deviation {
  let lastRecord: Record<string, unknown> | undefined;
  return {
    name: 'each next page starts with the last record of the previous page',
    section: '4.3',
    only: ['listing.continuation-paging'],
    response: listingAnswer((body, request) => {
      const previous = lastRecord;
      lastRecord = body.requests.at(-1);
      if (request.query.has('continuation') && previous !== undefined && body.requests.length > 0) body.requests[0] = previous;
    }),
  };
}

const hasNo = (name: string) => (request: ProxiedRequest) => !request.query.has(name);

export const listingDeviations: readonly Deviation[] = [
  // §5: the key
  keyAddedToListings('a keyless GET /requests/v3 is served with a valid key (the auth check dropped)', 'listing.key-missing', 'keyless'),
  keyAddedToListings('an unknown x-api-key on GET /requests/v3 is served as a valid one', 'listing.key-unknown', 'unknown'),
  {
    name: 'includeAuthenticatedData=true changes a record\'s status',
    section: '5',
    only: ['listing.authenticated-data'],
    response: listingAnswer(
      (body) => body.requests.forEach((record) => void (record.status = record.status === 'success' ? 'pending' : 'success')),
      (request) => request.query.get('includeAuthenticatedData') === 'true',
    ),
  },

  {
    name: 'includeAuthenticatedData=true adds a referrer to every record, the integrator\'s own or not',
    section: '5',
    only: ['listing.authenticated-data'],
    response: listingAnswer(
      (body) => body.requests.forEach((record) => void (record.data = { ...record.data, referrer: record.data?.referrer ?? 'someone' })),
      (request) => request.query.get('includeAuthenticatedData') === 'true',
    ),
  },

  // §8: limit
  { name: 'limit=51 is served as limit=50 (the maximum not enforced)', section: '8', only: ['listing.limit-bounds'], request: listingQuery((query) => void (query.get('limit') === '51' && query.set('limit', '50'))) },
  { name: 'limit=0 is served as limit=1 (the minimum not enforced)', section: '8', only: ['listing.limit-bounds'], request: listingQuery((query) => void (query.get('limit') === '0' && query.set('limit', '1'))) },
  {
    name: 'a page without limit holds 21 records',
    section: '8',
    only: ['listing.limit-default'],
    response: listingAnswer((body) => {
      const [first] = body.requests;
      if (first) while (body.requests.length <= 20) body.requests.push(first);
    }, hasNo('limit')),
  },

  // §4.3: paging and sorting
  { name: 'limit=2 is ignored: the first page holds every record', section: '4.3', only: ['listing.continuation-paging'], request: listingQuery((query) => void (query.get('limit') === '2' && query.delete('limit'))) },
  pagesRepeatARecord(),
  { name: 'the continuation cursor is never given', section: '4.3', only: ['listing.continuation-paging'], response: listingAnswer((body) => void delete body.continuation) },
  { name: 'without sortBy records come oldest first', section: '4.3', only: ['listing.sort-by-time'], response: listingAnswer((body) => void body.requests.reverse(), hasNo('sortBy')) },
  {
    name: 'sortBy=amountUsd sorts descending by default',
    section: '4.3',
    only: ['listing.sort-by-amount'],
    response: listingAnswer((body) => void body.requests.reverse(), (request) => request.query.get('sortBy') === 'amountUsd' && !request.query.has('sortDirection')),
  },

  // §4.3: filters
  { name: 'the originChainId filter is ignored', section: '4.3', only: ['listing.filter-chains'], request: ignoredFilter('originChainId') },
  { name: 'the id filter is ignored', section: '4.3', only: ['listing.filter-ids'], request: ignoredFilter('id') },
  { name: 'the apiKey filter is ignored', section: '4.3', only: ['listing.filter-parties'], request: ignoredFilter('apiKey') },
  { name: 'the currencyInAddress filter is ignored', section: '4.3', only: ['listing.filter-currencies'], request: ignoredFilter('currencyInAddress') },
  { name: 'the status filter is ignored', section: '4.3', only: ['listing.filter-kinds'], request: ignoredFilter('status') },
  { name: 'the amountUsdMin filter is ignored', section: '4.3', only: ['listing.filter-bounds'], request: ignoredFilter('amountUsdMin') },
  { name: 'the depositTxHash filter is ignored', section: '4.3', only: ['listing.filter-hashes'], request: ignoredFilter('depositTxHash') },
  { name: 'the filters parameter is ignored', section: '4.3', only: ['listing.filter-groups'], request: ignoredFilter('filters') },
  {
    name: 'filters: not: is read as a plain condition',
    section: '4.3',
    only: ['listing.filter-groups'],
    request: listingQuery((query) => void (query.has('filters') && query.set('filters', query.get('filters')!.replaceAll('"not:', '"')))),
  },

  // §2.3: the records
  { name: 'a record with a null data.failedTxHash', section: '2.3', only: ['listing.record-fields'], response: listingAnswer((body) => body.requests.forEach((record) => void (record.data.failedTxHash = null))) },
  {
    // the simulator's own records before issue 28: every §2.3 field present, null where there was no value
    name: 'records with null in the data fields §2.3 types without null (failedTxHash, failedTxBlockNumber, failedCallData, appFees, feeSponsorship) when they have no value',
    section: '2.3',
    only: ['listing.record-fields'],
    response: listingAnswer((body) =>
      body.requests.forEach((record) => {
        for (const field of ['failedTxHash', 'failedTxBlockNumber', 'failedCallData', 'appFees', 'feeSponsorship']) record.data[field] ??= null;
      }),
    ),
  },
  { name: 'a record without data.inTxs', section: '2.3', only: ['listing.record-fields'], response: listingAnswer((body) => body.requests.forEach((record) => void delete record.data.inTxs)) },
  { name: 'a record with status "completed"', section: '2.3', only: ['listing.record-fields'], response: listingAnswer((body) => body.requests.forEach((record) => void (record.status = 'completed'))) },
  { name: 'a record whose sender is missing instead of null', section: '2.3', only: ['listing.record-fields'], response: listingAnswer((body) => body.requests.forEach((record) => void delete record.sender)) },
  { name: 'a record with the user as its recipient', section: '2.3', only: ['listing.record-matches-quote'], response: listingAnswer((body) => body.requests.forEach((record) => void (record.recipient = record.user))) },
];
