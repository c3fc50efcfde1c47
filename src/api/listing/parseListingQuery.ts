import { z } from 'zod';
import {
  LIST_SORT_KEYS,
  V3_FILTER_FIELDS,
  parseFilterCondition,
  type FilterCondition,
  type FilterGroup,
  type ListFilter,
  type ListFilterField,
  type ListSortKey,
} from '../../domain/listing/requestListFilter';
import { InvalidRequestBodyError } from '../../errors/requestErrors';
import type { ListPosition, SortDirection } from '../../store/RequestListingStore';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { decodeListingCursor } from './listingCursor';

/** SPEC §8: page size of `GET /requests/v3`. */
export const LISTING_LIMIT = { default: 20, min: 1, max: 50 } as const;
/** SPEC §8 leaves filter sizes open: the simulator's bounds (docs/divergences.md). */
export const FILTERS_LIMIT = { groups: 50, valuesPerField: 100 } as const;

export type ListingDialect = 'v3' | 'v2' | 'v1';

export interface ListingQuery {
  limit: number;
  sortBy: ListSortKey;
  direction: SortDirection;
  after: ListPosition | undefined;
  filter: ListFilter;
  includeAuthenticatedData: boolean;
  includeChildRequests: boolean;
  includeTotal: boolean;
}

/** Parameters that are not filters, per endpoint (the SDK's types of each version). */
const CONTROL_PARAMS: Record<ListingDialect, readonly string[]> = {
  v3: ['limit', 'continuation', 'includeTotal', 'sortBy', 'sortDirection', 'includeAuthenticatedData', 'includeChildRequests', 'privateChainsToInclude', 'filters'],
  v2: ['limit', 'continuation', 'sortBy', 'sortDirection', 'includeAuthenticatedData', 'includeChildRequests', 'privateChainsToInclude', 'includeOrderData'],
  v1: ['limit', 'continuation', 'privateChainsToInclude'],
};

/** Filter parameters per endpoint; the older `user` is sender-or-recipient (SDK types of v1/v2). */
const FILTER_PARAMS: Record<ListingDialect, Record<string, ListFilterField>> = {
  v3: Object.fromEntries(V3_FILTER_FIELDS.map((field) => [field, field])),
  v2: {
    user: 'senderOrRecipient', hash: 'hash', originChainId: 'originChainId', destinationChainId: 'destinationChainId', id: 'id',
    orderId: 'orderId', startTimestamp: 'startTimestamp', endTimestamp: 'endTimestamp', startBlock: 'startBlock', endBlock: 'endBlock',
    chainId: 'chainId', referrer: 'referrer', depositAddress: 'depositAddress', status: 'status', apiKey: 'apiKey',
  },
  v1: {
    user: 'senderOrRecipient', hash: 'hash', originChainId: 'originChainId', destinationChainId: 'destinationChainId', id: 'id',
    startTimestamp: 'startTimestamp', endTimestamp: 'endTimestamp',
  },
};

const SORT_KEYS: Record<ListingDialect, readonly ListSortKey[]> = { v3: LIST_SORT_KEYS, v2: ['createdAt', 'updatedAt'], v1: ['createdAt'] };

const schemas = new Map<ListingDialect, z.ZodType<Record<string, string | undefined>>>();
/** The query parameters a listing version takes (all strings; their values are checked below). */
export function listingQuerySchema(dialect: ListingDialect): z.ZodType<Record<string, string | undefined>> {
  let schema = schemas.get(dialect);
  if (!schema) {
    const keys = [...CONTROL_PARAMS[dialect], ...Object.keys(FILTER_PARAMS[dialect])];
    schema = z.object(Object.fromEntries(keys.map((key) => [key, z.string().optional()]))).strict() as unknown as z.ZodType<Record<string, string | undefined>>;
    schemas.set(dialect, schema);
  }
  return schema;
}

