import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { FIXTURES, tempDir, tempFile } from '../helpers/tmp.js';
import { fromCsv, writeParquet } from '../helpers/parquet.js';

const corpus = (name: string) => join(FIXTURES, 'corpus', name);

describe('ppmlm corpus stats', () => {
  it.each(['notes.csv', 'notes.tsv', 'notes.jsonl', 'folder'])('counts documents, authors and characters of %s', async (name) => {
    const { code, stdout } = await cli('corpus', 'stats', '--corpus', corpus(name), '--json');
    expect(code).toBe(0);
    const stats = JSON.parse(stdout);
    expect(stats.documents).toBe(3);
    expect(stats.authors).toBe(2);
    expect(stats.documentsPerAuthor).toMatchObject({ '1': 1, '2': 1, '3-5': 0 });
  });

  it('prints a readable table with the histogram', async () => {
    const { code, stdout } = await cli('corpus', 'stats', '--corpus', corpus('notes.csv'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^documents\s+3$/m);
    expect(stdout).toMatch(/^authors\s+2$/m);
    expect(stdout).toMatch(/documents per author:\n\s+1\s+1\s+#+/);
    expect(stdout).toMatch(/resp: 2/);
  });

  it('exits 2 with a one-line error naming file and line on bad input', async () => {
    const path = await tempFile('c.csv', 'id,author,text\n1,a,ok\n2,b,"open\n');
    const { code, stderr, stdout } = await cli('corpus', 'stats', '--corpus', path);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/c\.csv:3: unterminated quoted field/);
  });

  it('counts skipped rows with --skip-bad-rows', async () => {
    const path = await tempFile('c.csv', 'id,author,text\n1,a,ok\n2,b,\n');
    const { code, stdout, stderr } = await cli('corpus', 'stats', '--corpus', path, '--skip-bad-rows', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ documents: 1, skipped: 1 });
    expect(stderr).toMatch(/skipped .*c\.csv:3: the document has empty text/);
  });

  it('exits 2 on a stray quote, or skips and counts it with --skip-bad-rows', async () => {
    const path = await tempFile('c.csv', 'id,author,text\n1,a,"Alice Smith" seen today\n2,b,ok\n');
    const failed = await cli('corpus', 'stats', '--corpus', path);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toBe(`ppmlm: ${path}:2: text after a closing quote; quote the whole field and write a quote inside it as ""\n`);
    const skipped = await cli('corpus', 'stats', '--corpus', path, '--skip-bad-rows', '--json');
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ documents: 1, skipped: 1 });
    expect(skipped.stderr).not.toContain('Alice');
  });

  it('exits 2 on a header-only corpus, naming the file', async () => {
    const path = await tempFile('h.csv', 'id,author,text\n');
    const { code, stderr } = await cli('corpus', 'stats', '--corpus', path);
    expect(code).toBe(2);
    expect(stderr).toBe(`ppmlm: ${path}: the corpus has no documents (an empty file, a header row only, or every row skipped); give at least one document\n`);
  });

  it('exits 2 on a missing required flag and on a bad number', async () => {
    expect((await cli('corpus', 'stats')).code).toBe(2);
    const r = await cli('corpus', 'stats', '--corpus', corpus('notes.csv'), '--max-doc-chars', 'lots');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-doc-chars must be an integer/);
  });

  it('reads a Parquet file and a Hugging Face dataset folder (data/train-*.parquet)', async () => {
    const dir = await tempDir();
    const file = await writeParquet(join(dir, 'notes.parquet'), fromCsv(corpus('notes.csv')));
    await writeParquet(join(dir, 'hf', 'data', 'train-00000-of-00001.parquet'), fromCsv(corpus('notes.csv')));
    for (const path of [file, join(dir, 'hf')]) {
      const { code, stdout, stderr } = await cli('corpus', 'stats', '--corpus', path, '--json');
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ documents: 3, authors: 2, labels: { resp: 2, cardio: 1 } });
    }
  });

  it('exits 2 naming the Parquet file and the flag when a column is missing', async () => {
    const path = await writeParquet(join(await tempDir(), 'c.parquet'), fromCsv(corpus('notes.csv')));
    const { code, stderr } = await cli('corpus', 'stats', '--corpus', path, '--text-col', 'body');
    expect(code).toBe(2);
    expect(stderr).toBe(`ppmlm: ${path}: no column "body" for the text; the columns are: "id", "author", "text", "label" (choose one with --text-col)\n`);
  });
});
