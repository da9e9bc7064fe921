import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { formatBlacklist, parseBlacklist, readBlacklist, writeBlacklist, type Blacklist } from '../../src/identifiers/index.js';
import { FormatError, UsageError } from '../../src/errors.js';
import { thrown } from '../helpers/errors.js';
import { tempDir, tempFile } from '../helpers/tmp.js';

const LIST: Blacklist = {
  header: { version: 1, k: 2, ngrams: [1, 3], corpus: '0123456789abcdef', created: '2026-12-01T00:00:00.000Z', extra: { recognizers: 'all' } },
  entries: [
    { term: 'alice smith', kind: 'direct', category: 'PERSON', authors: 1, occurrences: 3, sources: ['list:names.txt', 'graph:k=2'] },
    { term: 'c:\\users\\tim', kind: 'indirect', category: 'RARE', authors: 1, occurrences: 1, sources: ['graph:k=2'] },
    { term: '홍길동', kind: 'direct', category: '내국인이름', authors: 2, occurrences: 5, sources: ['model:deid'] },
  ],
};

describe('blacklist file format', () => {
  it('round-trips header and entries, escaping backslashes', async () => {
    const path = join(await tempDir(), 'bl.tsv');
    await writeBlacklist(path, LIST);
    const back = await readBlacklist(path);
    expect(back.header).toEqual(LIST.header);
    expect(back.entries).toEqual(expect.arrayContaining(LIST.entries));
    expect(back.entries).toHaveLength(3);
    expect(formatBlacklist(LIST)).toMatch(/^# ppmlm blacklist\n# version: 1\n# k: 2\n# ngrams: 1-3\n/);
  });

  it('writes mode 0600 and refuses to overwrite without force', async () => {
    const path = join(await tempDir(), 'bl.tsv');
    await writeBlacklist(path, LIST);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await expect(writeBlacklist(path, LIST)).rejects.toThrow(/already exists; pass --force/);
    await writeBlacklist(path, LIST, { force: true });
  });

  it('reads a plain one-term-per-line list, normalised', () => {
    const list = parseBlacklist('# my names\nAlice  SMITH\n\nＢｏｂ\n', 'names.txt');
    expect(list.entries).toEqual([
      { term: 'alice smith', kind: 'direct', category: 'LIST', authors: 0, occurrences: 0, sources: ['list:names.txt'] },
      { term: 'bob', kind: 'direct', category: 'LIST', authors: 0, occurrences: 0, sources: ['list:names.txt'] },
    ]);
  });

  it('names file and line of a bad row, a bad kind, a missing column, a newer version', () => {
    const head = 'term\tkind\tcategory\tauthors\toccurrences\tsources\n';
    expect(() => parseBlacklist(`${head}x\tdirect\tA\t1\n`, 'b.tsv')).toThrow(/row has 4 fields but the header has 6/);
    try {
      parseBlacklist(`# version: 1\n${head}x\tsecret\tA\t1\t1\ts\n`, 'b.tsv');
    } catch (err) {
      expect(err).toBeInstanceOf(FormatError);
      // A row of a blacklist holds an identifier: the message names the field, never its value.
      expect((err as FormatError).located).toBe('b.tsv:3: the kind column (field 2) must be direct or indirect');
    }
    expect(() => parseBlacklist('term\tkind\n', 'b.tsv')).toThrow(/lacks column\(s\) category, authors, occurrences, sources/);
    expect(() => parseBlacklist(`# version: 9\n${head}`, 'b.tsv')).toThrow(/version 9 is newer/);
  });

  it('recognises the column header whatever its case and spaces, and CRLF line ends', () => {
    const list = parseBlacklist('# k: 2\r\nTerm \t KIND\tCategory\tauthors\toccurrences\tsources\r\nalice smith\tdirect\tPERSON\t1\t2\trule:name\r\n', 'b.tsv');
    expect(list.header.k).toBe(2);
    expect(list.entries).toEqual([{ term: 'alice smith', kind: 'direct', category: 'PERSON', authors: 1, occurrences: 2, sources: ['rule:name'] }]);
  });

  it('refuses a header without tabs and a plain list with tabs, naming the line and the expected header', () => {
    const located = (text: string) => {
      const err = thrown(() => parseBlacklist(text, 'b.tsv'));
      expect(err).toBeInstanceOf(FormatError);
      return err.located;
    };
    expect(located('# ppmlm blacklist\nterm kind category authors occurrences sources\nalice\n')).toBe(
      'b.tsv:2: this looks like the column header but is not tab-separated; expected: term<TAB>kind<TAB>category<TAB>authors<TAB>occurrences<TAB>sources',
    );
    expect(located('term,kind,category\n')).toMatch(/^b\.tsv:1: this looks like the column header/);
    expect(located('alice\nbob\tdirect\tPERSON\n')).toMatch(/^b\.tsv:2: a tab in a plain list .* starts with the header term<TAB>kind/);
    // A CSV corpus given as a list: its rows would become terms (the header line itself is no term either).
    expect(located('# notes\nid,author,"text"\n1,a,Seen by Dr Smith\n')).toBe("b.tsv:2: a CSV corpus's header where a term should be: a blacklist is a ppmlm blacklist TSV or one term a line, not a corpus");
    // A term with a comma, and the word text in a later term, stay terms.
    expect(parseBlacklist('Smith, John\ntext, author\n', 'names.txt').entries.map((e) => e.term)).toEqual(['smith, john', 'text, author']);
  });

  it('reads repeated rows once', () => {
    const head = 'term\tkind\tcategory\tauthors\toccurrences\tsources\n';
    const rows = Array.from({ length: 100_000 }, () => 'alice\tdirect\tPERSON\t1\t1\trule:name\n').join('');
    expect(parseBlacklist(`${head}${rows}alice\tdirect\tPERSON\t1\t1\tgraph:k=2\n`, 'b.tsv').entries).toEqual([
      { term: 'alice', kind: 'direct', category: 'PERSON', authors: 1, occurrences: 1, sources: ['rule:name', 'graph:k=2'] },
    ]);
    expect(parseBlacklist('bob\nBob\nbob\r\n', 'names.txt').entries).toHaveLength(1);
  });

  it('refuses counts that are not non-negative integers or contradict the header, with file:line', () => {
    const head = '# k: 2\nterm\tkind\tcategory\tauthors\toccurrences\tsources\n';
    const cases: [string, string][] = [
      ['x\tdirect\tA\t-1\t1\ts', 'b.tsv:3: authors must be a non-negative integer (a cell of the wrong column may hold a term, so it is not shown)'],
      ['x\tdirect\tA\t1\t1.5\ts', 'b.tsv:3: occurrences must be a non-negative integer (a cell of the wrong column may hold a term, so it is not shown)'],
      ['x\tdirect\tA\t\t1\ts', 'b.tsv:3: authors must be a non-negative integer (a cell of the wrong column may hold a term, so it is not shown)'],
      ['x\tdirect\tA\t1e300\t1\ts', 'b.tsv:3: authors must be a non-negative integer (a cell of the wrong column may hold a term, so it is not shown)'],
      ['x\tdirect\tA\t5\t2\ts', 'b.tsv:3: authors 5 exceeds occurrences 2; each author uses a term at least once'],
      ['x\tindirect\tRARE\t1000\t1000\ts', 'b.tsv:3: indirect term with 1000 authors, not fewer than k = 2'],
    ];
    for (const [row, message] of cases) {
      const err = thrown(() => parseBlacklist(`${head}${row}\n`, 'b.tsv'));
      expect(err).toBeInstanceOf(FormatError);
      expect(err.located).toBe(message);
    }
    expect(() => parseBlacklist('# k: two\nterm\tkind\tcategory\tauthors\toccurrences\tsources\n', 'b.tsv')).toThrow(/k must be a non-negative integer \(a cell/);
  });

  it('rejects a missing or empty blacklist with the fix', async () => {
    await expect(readBlacklist('/nope/bl.tsv')).rejects.toThrow(UsageError);
    await expect(readBlacklist('/nope/bl.tsv')).rejects.toThrow(/no such file or folder; check the --blacklist path/);
    const empty = await tempFile('empty.txt', '\n# nothing\n');
    await expect(readBlacklist(empty)).rejects.toThrow(/has no terms; it would protect nothing/);
    const bad = await tempFile('bad.tsv', Buffer.from([0x61, 0xff]));
    await expect(readBlacklist(bad)).rejects.toThrow(/invalid UTF-8/);
  });
});
