import type { RequestRecord } from '../domain/request/requestRecord';
import { matchesListFilter, type ListFilter, type ListSortKey } from '../domain/listing/requestListFilter';
import { listingPrefilter } from '../store/listingPrefilter';
import type { ListPosition, RequestListingStore, SortDirection } from '../store/RequestListingStore';
import type { RequestStore } from '../store/RequestStore';

export interface RequestPageQuery {
  filter: ListFilter;
  sortBy: ListSortKey;
  direction: SortDirection;
  /** Start strictly after this position (decoded from the continuation cursor). */
  after: ListPosition | undefined;
  limit: number;
  includeChildRequests: boolean;
  includeTotal: boolean;
}

export interface RequestPage {
  records: RequestRecord[];
  /** Where the next page starts; undefined on the last page. */
  next: ListPosition | undefined;
  /** How many records match in all (only when asked for). */
  total: number | undefined;
}

/**
 * `includeChildRequests` with `id`: the request and those that took it over
 * (`supersededByRequestId`, followed to the end of the chain).
 */
function withChildRequests(requests: RequestStore, query: RequestPageQuery): ListFilter {
  const idCondition = query.filter.base.find((c) => c.field === 'id' && !c.negated);
  if (!query.includeChildRequests || !idCondition) return query.filter;
  const ids = new Set(idCondition.values.map((v) => String(v).toLowerCase()));
  for (const start of [...ids]) {
    let record = requests.get(start);
    while (record?.supersededByRequestId && !ids.has(record.supersededByRequestId.toLowerCase())) {
      ids.add(record.supersededByRequestId.toLowerCase());
      record = requests.get(record.supersededByRequestId);
    }
  }
  return { ...query.filter, base: query.filter.base.map((c) => (c === idCondition ? { ...c, values: [...ids] } : c)) };
}

/** One page of SPEC §4.3's request listing, whatever endpoint version asked for it. */
export function listRequestPage(deps: { listing: RequestListingStore; requests: RequestStore }, query: RequestPageQuery): RequestPage {
  const filter = withChildRequests(deps.requests, query);
  const matches = (record: RequestRecord) => matchesListFilter(record, filter);
  const prefilter = listingPrefilter(filter);
  const page = deps.listing.page({ sortBy: query.sortBy, direction: query.direction, after: query.after, limit: query.limit, matches, prefilter });
  return { records: page.records, next: page.next, total: query.includeTotal ? deps.listing.count(matches, prefilter) : undefined };
}
