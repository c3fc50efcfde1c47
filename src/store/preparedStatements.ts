import type Database from 'better-sqlite3';

/**
 * `db.prepare`, once per SQL text: each statement is compiled at its first use and kept. Preparing
 * costs about a tenth of a millisecond a call, and the watchers and the solver run the same few
 * statements for every block and every fill.
 */
export function preparedStatements(db: Database.Database): <P extends unknown[] = unknown[], R = unknown>(sql: string) => Database.Statement<P, R> {
  const kept = new Map<string, Database.Statement>();
  return <P extends unknown[] = unknown[], R = unknown>(sql: string) => {
    let statement = kept.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      kept.set(sql, statement);
    }
    return statement as unknown as Database.Statement<P, R>;
  };
}
