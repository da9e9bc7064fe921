import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { FIXTURES, tempFile } from '../helpers/tmp.js';

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

  it('exits 2 on a missing required flag and on a bad number', async () => {
    expect((await cli('corpus', 'stats')).code).toBe(2);
    const r = await cli('corpus', 'stats', '--corpus', corpus('notes.csv'), '--max-doc-chars', 'lots');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-doc-chars must be an integer/);
  });
});
