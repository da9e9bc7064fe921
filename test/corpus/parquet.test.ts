import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { detectFormat, loadCorpus, type Document } from '../../src/corpus/index.js';
import { FormatError } from '../../src/errors.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';
import { fromCsv, writeParquet } from '../helpers/parquet.js';

const NOTES = join(FIXTURES, 'corpus', 'notes.csv');

const EXPECTED: Document[] = [
  { id: 'n1', author: 'alice', text: 'Alice Smith, 42, seen for asthma.', label: 'resp' },
  { id: 'n2', author: 'alice', text: 'Follow-up: "wheeze" improved,\ncontinue inhaler.', label: 'resp' },
  { id: 'n3', author: 'bob', text: 'Bob Jones reports chest pain.', label: 'cardio' },
];

async function formatError(promise: Promise<unknown>): Promise<FormatError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err instanceof FormatError) return err;
  throw err ?? new Error('expected a FormatError');
}

describe('Parquet corpora', () => {
  it('reads a .parquet file as the CSV it was made from', async () => {
    const path = await writeParquet(join(await tempDir(), 'notes.parquet'), fromCsv(NOTES));
    expect(await detectFormat(path)).toBe('parquet');
    expect(await loadCorpus(path)).toEqual(EXPECTED);
  });

  it('reads the training split of a Hugging Face dataset folder, shard after shard', async () => {
    const dir = await tempDir();
    await writeParquet(join(dir, 'data', 'train-00000-of-00002.parquet'), `${fromCsv(NOTES)} WHERE id <> 'n3'`);
    await writeParquet(join(dir, 'data', 'train-00001-of-00002.parquet'), `${fromCsv(NOTES)} WHERE id = 'n3'`);
    await writeParquet(join(dir, 'data', 'test-00000-of-00001.parquet'), `SELECT 'held' AS id, 'carol' AS author, 'not training' AS text`);
    expect(await detectFormat(dir)).toBe('parquet');
    expect(await loadCorpus(dir)).toEqual(EXPECTED);
  });

  it('takes the same column flags; numbers become ids and labels, missing ids become row numbers', async () => {
    const path = await writeParquet(join(await tempDir(), 'c.parquet'), `SELECT range + 1 AS patient, 'note ' || range AS body, range % 2 AS y FROM range(3)`);
    const docs = await loadCorpus(path, { columns: { text: 'body', author: 'patient', label: 'y' } });
    expect(docs).toEqual([
      { id: '1', author: '1', text: 'note 0', label: '0' },
      { id: '2', author: '2', text: 'note 1', label: '1' },
      { id: '3', author: '3', text: 'note 2', label: '0' },
    ]);
  });

  it('streams a corpus of many chunks in file order', async () => {
    const path = await writeParquet(join(await tempDir(), 'big.parquet'), `SELECT 'd' || range AS id, 'a' || (range % 7) AS author, 'text ' || range AS text FROM range(10000)`);
    const docs = await loadCorpus(path);
    expect(docs.map((d) => d.id)).toEqual(Array.from({ length: 10000 }, (_, i) => `d${i}`));
    expect(docs[9999]).toEqual({ id: 'd9999', author: 'a3', text: 'text 9999' });
  });

  it('names the file and row of a bad row, and skips it with skipBadRows', async () => {
    const path = await writeParquet(join(await tempDir(), 'c.parquet'), `SELECT * FROM (VALUES ('a', 'x', 'fine'), ('b', 'y', NULL), ('c', 'z', 'ok')) t(id, author, text)`);
    const err = await formatError(loadCorpus(path));
    expect(err.located).toBe(`${path}:2: the document has empty text; remove the row or pass --skip-bad-rows`);
    const skipped: FormatError[] = [];
    const docs = await loadCorpus(path, { skipBadRows: true, onBadRow: (e) => skipped.push(e) });
    expect(docs.map((d) => d.id)).toEqual(['a', 'c']);
    expect(skipped.map((e) => e.line)).toEqual([2]);
  });

  it('refuses a missing column and a text column that is not text, naming the file and the flag', async () => {
    const path = await writeParquet(join(await tempDir(), 'c.parquet'), `SELECT 1 AS id, 'x' AS body, 7 AS n`);
    expect((await formatError(loadCorpus(path))).located).toBe(`${path}: no column "text" for the text; the columns are: "id", "body", "n" (choose one with --text-col)`);
    expect((await formatError(loadCorpus(path, { columns: { author: 'who', text: 'body' } }))).message).toMatch(/no column "who" for the author.*--author-col/);
    expect((await formatError(loadCorpus(path, { columns: { text: 'n' } }))).located).toBe(`${path}: column "n" holds INTEGER, not text; choose the text column with --text-col`);
  });

  it('refuses an unreadable file in one line naming it', async () => {
    const path = join(await tempDir(), 'broken.parquet');
    await writeFile(path, 'id,text\n1,not parquet at all\n');
    const err = await formatError(loadCorpus(path));
    expect(err.file).toBe(path);
    expect(err.located.split('\n')).toHaveLength(1);
    expect(err.message).toMatch(/^not a readable Parquet file \(.+\); give a Parquet file/);
  });

  it('refuses a truncated file and one with corrupt pages as unreadable, never as an internal error', async () => {
    const dir = await tempDir();
    const good = await readFile(await writeParquet(join(dir, 'good.parquet'), `SELECT 'd' || range AS id, 'text number ' || range || repeat(' words', 20) AS text FROM range(5000)`));
    const truncated = join(dir, 'truncated.parquet');
    await writeFile(truncated, good.subarray(0, Math.floor(good.length / 2)));
    const corrupt = join(dir, 'corrupt.parquet');
    const bytes = Buffer.from(good);
    for (let i = 64; i < bytes.length * 0.8; i += 97) bytes[i] = bytes[i]! ^ 0x5a;
    await writeFile(corrupt, bytes);
    for (const path of [truncated, corrupt]) {
      const err = await formatError(loadCorpus(path));
      expect(err.file).toBe(path);
      expect(err.message).toMatch(/^not a readable Parquet file \(.+\); /);
    }
  });

  it('refuses a dataset folder without a training split, naming what it found', async () => {
    const dir = await tempDir();
    await writeParquet(join(dir, 'data', 'test-00000-of-00001.parquet'), `SELECT 'x' AS text`);
    expect((await formatError(loadCorpus(dir))).located).toBe(`${dir}: no data/train-*.parquet shards (found test-00000-of-00001.parquet); give the split's file itself as --corpus`);
  });
});