function invalid(message: string): never {
  throw new InvalidRequestBodyError(`Invalid request: ${message}`);
}

function parseBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return invalid(`${name}: must be true or false`);
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return LISTING_LIMIT.default;
  const limit = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(limit) || limit < LISTING_LIMIT.min || limit > LISTING_LIMIT.max) {
    invalid(`limit: must be an integer from ${LISTING_LIMIT.min} to ${LISTING_LIMIT.max}`);
  }
  return limit;
}

function condition(key: string, raw: unknown, fields?: readonly ListFilterField[], where = ''): FilterCondition {
  const result = parseFilterCondition(key, raw, fields);
  if (!result.ok) return invalid(`${where}${result.message}`);
  return result.condition;
}

/** SPEC §4.3 `filters`: a JSON array of groups (objects); AND within a group, OR across groups. */
function parseFiltersParam(text: string): FilterGroup[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return invalid('filters: must be a JSON-encoded array of filter groups');
  }
  if (!Array.isArray(parsed)) return invalid('filters: must be a JSON array of filter-group objects');
  if (parsed.length > FILTERS_LIMIT.groups) invalid(`filters: at most ${FILTERS_LIMIT.groups} groups`);
  // an empty array sets no constraint (as an absent `filters`)
  if (parsed.length === 0) return undefined;
  return parsed.map((group, index) => {
    if (typeof group !== 'object' || group === null || Array.isArray(group)) invalid(`filters[${index}]: each group must be an object`);
    return Object.entries(group as Record<string, unknown>).map(([key, value]) => {
      if (Array.isArray(value) && value.length > FILTERS_LIMIT.valuesPerField) invalid(`filters[${index}].${key}: at most ${FILTERS_LIMIT.valuesPerField} values`);
      return condition(key, value, V3_FILTER_FIELDS, `filters[${index}].`);
    });
  });
}

/** Validates a listing query of `GET /requests/v3` (or an older version): every problem is a 400 naming the parameter. */
export function parseListingQuery(rawQuery: unknown, dialect: ListingDialect): ListingQuery {
  const query = parseWithSchema(listingQuerySchema(dialect), rawQuery);
  const sortBy = (query.sortBy ?? 'createdAt') as ListSortKey;
  if (!SORT_KEYS[dialect].includes(sortBy)) invalid(`sortBy: must be one of ${SORT_KEYS[dialect].join(', ')}`);
  const direction = (query.sortDirection ?? (sortBy === 'amountUsd' ? 'asc' : 'desc')) as SortDirection;
  if (direction !== 'asc' && direction !== 'desc') invalid('sortDirection: must be asc or desc');
  if (query.privateChainsToInclude !== undefined && query.privateChainsToInclude.split(',').some((id) => id.trim() === '')) {
    invalid('privateChainsToInclude: must be a comma-separated list of private chain ids');
  }

  parseBoolean('includeOrderData', query.includeOrderData);

  const base: FilterGroup = [];
  for (const [param, field] of Object.entries(FILTER_PARAMS[dialect])) {
    const value = query[param];
    if (value === undefined) continue;
    const parsed = condition(field, value);
    // the older enums have no `submitted`: their `pending` covers it
    if (dialect !== 'v3' && field === 'status' && parsed.values.includes('pending')) parsed.values.push('submitted');
    base.push(parsed);
  }
  return {
    limit: parseLimit(query.limit),
    sortBy,
    direction,
    after: query.continuation === undefined ? undefined : decodeListingCursor(query.continuation, sortBy, direction),
    filter: { base, anyOf: query.filters === undefined ? undefined : parseFiltersParam(query.filters), sortBy },
    includeAuthenticatedData: parseBoolean('includeAuthenticatedData', query.includeAuthenticatedData),
    includeChildRequests: parseBoolean('includeChildRequests', query.includeChildRequests),
    includeTotal: parseBoolean('includeTotal', query.includeTotal),
  };
}
