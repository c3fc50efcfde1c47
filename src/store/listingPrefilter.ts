import type { FilterCondition, FilterGroup, ListFilter } from '../domain/listing/requestListFilter';

type SqlParam = string | number;

/**
 * The part of a listing filter SQLite can apply on its own columns, so rows that cannot match are
 * never read and parsed. It is a necessary condition only: the exact filter
 * (`matchesListFilter`) still runs on every row it lets through. `exact` says the SQL alone
 * decides the match (then a count needs no row at all).
 */
export interface ListingPrefilter {
  /** SQL boolean expression over the `requests` table, `1` when nothing can be pushed down. */
  where: string;
  params: SqlParam[];
  exact: boolean;
  /**
   * The same condition for `COUNT(*)` (same params): IN lists without the `+` that keeps a
   * page's single query on the time-ordered index, so SQLite may count off the column's own index.
   */
  countWhere: string;
  /**
   * When the filter needs one indexed column to be one of several values (`status=a&status=b`,
   * or `filters` groups that each name one value of it): the column, its values and the rest of
   * the condition. A page can then read each value off its own (column, sort key, id) index, in
   * order, and merge them (`RequestListingStore`), instead of walking the whole time order.
   * `where` ≡ `column IN values AND rest`.
   */
  split?: ListingSplit;
}

export interface ListingSplit {
  /** One of SPLIT_COLUMNS. */
  column: string;
  /** Distinct, as stored. */
  values: SqlParam[];
  rest: string;
  restParams: SqlParam[];
}

/** Fields stored in a column exactly as the filter compares them (ids and addresses are stored lower-case). */
const COLUMNS: Partial<Record<FilterCondition['field'], { column: string; lowerCase?: boolean }>> = {
  status: { column: 'status' },
  originChainId: { column: 'origin_chain_id' },
  destinationChainId: { column: 'destination_chain_id' },
  apiKey: { column: 'api_key' },
  recipient: { column: 'recipient', lowerCase: true },
  id: { column: 'id', lowerCase: true },
};

/** Columns with (column, sort key, id) indexes (migrations 7 and 9), in the order a split prefers them. */
const SPLIT_COLUMNS = ['status', 'origin_chain_id'];

/** One AND-ed part of the condition: its SQL (page and count forms) and params. */
interface Part {
  sql: string;
  countSql: string;
  params: SqlParam[];
  /** A positive IN list of several values on one column. */
  list?: { column: string; values: SqlParam[] };
}

function conditionPart(condition: FilterCondition): Part | undefined {
  const target = COLUMNS[condition.field];
  if (!target) return undefined;
  const values = condition.values.map((value) => (typeof value === 'bigint' ? Number(value) : target.lowerCase ? String(value).toLowerCase() : value));
  const list = `(${values.map(() => '?').join(', ')})`;
  // a NULL column (no api key) is "not in" any list, as the exact filter says
  if (condition.negated) {
    const sql = `(${target.column} IS NULL OR ${target.column} NOT IN ${list})`;
    return { sql, countSql: sql, params: values };
  }
  const countSql = `${target.column} IN ${list}`;
  if (values.length === 1) return { sql: countSql, countSql, params: values };
  // several values: keep SQLite on the time-ordered index (`+` stops it from picking the column's
  // own index and sorting every match), so a page stops reading once it is full
  return { sql: `+${countSql}`, countSql, params: values, list: { column: target.column, values: [...new Set(values)] } };
}

/** A group's pushable conditions, AND-ed; `exact` when every condition was pushable. */
function groupParts(group: FilterGroup): { parts: Part[]; exact: boolean } {
  const directional = group.some((c) => c.field === 'originChainId' || c.field === 'destinationChainId');
  const parts: Part[] = [];
  let exact = true;
  for (const condition of group) {
    if (condition.field === 'chainId' && directional) continue; // gives way, as in matchesGroup
    const part = conditionPart(condition);
    if (part === undefined) exact = false;
    else parts.push(part);
  }
  return { parts, exact };
}

function joined(parts: Part[]): Part {
  if (parts.length === 0) return { sql: '1', countSql: '1', params: [] };
  if (parts.length === 1) return parts[0]!;
  return { sql: parts.map((p) => p.sql).join(' AND '), countSql: parts.map((p) => p.countSql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

/**
 * `filters` groups that each hold one condition on the same column (`[{status:"refund"},
 * {status:"failure"}]`) are one `IN` list: SQLite then reads them off an index in order, where an
 * OR of groups would make it sort every match.
 */
function mergedSingleColumnGroups(groups: FilterGroup[]): FilterGroup | undefined {
  const conditions = groups.map((group) => (group.length === 1 ? group[0]! : undefined));
  const first = conditions[0];
  if (!first || first.negated || !COLUMNS[first.field]) return undefined;
  if (!conditions.every((c) => c !== undefined && !c.negated && c.field === first.field)) return undefined;
  return [{ field: first.field, negated: false, values: conditions.flatMap((c) => c!.values) }];
}

/** The AND-ed parts of the whole filter: the base group's conditions, then the `filters` groups. */
function filterParts(filter: ListFilter): { parts: Part[]; exact: boolean } {
  const base = groupParts(filter.base);
  if (filter.anyOf === undefined) return base;
  const merged = mergedSingleColumnGroups(filter.anyOf);
  if (merged) {
    const group = groupParts(merged);
    return { parts: [...base.parts, ...group.parts], exact: base.exact && group.exact };
  }
  const groups = filter.anyOf.map(groupParts);
  const alternatives = groups.map((g) => joined(g.parts));
  const anyOf: Part = {
    sql: `(${alternatives.map((g) => `(${g.sql})`).join(' OR ')})`,
    countSql: `(${alternatives.map((g) => `(${g.countSql})`).join(' OR ')})`,
    params: alternatives.flatMap((g) => g.params),
  };
  return { parts: [...base.parts, anyOf], exact: base.exact && groups.every((g) => g.exact) };
}

function splitOf(parts: Part[]): ListingSplit | undefined {
  for (const column of SPLIT_COLUMNS) {
    const at = parts.findIndex((part) => part.list?.column === column);
    if (at < 0) continue;
    const rest = joined(parts.filter((_, index) => index !== at));
    // the rest keeps its `+`: each value's query must stay on the split column's index
    return { column, values: parts[at]!.list!.values, rest: rest.sql, restParams: rest.params };
  }
  return undefined;
}

export function listingPrefilter(filter: ListFilter): ListingPrefilter {
  const { parts, exact } = filterParts(filter);
  const all = joined(parts);
  const split = splitOf(parts);
  return { where: all.sql, params: all.params, exact, countWhere: all.countSql, ...(split ? { split } : {}) };
}
