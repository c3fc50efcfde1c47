import { z } from 'zod';
import type { ListSortKey } from '../../domain/listing/requestListFilter';
import { InvalidContinuationError } from '../../errors/listingErrors';
import type { ListPosition, SortDirection } from '../../store/RequestListingStore';

const CursorSchema = z.object({ v: z.literal(1), s: z.string(), d: z.string(), k: z.union([z.number(), z.string()]), i: z.string() }).strict();

/**
 * The opaque `continuation` of SPEC §4.3: the sort, and the (sort key, id) of the last record
 * returned, as base64url JSON. Only meaningful for the same sortBy and sortDirection.
 */
export function encodeListingCursor(sortBy: ListSortKey, direction: SortDirection, position: ListPosition): string {
  return Buffer.from(JSON.stringify({ v: 1, s: sortBy, d: direction, k: position.key, i: position.id })).toString('base64url');
}

export function decodeListingCursor(text: string, sortBy: ListSortKey, direction: SortDirection): ListPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidContinuationError('it is not a cursor this listing returned');
  }
  const parsed = CursorSchema.safeParse(decoded);
  if (!parsed.success) throw new InvalidContinuationError('it is not a cursor this listing returned');
  if (parsed.data.s !== sortBy || parsed.data.d !== direction) {
    throw new InvalidContinuationError(`it was issued for sortBy=${parsed.data.s}&sortDirection=${parsed.data.d}; repeat the query with those`);
  }
  return { key: parsed.data.k, id: parsed.data.i };
}
