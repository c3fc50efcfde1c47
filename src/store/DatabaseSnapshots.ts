import type Database from 'better-sqlite3';

/** The in-memory database the copies live in, attached beside `main` (one attach for every snapshot). */
const SCHEMA = 'world_snapshots';
/** SQLite's AUTOINCREMENT counters: no trigger can watch it, so it is always put back. */
const SEQUENCE_TABLE = 'sqlite_sequence';
/** A table written since its state was last known (no copy holds what it holds now). */
const CHANGED = -1;

/**
 * Copies of every table of the simulator's database, kept in memory beside it, and put back in one
 * transaction: the store's part of a world snapshot (`src/root/worldSnapshots.ts`). A copy is
 * `CREATE TABLE … AS SELECT *` per table (the rows only: the indexes stay those of `main`); a
 * restore empties each table and inserts its copy back, so the restored state is written into
 * the main database (with `--db`, durable like any other write). `sqlite_sequence` (the
 * AUTOINCREMENT counters) is copied too: ids after a restore are those the first time.
 *
 * Only tables whose content differs from the copy are put back: each table's state has a version
 * (a temporary trigger on this connection marks a table changed on any write), a copy remembers
 * the versions it holds, and a table still at its copy's version is left alone.
 */
export class DatabaseSnapshots {
  private nextId = 1;
  private nextVersion = 1;
  private attached = false;
  /** Each copy's tables and the version of each it holds. */
  private readonly copies = new Map<number, Map<string, number>>();
  private readonly watched = new Set<string>();

  constructor(private readonly db: Database.Database) {}

  /** Copies every table now; returns the copy's id. */
  take(): number {
    this.attach();
    const id = this.nextId++;
    const tables = this.tables();
    for (const table of tables) this.watch(table);
    const versions = new Map<string, number>();
    this.db.transaction(() => {
      for (const table of tables) {
        this.db.exec(`CREATE TABLE ${SCHEMA}."${copyName(id, table)}" AS SELECT * FROM main."${table}"`);
        let version = this.versionOf(table);
        if (version === CHANGED) this.setVersion(table, (version = this.nextVersion++));
        versions.set(table, version);
      }
    })();
    this.copies.set(id, versions);
    return id;
  }

  /** Puts copy `id` back into every table that differs from it, in one transaction; the copy stays (it can be put back again). */
  restore(id: number): void {
    const versions = this.copies.get(id);
    if (!versions) throw new Error(`no database copy ${id}`);
    const differing = [...versions.entries()].filter(([table, version]) => table === SEQUENCE_TABLE || this.versionOf(table) !== version).map(([table]) => table);
    this.db.transaction(() => {
      // a table is emptied before the one it refers to is filled again: checked at commit
      this.db.pragma('defer_foreign_keys = ON');
      for (const table of differing) this.db.exec(`DELETE FROM main."${table}"`);
      for (const table of differing) this.db.exec(`INSERT INTO main."${table}" SELECT * FROM ${SCHEMA}."${copyName(id, table)}"`);
      for (const table of differing) if (table !== SEQUENCE_TABLE) this.setVersion(table, versions.get(table)!);
    })();
  }

  /** Forgets copy `id` (its memory is freed). */
  drop(id: number): void {
    const versions = this.copies.get(id);
    if (!versions) return;
    this.copies.delete(id);
    for (const table of versions.keys()) this.db.exec(`DROP TABLE IF EXISTS ${SCHEMA}."${copyName(id, table)}"`);
  }

  /** The tables of `main` that hold the simulator's state (SQLite's own but its AUTOINCREMENT counters left out). */
  private tables(): string[] {
    const rows = this.db.prepare<[], { name: string }>(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND (name NOT LIKE 'sqlite_%' OR name = '${SEQUENCE_TABLE}') ORDER BY name`).all();
    return rows.map((row) => row.name);
  }

  /** From now on, any write to `table` marks it changed (a temporary trigger: this connection only, never stored). */
  private watch(table: string): void {
    if (this.watched.has(table) || table === SEQUENCE_TABLE) return;
    this.db.prepare(`INSERT OR IGNORE INTO temp.world_table_versions (name, version) VALUES (?, ${CHANGED})`).run(table);
    for (const [suffix, event] of [['i', 'INSERT'], ['u', 'UPDATE'], ['d', 'DELETE']] as const) {
      this.db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS "world_changed_${table}_${suffix}" AFTER ${event} ON main."${table}" BEGIN UPDATE temp.world_table_versions SET version = ${CHANGED} WHERE name = '${table}' AND version <> ${CHANGED}; END`,
      );
    }
    this.watched.add(table);
  }

  private versionOf(table: string): number {
    if (table === SEQUENCE_TABLE) return CHANGED;
    return this.db.prepare<[string], { version: number }>('SELECT version FROM temp.world_table_versions WHERE name = ?').get(table)?.version ?? CHANGED;
  }

  private setVersion(table: string, version: number): void {
    if (table === SEQUENCE_TABLE) return;
    this.db.prepare('UPDATE temp.world_table_versions SET version = ? WHERE name = ?').run(version, table);
  }

  private attach(): void {
    if (this.attached) return;
    this.db.exec(`ATTACH DATABASE ':memory:' AS ${SCHEMA}`);
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS world_table_versions (name TEXT PRIMARY KEY, version INTEGER NOT NULL)');
    this.attached = true;
  }
}

function copyName(id: number, table: string): string {
  return `s${id}_${table}`;
}
