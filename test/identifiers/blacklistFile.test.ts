import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { formatBlacklist, parseBlacklist, readBlacklist, writeBlacklist, type Blacklist } from '../../src/identifiers/index.js';
import { FormatError, UsageError } from '../../src/errors.js';
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

  it('rejects a missing or empty blacklist with the fix', async () => {
    await expect(readBlacklist('/nope/bl.tsv')).rejects.toThrow(UsageError);
    await expect(readBlacklist('/nope/bl.tsv')).rejects.toThrow(/no such file or folder; check the --blacklist path/);
    const empty = await tempFile('empty.txt', '\n# nothing\n');
    await expect(readBlacklist(empty)).rejects.toThrow(/has no terms; it would protect nothing/);
    const bad = await tempFile('bad.tsv', Buffer.from([0x61, 0xff]));
    await expect(readBlacklist(bad)).rejects.toThrow(/invalid UTF-8/);
  });
});
