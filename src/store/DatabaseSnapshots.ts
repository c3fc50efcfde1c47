import type Database from 'better-sqlite3';
import { requestRowVersionsOf } from './requestRowVersions';

/** The in-memory database the copies live in, attached beside `main` (one attach for every snapshot). */
const SCHEMA = 'world_snapshots';
/** SQLite's AUTOINCREMENT counters: no trigger can watch it, so it is always put back whole (a few rows). */
const SEQUENCE_TABLE = 'sqlite_sequence';
/** The rows written since a copy was taken (a temporary table: this connection only, never stored). */
const CHANGED_ROWS = 'temp.world_changed_rows';
/** A copy's column holding each row's rowid (its primary key there: a row is found by it). */
const ROWID_COLUMN = 'world_rowid';

interface TableShape {
  /** The table's columns, quoted, in order. */
  columns: string[];
  /** The table has an INTEGER PRIMARY KEY, so its rowid is one of `columns` (not named apart on insert). */
  rowidIsColumn: boolean;
}

interface Copy {
  tables: string[];
  /** Every row written at or after this epoch may differ from the copy; rows written before hold what it holds. */
  sameSince: number;
}

/**
 * Copies of every table of the simulator's database, kept in memory beside it, and put back in one
 * transaction: the store's part of a world snapshot (`src/root/worldSnapshots.ts`). A copy holds
 * each table's rows with their rowids; a restore puts back only the rows that differ from it, so
 * its cost is what changed since, not the size of the database. The restored state is written
 * into the main database (with `--db`, durable like any other write). `sqlite_sequence` (the
 * AUTOINCREMENT counters) is put back whole every time: ids after a restore are those the first time.
 *
 * Which rows differ: a temporary trigger on each table notes the rowid of any row inserted,
 * updated or deleted (a row an `INSERT OR REPLACE` displaces too: recursive triggers are on), with
 * no epoch ("now"). Taking or restoring a copy seals those notes with the current epoch and starts
 * the next; a copy remembers the epoch from which main may differ from it. A row is put back when
 * its note is newer than that (a row restored for one copy is thereby noted as differing from every
 * other). Notes older than every held copy are forgotten.
 */
export class DatabaseSnapshots {
  private nextId = 1;
  /** The epoch notes written now get when sealed. */
  private epoch = 1;
  private attached = false;
  private readonly copies = new Map<number, Copy>();
  private readonly watched = new Set<string>();
  private readonly shapes = new Map<string, TableShape>();

  constructor(private readonly db: Database.Database) {}

  /** Copies every table now; returns the copy's id. */
  take(): number {
    this.attach();
    const id = this.nextId++;
    const tables = this.tables();
    for (const table of tables) this.watch(table);
    let sameSince = 0;
    this.db.transaction(() => {
      for (const table of tables) this.copyTable(id, table);
      sameSince = this.seal();
    })();
    this.copies.set(id, { tables, sameSince });
    return id;
  }

  /** Puts copy `id` back into every row that differs from it, in one transaction; the copy stays (it can be put back again). */
  restore(id: number): void {
    const copy = this.copies.get(id);
    if (!copy) throw new Error(`no database copy ${id}`);
    // request rows change under their writer: no status answer kept from before is given again
    requestRowVersionsOf(this.db).replacedAll();
    this.db.transaction(() => {
      const written = new Set(this.db.prepare<[number], { tbl: string }>(`SELECT DISTINCT tbl FROM ${CHANGED_ROWS} WHERE epoch IS NULL OR epoch >= ?`).all(copy.sameSince).map((row) => row.tbl));
      const differing = copy.tables.filter((table) => written.has(table));
      // a row is removed before the one it refers to is put back: checked at commit
      this.db.pragma('defer_foreign_keys = ON');
      for (const table of differing) {
        this.db.prepare(`DELETE FROM main."${table}" WHERE rowid IN (SELECT rid FROM ${CHANGED_ROWS} WHERE tbl = ? AND (epoch IS NULL OR epoch >= ?))`).run(table, copy.sameSince);
      }
      for (const table of differing) this.putRowsBack(id, table, copy.sameSince);
      if (copy.tables.includes(SEQUENCE_TABLE)) {
        this.db.exec(`DELETE FROM main."${SEQUENCE_TABLE}"`);
        this.db.exec(`INSERT INTO main."${SEQUENCE_TABLE}" SELECT * FROM ${SCHEMA}."${copyName(id, SEQUENCE_TABLE)}"`);
      }
      copy.sameSince = this.seal();
    })();
  }

