import type { DuckDBConnection } from '@duckdb/node-api';

/** A path or text as a SQL string literal: DuckDB's table functions and `COPY … TO` take paths only inline. */
export const sqlString = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** A column name as a SQL identifier (a corpus may name its columns anything). */
export const sqlIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A connection to a fresh in-memory DuckDB and how to close it. */
export interface DuckdbSession {
  connection: DuckDBConnection;
  close(): void;
}

/**
 * A fresh in-memory DuckDB on one thread with insertion order kept: rows come back in file order, so row
 * numbers and the documents' order stay reproducible. For readers that stream (async generators), which
 * close it in their `finally`.
 */
export async function openDuckdb(): Promise<DuckdbSession> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', preserve_insertion_order: 'true' });
  const connection = await instance.connect();
  return {
    connection,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * Runs `use` on a fresh in-memory DuckDB ({@link openDuckdb}), closed afterwards whatever happens.
 *
 * @example
 * const rows = await withDuckdb(async (db) => (await db.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(path)})`)).getRowObjectsJS());
 */
export async function withDuckdb<T>(use: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const session = await openDuckdb();
  try {
    return await use(session.connection);
  } finally {
    session.close();
  }
}
