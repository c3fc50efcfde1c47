import type { FilterCondition, FilterGroup, ListFilter } from '../domain/listing/requestListFilter';

/**
 * The part of a listing filter SQLite can apply on its own columns, so rows that cannot match are
 * never read and parsed. It is a necessary condition only: the exact filter
 * (`matchesListFilter`) still runs on every row it lets through. `exact` says the SQL alone
 * decides the match (then a count needs no row at all).
 */
export interface ListingPrefilter {
  /** SQL boolean expression over the `requests` table, `1` when nothing can be pushed down. */
  where: string;
  params: Array<string | number>;
  exact: boolean;
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

function conditionSql(condition: FilterCondition, params: Array<string | number>): string | undefined {
  const target = COLUMNS[condition.field];
  if (!target) return undefined;
  const values = condition.values.map((value) => (typeof value === 'bigint' ? Number(value) : target.lowerCase ? String(value).toLowerCase() : value));
  params.push(...values);
  const list = `(${values.map(() => '?').join(', ')})`;
  // a NULL column (no api key) is "not in" any list, as the exact filter says
  if (condition.negated) return `(${target.column} IS NULL OR ${target.column} NOT IN ${list})`;
  // several values: keep SQLite on the time-ordered index (`+` stops it from picking the column's
  // own index and sorting every match), so a page stops reading once it is full
  return `${values.length > 1 ? '+' : ''}${target.column} IN ${list}`;
}

/** A group's pushable conditions, AND-ed; `exact` when every condition was pushable. */
function groupSql(group: FilterGroup, params: Array<string | number>): { sql: string; exact: boolean } {
  const directional = group.some((c) => c.field === 'originChainId' || c.field === 'destinationChainId');
  const parts: string[] = [];
  let exact = true;
  for (const condition of group) {
    if (condition.field === 'chainId' && directional) continue; // gives way, as in matchesGroup
    const sql = conditionSql(condition, params);
    if (sql === undefined) exact = false;
    else parts.push(sql);
  }
  return { sql: parts.length === 0 ? '1' : parts.join(' AND '), exact };
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

export function listingPrefilter(filter: ListFilter): ListingPrefilter {
  const params: Array<string | number> = [];
  const base = groupSql(filter.base, params);
  if (filter.anyOf === undefined) return { where: base.sql, params, exact: base.exact };
  const merged = mergedSingleColumnGroups(filter.anyOf);
  if (merged) {
    const group = groupSql(merged, params);
    return { where: `(${base.sql}) AND ${group.sql}`, params, exact: base.exact && group.exact };
  }
  const groups = filter.anyOf.map((group) => groupSql(group, params));
  return {
    where: `(${base.sql}) AND (${groups.map((g) => `(${g.sql})`).join(' OR ')})`,
    params,
    exact: base.exact && groups.every((g) => g.exact),
  };
}
