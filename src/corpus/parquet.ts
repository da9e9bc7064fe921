import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { FormatError } from '../errors.js';
import { fileSystemError, openDuckdb, sqlIdentifier, sqlString } from '../io/index.js';
import { columnChoice, planColumns, resolveHeader } from './columns.js';
import { makeDocument, type RawRecord } from './validate.js';
import type { ColumnNames, CorpusReadOptions } from './types.js';

/** Where the Hugging Face `datasets` library puts a dataset's training split: `data/train-00000-of-00002.parquet`. */
const HF_TRAIN_SHARD = /^train(-\d+-of-\d+)?(\.[^/]*)?\.parquet$/;

/** Whether `dir` is a Hugging Face dataset folder (a `data/` sub-folder holding Parquet shards). */
export async function isHfDatasetFolder(dir: string): Promise<boolean> {
  const names = await readdir(join(dir, 'data')).catch(() => [] as string[]);
  return names.some((n) => n.endsWith('.parquet'));
}

/** The Parquet files of a corpus: the file itself, or the training split's shards of a dataset folder, in order. */
async function parquetFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const dataDir = join(path, 'data');
  const names = (await readdir(dataDir).catch((err: unknown) => {
    throw fileSystemError(err, dataDir, 'a Parquet corpus folder holds its shards in data/ (the Hugging Face datasets layout)');
  })).sort();
  const train = names.filter((n) => HF_TRAIN_SHARD.test(n));
  if (train.length === 0) {
    const found = names.filter((n) => n.endsWith('.parquet'));
    throw new FormatError(`no data/train-*.parquet shards${found.length ? ` (found ${found.slice(0, 3).join(', ')}${found.length > 3 ? ', …' : ''})` : ''}; give the split's file itself as --corpus`, { file: path });
  }
  return train.map((n) => join(dataDir, n));
}

/**
 * Runs a DuckDB read of `file`; any failure (no magic bytes, a truncated footer, a corrupt page) is a
 * FormatError naming the file. Only DuckDB's own calls go through here, never the code consuming rows.
 */
async function reading<T>(file: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    // DuckDB's message says why; its first line quotes no data.
    const why = String((err as Error).message ?? err).split('\n')[0]!.replace(/^[A-Za-z ]*Error: /, '').slice(0, 160);
    throw new FormatError(`not a readable Parquet file (${why}); give a Parquet file written by pandas, pyarrow, DuckDB or datasets, or convert the corpus to CSV/JSONL`, { file, cause: err });
  }
}

/** Column names and DuckDB types of a Parquet file. */
async function schemaOf(db: DuckDBConnection, file: string): Promise<Map<string, string>> {
  const rows = await reading(file, async () => (await db.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`)).getRowObjectsJS());
  return new Map(rows.map((r) => [String(r.column_name), String(r.column_type)]));
}

const isText = (type: string) => type === 'VARCHAR';

/**
 * Streams the documents of a Parquet file, or of the training split of a Hugging Face dataset folder
 * (`data/train-*.parquet`), through DuckDB, one chunk of rows at a time. Column flags work as for CSV
 * (a column asked for must exist, the text column must hold strings; ids, authors and labels may be numbers).
 * An error's line is the 1-based row of the file. Without an id column the id is the row number, prefixed
 * by the shard's name when the corpus has several.
 */
export async function* readParquet(path: string, options: CorpusReadOptions): AsyncGenerator<RawRecord> {
  const plan = planColumns(options.columns, options.choices);
  const files = await parquetFiles(path);
  const session = await openDuckdb();
  try {
    for (const file of files) {
      const schema = await schemaOf(session.connection, file);
      const cols = resolveHeader([...schema.keys()], plan, file, { schema: true });
      const textType = schema.get(plan.names.text)!;
      if (!isText(textType)) throw new FormatError(`column "${plan.names.text}" holds ${textType}, not text${columnChoice(plan, 'text', (c) => `; choose the text column with ${c}`)}`, { file });
      const select = (['text', 'id', 'author', 'label'] as const).map((key: keyof ColumnNames) =>
        cols[key] === -1 ? `NULL AS ${key}` : `CAST(${sqlIdentifier(plan.names[key])} AS VARCHAR) AS ${key}`,
      );
      const prefix = files.length > 1 ? `${basename(file, '.parquet')}:` : '';
      const result = await reading(file, () => session.connection.stream(`SELECT ${select.join(', ')}, file_row_number + 1 AS row FROM read_parquet(${sqlString(file)}, file_row_number = true)`));
      // DuckDB hands over chunks of 2048 rows: the reader holds one chunk of documents at a time.
      for (;;) {
        const chunk = await reading(file, () => result.fetchChunk());
        if (chunk === null || chunk.rowCount === 0) break;
        for (const [text, id, author, label, row] of chunk.getRows()) {
          const line = Number(row);
          const docId = (id as string | null) ?? `${prefix}${line}`;
          yield { doc: makeDocument(docId, author as string | null, (text as string | null) ?? '', (label as string | null) ?? undefined), file, line };
        }
      }
    }
  } finally {
    session.close();
  }
}
