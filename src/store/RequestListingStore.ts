import type Database from 'better-sqlite3';
import type { RequestRecord } from '../domain/request/requestRecord';
import { amountUsdMicrosOf } from '../domain/request/requestRecordView';
import type { ListSortKey } from '../domain/listing/requestListFilter';
import { parseWithBigints } from './jsonWithBigints';
import type { ListingPrefilter, ListingSplit } from './listingPrefilter';

type SqlParam = string | number;

const AMOUNT_USD_KEY_WIDTH = 100;

/**
 * `currencyIn.amountUsd` (micro-USD) as fixed-width decimal text, so SQLite's text order is the
 * numeric order for any bigint (an INTEGER column would overflow on absurd amounts).
 */
export function amountUsdSortKey(record: RequestRecord): string {
  const digits = amountUsdMicrosOf(record).toString();
  return digits.length > AMOUNT_USD_KEY_WIDTH ? '9'.repeat(AMOUNT_USD_KEY_WIDTH) : digits.padStart(AMOUNT_USD_KEY_WIDTH, '0');
}

export type SortDirection = 'asc' | 'desc';

/** A position in one ordering: the sort key's value and the id of the last record returned. */
export interface ListPosition {
  key: number | string;
  id: string;
}

export interface ListPageParams {
  sortBy: ListSortKey;
  direction: SortDirection;
  /** Start strictly after this position (the continuation cursor). */
  after: ListPosition | undefined;
  limit: number;
  matches: (record: RequestRecord) => boolean;
  /** What SQLite can rule out on its own columns first (see `listingPrefilter`). */
  prefilter?: ListingPrefilter;
}

export interface ListPage {
  records: RequestRecord[];
  /** Where the next page starts; undefined on the last page. */
  next: ListPosition | undefined;
}

const SORT_COLUMNS: Record<ListSortKey, string> = { createdAt: 'created_at', updatedAt: 'updated_at', amountUsd: 'amount_usd_key' };

interface ListRow {
  id: string;
  sort_key: number | string;
  record_json: string;
}

/**
 * The sort keys a split column can be read in, off a (column, key, id) index (migrations 7 and
 * 9): `ListingPrefilter.split` is used only for these.
 */
const SPLIT_INDEXES: Partial<Record<string, readonly ListSortKey[]>> = {
  status: ['createdAt', 'updatedAt', 'amountUsd'],
  origin_chain_id: ['createdAt'],
};

/** SQLite's order of (sort key, id): integers numerically, text (hex ids, padded keys) by code unit. */
function compareRows(a: ListRow, b: ListRow): number {
  if (a.sort_key !== b.sort_key) return a.sort_key < b.sort_key ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Reads for `GET /requests*` (SPEC §4.3): keyset pagination on (sort key, id), so a page never
 * repeats or skips a record because others were inserted meanwhile. Rows stream in order and
 * the filter runs on each until a page is full.
 */
export class RequestListingStore {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  page(params: ListPageParams): ListPage {
    const records: RequestRecord[] = [];
    let next: ListPosition | undefined;
    let last: ListPosition | undefined;
    for (const row of this.rowsAfter(params.sortBy, params.direction, params.after, params.prefilter)) {
      const record = parseWithBigints<RequestRecord>(row.record_json);
      if (!params.matches(record)) continue;
      if (records.length === params.limit) {
        next = last;
        break;
      }
      records.push(record);
      last = { key: row.sort_key, id: row.id };
    }
    return { records, next };
  }

  /** How many records match, over the whole store: SQLite alone counts when the prefilter is exact. */
  count(matches: (record: RequestRecord) => boolean, prefilter?: ListingPrefilter): number {
    if (prefilter?.exact) {
      const row = this.statement(`SELECT COUNT(*) AS total FROM requests WHERE ${prefilter.countWhere}`).get(...prefilter.params) as { total: number };
      return row.total;
    }
    let total = 0;
    for (const row of this.rowsAfter('createdAt', 'asc', undefined, prefilter)) if (matches(parseWithBigints<RequestRecord>(row.record_json))) total++;
    return total;
  }

  private rowsAfter(sortBy: ListSortKey, direction: SortDirection, after: ListPosition | undefined, prefilter: ListingPrefilter | undefined): Iterable<ListRow> {
    const split = prefilter?.split;
    if (split && SPLIT_INDEXES[split.column]?.includes(sortBy)) return this.mergedRowsAfter(sortBy, direction, after, split);
    return this.queryRowsAfter(sortBy, direction, after, prefilter && prefilter.where !== '1' ? { where: prefilter.where, params: prefilter.params } : undefined);
  }

  /** One query: rows in (sort key, id) order after the cursor, that pass `condition`. */
  private queryRowsAfter(sortBy: ListSortKey, direction: SortDirection, after: ListPosition | undefined, condition: { where: string; params: SqlParam[] } | undefined, slot = 0): IterableIterator<ListRow> {
    const column = SORT_COLUMNS[sortBy];
    const comparison = direction === 'asc' ? '>' : '<';
    const order = direction === 'asc' ? 'ASC' : 'DESC';
    const conditions = [
      ...(condition ? [`(${condition.where})`] : []),
      ...(after ? [`(${column} ${comparison} ? OR (${column} = ? AND id ${comparison} ?))`] : []),
    ];
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const sql = `SELECT id, ${column} AS sort_key, record_json FROM requests ${where} ORDER BY ${column} ${order}, id ${order}`;
    const params = [...(condition ? condition.params : []), ...(after ? [after.key, after.key, after.id] : [])];
    return this.statement(sql, slot).iterate(...params) as IterableIterator<ListRow>;
  }

  /**
   * `column IN (v1, v2, …) AND rest`, as one ordered stream: each value is read off its own
   * (column, sort key, id) index, after the same cursor, and the streams are merged by (sort key,
   * id). Each stream reads only as far as the page needs, however far down the time order the
   * matches are. The values are distinct, so no row comes twice.
   */
  private *mergedRowsAfter(sortBy: ListSortKey, direction: SortDirection, after: ListPosition | undefined, split: ListingSplit): Generator<ListRow> {
    const rest = split.rest === '1' ? '' : ` AND (${split.rest})`;
    const sources = split.values.map((value, slot) =>
      this.queryRowsAfter(sortBy, direction, after, { where: `${split.column} = ?${rest}`, params: [value, ...split.restParams] }, slot),
    );
    const heads = sources.map((source) => source.next());
    const sign = direction === 'asc' ? 1 : -1;
    try {
      for (;;) {
        let best = -1;
        for (let index = 0; index < heads.length; index++) {
          const head = heads[index]!;
          if (head.done) continue;
          if (best < 0 || sign * compareRows(head.value, (heads[best] as IteratorYieldResult<ListRow>).value) < 0) best = index;
        }
        if (best < 0) return;
        yield (heads[best] as IteratorYieldResult<ListRow>).value;
        heads[best] = sources[best]!.next();
      }
    } finally {
      for (const source of sources) source.return?.(); // frees the statements for the next page
    }
  }

  /** A prepared statement per SQL text and slot (streams merged at once each need their own). */
  private statement(sql: string, slot = 0): Database.Statement {
    const key = slot === 0 ? sql : `${slot}\u0000${sql}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(key, statement);
    }
    return statement;
  }
}
