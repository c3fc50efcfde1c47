import type Database from 'better-sqlite3';
import type { RequestRecord } from '../domain/request/requestRecord';
import { amountUsdMicrosOf } from '../domain/request/requestRecordView';
import type { ListSortKey } from '../domain/listing/requestListFilter';
import { parseWithBigints } from './jsonWithBigints';
import type { ListingPrefilter } from './listingPrefilter';

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
      const row = this.statement(`SELECT COUNT(*) AS total FROM requests WHERE ${prefilter.where}`).get(...prefilter.params) as { total: number };
      return row.total;
    }
    let total = 0;
    for (const row of this.rowsAfter('createdAt', 'asc', undefined, prefilter)) if (matches(parseWithBigints<RequestRecord>(row.record_json))) total++;
    return total;
  }

  private *rowsAfter(sortBy: ListSortKey, direction: SortDirection, after: ListPosition | undefined, prefilter: ListingPrefilter | undefined): Generator<ListRow> {
    const column = SORT_COLUMNS[sortBy];
    const comparison = direction === 'asc' ? '>' : '<';
    const order = direction === 'asc' ? 'ASC' : 'DESC';
    const conditions = [
      ...(after ? [`(${column} ${comparison} ? OR (${column} = ? AND id ${comparison} ?))`] : []),
      ...(prefilter && prefilter.where !== '1' ? [`(${prefilter.where})`] : []),
    ];
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const sql = `SELECT id, ${column} AS sort_key, record_json FROM requests ${where} ORDER BY ${column} ${order}, id ${order}`;
    const params = [...(after ? [after.key, after.key, after.id] : []), ...(prefilter && prefilter.where !== '1' ? prefilter.params : [])];
    yield* this.statement(sql).iterate(...params) as IterableIterator<ListRow>;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
