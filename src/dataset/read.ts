import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { parseJson, sqlString, withDuckdb } from '../io/index.js';
import { MANIFEST_FILE, type DatasetExample, type DatasetManifest } from './types.js';

/** Reads ppmlm_dataset.json of a dataset folder. */
export async function readDatasetManifest(dir: string): Promise<DatasetManifest> {
  const path = join(dir, MANIFEST_FILE);
  const text = await readFile(path, 'utf8').catch(() => {
    throw new UsageError(`${path}: no such file; is this a folder written by "ppmlm export-dataset"?`);
  });
  return parseJson(text, path, 'the manifest is damaged; export the dataset again with "ppmlm export-dataset"') as DatasetManifest;
}

/**
 * The rows of one split of a dataset folder, shard after shard, through DuckDB: what any Parquet reader
 * (pyarrow, `datasets`) sees.
 *
 * @example
 * const train = await readDatasetSplit('out/ds', 'train');
 */
export async function readDatasetSplit(dir: string, split: string): Promise<DatasetExample[]> {
  const manifest = await readDatasetManifest(dir);
  const files = manifest.splits[split];
  if (files === undefined) throw new UsageError(`${dir} has no split "${split}"; its splits are ${Object.keys(manifest.splits).join(', ')}`);
  if (files.length === 0) return [];
  const list = `[${files.map((f) => sqlString(join(dir, f))).join(', ')}]`;
  return withDuckdb(async (db) => (await db.runAndReadAll(`SELECT * FROM read_parquet(${list})`)).getRowObjectsJS() as unknown as DatasetExample[]);
}