  /** Forgets copy `id` (its memory is freed, and the notes no held copy needs). */
  drop(id: number): void {
    const copy = this.copies.get(id);
    if (!copy) return;
    this.copies.delete(id);
    for (const table of copy.tables) this.db.exec(`DROP TABLE IF EXISTS ${SCHEMA}."${copyName(id, table)}"`);
    const oldest = Math.min(...[...this.copies.values()].map((held) => held.sameSince));
    if (Number.isFinite(oldest)) this.db.prepare(`DELETE FROM ${CHANGED_ROWS} WHERE epoch < ?`).run(oldest);
    else this.db.exec(`DELETE FROM ${CHANGED_ROWS}`);
  }

  /** The tables of `main` that hold the simulator's state (SQLite's own but its AUTOINCREMENT counters left out). */
  private tables(): string[] {
    const rows = this.db.prepare<[], { name: string }>(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND (name NOT LIKE 'sqlite_%' OR name = '${SEQUENCE_TABLE}') ORDER BY name`).all();
    return rows.map((row) => row.name);
  }

  private copyTable(id: number, table: string): void {
    const target = `${SCHEMA}."${copyName(id, table)}"`;
    if (table === SEQUENCE_TABLE) {
      this.db.exec(`CREATE TABLE ${target} AS SELECT * FROM main."${table}"`);
      return;
    }
    const { columns } = this.shapeOf(table);
    // no declared types: a value is kept exactly as main holds it, and main's own types apply when it goes back
    this.db.exec(`CREATE TABLE ${target} (${ROWID_COLUMN} INTEGER PRIMARY KEY, ${columns.join(', ')})`);
    this.db.exec(`INSERT INTO ${target} SELECT rowid, ${columns.join(', ')} FROM main."${table}"`);
  }

  private putRowsBack(id: number, table: string, sameSince: number): void {
    const { columns, rowidIsColumn } = this.shapeOf(table);
    const into = rowidIsColumn ? columns : ['rowid', ...columns];
    const from = rowidIsColumn ? columns : [ROWID_COLUMN, ...columns];
    this.db
      .prepare(
        `INSERT INTO main."${table}" (${into.join(', ')}) SELECT ${from.join(', ')} FROM ${SCHEMA}."${copyName(id, table)}" WHERE ${ROWID_COLUMN} IN (SELECT rid FROM ${CHANGED_ROWS} WHERE tbl = ? AND (epoch IS NULL OR epoch >= ?))`,
      )
      .run(table, sameSince);
  }

  private shapeOf(table: string): TableShape {
    let shape = this.shapes.get(table);
    if (!shape) {
      const info = this.db.pragma(`main.table_info("${table}")`) as Array<{ name: string; type: string; pk: number }>;
      const keys = info.filter((column) => column.pk > 0);
      shape = { columns: info.map((column) => `"${column.name}"`), rowidIsColumn: keys.length === 1 && keys[0]!.type.toUpperCase() === 'INTEGER' };
      this.shapes.set(table, shape);
    }
    return shape;
  }

  /** Gives the notes written since the last seal the current epoch, and starts the next; returns it. */
  private seal(): number {
    this.db.prepare(`UPDATE ${CHANGED_ROWS} SET epoch = ? WHERE epoch IS NULL`).run(this.epoch);
    return ++this.epoch;
  }

  /** From now on, any row of `table` written is noted (temporary triggers: this connection only, never stored). */
  private watch(table: string): void {
    if (this.watched.has(table) || table === SEQUENCE_TABLE) return;
    // an upsert: never a conflict, whatever the writing statement's own conflict clause (a trigger takes it over)
    const note = (row: 'NEW' | 'OLD') => `INSERT INTO ${CHANGED_ROWS} (tbl, rid, epoch) VALUES ('${table}', ${row}.rowid, NULL) ON CONFLICT (tbl, rid) DO UPDATE SET epoch = NULL WHERE epoch IS NOT NULL;`;
    const triggers = [
      ['i', 'AFTER INSERT', note('NEW')],
      ['u', 'AFTER UPDATE', note('NEW')],
      // an update that moves a row to another rowid leaves its old one empty
      ['m', 'AFTER UPDATE', note('OLD'), 'WHEN OLD.rowid IS NOT NEW.rowid'],
      ['d', 'AFTER DELETE', note('OLD')],
    ] as const;
    for (const [suffix, event, body, when = ''] of triggers) {
      this.db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS "world_changed_${table}_${suffix}" ${event} ON main."${table}" ${when} BEGIN ${body} END`);
    }
    this.watched.add(table);
  }

  private attach(): void {
    if (this.attached) return;
    this.db.exec(`ATTACH DATABASE ':memory:' AS ${SCHEMA}`);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${CHANGED_ROWS} (tbl TEXT NOT NULL, rid INTEGER NOT NULL, epoch INTEGER, PRIMARY KEY (tbl, rid)) WITHOUT ROWID`);
    // a row an INSERT OR REPLACE displaces is deleted with its triggers (so it is noted too)
    this.db.pragma('recursive_triggers = ON');
    this.attached = true;
  }
}

function copyName(id: number, table: string): string {
  return `s${id}_${table}`;
}
