import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { PRIVATE_FILE_MODE, sqlString, withDuckdb, writeDirAtomic } from '../io/index.js';
import { MANIFEST_FILE, shardName, type DatasetExample, type DatasetManifest, type DatasetSplit } from './types.js';

export interface WriteDatasetOptions {
  /** Rows per Parquet shard (default 10 000). */
  shardRows?: number;
  force?: boolean;
}

type Column = keyof DatasetExample;
const COLUMNS: readonly Column[] = ['input_ids', 'attention_mask', 'special_tokens_mask', 'labels'];

/**
 * Writes a dataset folder atomically: each split's rows as Parquet shards under data/ (the layout
 * `datasets.load_dataset(dir)` reads, one split per file-name prefix) and ppmlm_dataset.json. The rows
 * are the training text itself: the folder is 0700 and every file 0600, and an existing folder is replaced
 * only with `force`. Returns the manifest with its `splits` filled in.
 *
 * @example
 * await writeDataset('out/ds', [{ name: 'train', rows: examples.length, row: (i) => examples[i]! }], manifest, { force: true });
 */
export async function writeDataset(dir: string, splits: readonly DatasetSplit[], manifest: Omit<DatasetManifest, 'splits'>, options: WriteDatasetOptions = {}): Promise<DatasetManifest> {
  const shardRows = options.shardRows ?? 10_000;
  const written: DatasetManifest = { ...manifest, splits: {} };
  await writeDirAtomic(
    dir,
    async (tmp) => {
      await chmod(tmp, 0o700);
      await mkdir(join(tmp, 'data'), { mode: 0o700 });
      await withDuckdb(async (db) => {
        for (const split of splits) {
          written.splits[split.name] = [];
          if (split.rows === 0) continue;
          const columns = COLUMNS.filter((c) => split.row(0)[c] !== undefined);
          const count = Math.ceil(split.rows / shardRows);
          for (let i = 0; i < count; i++) {
            const file = shardName(split.name, i, count);
            const end = Math.min(split.rows, (i + 1) * shardRows);
            await writeShard(db, join(tmp, file), Array.from({ length: end - i * shardRows }, (_, k) => split.row(i * shardRows + k)), columns);
            written.splits[split.name]!.push(file);
          }
        }
      });
      await writeFile(join(tmp, MANIFEST_FILE), `${JSON.stringify(written, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    },
    { force: options.force },
  );
  return written;
}

/** Parquet types of the columns: int32 ids and labels, int8 masks (what `datasets` maps to int32/int8 sequences). */
const SQL_TYPE: Record<Column, string> = { input_ids: 'INTEGER[]', labels: 'INTEGER[]', attention_mask: 'TINYINT[]', special_tokens_mask: 'TINYINT[]' };

/**
 * One shard: each list is appended as its text (`[101,7,102]`) and cast by DuckDB while copying; appending
 * lists value by value through the appender took 16x as long (18.7 s against 1.2 s for 9,484 windows of 128).
 */
async function writeShard(db: DuckDBConnection, path: string, rows: readonly DatasetExample[], columns: readonly Column[]): Promise<void> {
  await db.run(`CREATE OR REPLACE TEMP TABLE shard (${columns.map((c) => `${c} VARCHAR`).join(', ')})`);
  const appender = await db.createAppender('shard');
  for (const row of rows) {
    for (const c of columns) appender.appendVarchar(`[${row[c]!.join(',')}]`);
    appender.endRow();
  }
  appender.flushSync();
  appender.closeSync();
  await db.run(`COPY (SELECT ${columns.map((c) => `CAST(${c} AS ${SQL_TYPE[c]}) AS ${c}`).join(', ')} FROM shard) TO ${sqlString(path)} (FORMAT parquet)`);
  await chmod(path, PRIVATE_FILE_MODE);
}
