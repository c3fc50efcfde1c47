import type Database from 'better-sqlite3';

/** The in-memory database the copies live in, attached beside `main` (one attach for every snapshot). */
const SCHEMA = 'world_snapshots';

/**
 * Copies of every table of the simulator's database, kept in memory beside it, and put back in one
 * transaction: the store's part of a world snapshot (`src/root/worldSnapshots.ts`). A copy is
 * `CREATE TABLE … AS SELECT *` per table (the rows only: the indexes stay those of `main`); a
 * restore empties each table and inserts its copy back, so the restored state is written into
 * the main database (with `--db`, durable like any other write). `sqlite_sequence` (the
 * AUTOINCREMENT counters) is copied too: ids after a restore are those the first time.
 */
export class DatabaseSnapshots {
  private nextId = 1;
  private attached = false;
  private readonly tablesOf = new Map<number, string[]>();

  constructor(private readonly db: Database.Database) {}

  /** Copies every table now; returns the copy's id. */
  take(): number {
    this.attach();
    const id = this.nextId++;
    const tables = this.tables();
    this.db.transaction(() => {
      for (const table of tables) this.db.exec(`CREATE TABLE ${SCHEMA}."${copyName(id, table)}" AS SELECT * FROM main."${table}"`);
    })();
    this.tablesOf.set(id, tables);
    return id;
  }

  /** Puts copy `id` back into every table it holds, in one transaction; the copy stays (it can be put back again). */
  restore(id: number): void {
    const tables = this.tablesOf.get(id);
    if (!tables) throw new Error(`no database copy ${id}`);
    this.db.transaction(() => {
      // a table is emptied before the one it refers to is filled again: checked at commit
      this.db.pragma('defer_foreign_keys = ON');
      for (const table of tables) this.db.exec(`DELETE FROM main."${table}"`);
      for (const table of tables) this.db.exec(`INSERT INTO main."${table}" SELECT * FROM ${SCHEMA}."${copyName(id, table)}"`);
    })();
  }

  /** Forgets copy `id` (its memory is freed). */
  drop(id: number): void {
    const tables = this.tablesOf.get(id);
    if (!tables) return;
    this.tablesOf.delete(id);
    for (const table of tables) this.db.exec(`DROP TABLE IF EXISTS ${SCHEMA}."${copyName(id, table)}"`);
  }

  /** The tables of `main` that hold the simulator's state (SQLite's own but its AUTOINCREMENT counters left out). */
  private tables(): string[] {
    const rows = this.db.prepare<[], { name: string }>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND (name NOT LIKE 'sqlite_%' OR name = 'sqlite_sequence') ORDER BY name").all();
    return rows.map((row) => row.name);
  }

  private attach(): void {
    if (this.attached) return;
    this.db.exec(`ATTACH DATABASE ':memory:' AS ${SCHEMA}`);
    this.attached = true;
  }
}

function copyName(id: number, table: string): string {
  return `s${id}_${table}`;
}
