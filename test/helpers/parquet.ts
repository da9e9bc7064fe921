import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sqlString, withDuckdb } from '../../src/io/index.js';

/** Writes the rows of a DuckDB `SELECT` to a Parquet file, as pandas or `datasets` would have. */
export async function writeParquet(path: string, select: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await withDuckdb((db) => db.run(`COPY (${select}) TO ${sqlString(path)} (FORMAT parquet)`));
  return path;
}

/** A `SELECT` of the rows of a CSV file (header, quoted fields), every column text. */
export const fromCsv = (csv: string) => `SELECT * FROM read_csv(${sqlString(csv)}, header = true, all_varchar = true)`;

/** The rows of a Parquet file or glob as plain objects. */
export async function readParquetRows(pathOrGlob: string): Promise<Record<string, unknown>[]> {
  return withDuckdb(async (db) => (await db.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(pathOrGlob)})`)).getRowObjectsJS());
}
