import { describe, expect, it } from 'vitest';
import { writeParquet } from '../helpers/parquet.js';
import { join } from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadCorpus, readCorpus, type Document } from '../../src/corpus/index.js';
import { FormatError, UsageError } from '../../src/errors.js';
import { readCorpusReference } from '../../src/identifiers/index.js';
import { decodeUtf8Strict } from '../../src/io/index.js';
import { FIXTURES, tempDir, tempFile } from '../helpers/tmp.js';

const corpus = (name: string) => join(FIXTURES, 'corpus', name);

const EXPECTED: Document[] = [
  { id: 'n1', author: 'alice', text: 'Alice Smith, 42, seen for asthma.', label: 'resp' },
  { id: 'n2', author: 'alice', text: 'Follow-up: "wheeze" improved,\ncontinue inhaler.', label: 'resp' },
  { id: 'n3', author: 'bob', text: 'Bob Jones reports chest pain.', label: 'cardio' },
];

async function errorOf(promise: Promise<unknown>): Promise<FormatError | UsageError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof FormatError || err instanceof UsageError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('readCorpus', () => {
  it('reads CSV with quoted commas, escaped quotes and embedded newlines', async () => {
    expect(await loadCorpus(corpus('notes.csv'))).toEqual(EXPECTED);
  });

  it('reads TSV', async () => {
    const docs = await loadCorpus(corpus('notes.tsv'));
    expect(docs.map((d) => d.id)).toEqual(['n1', 'n2', 'n3']);
    expect(docs[1]!.text).toBe('Follow-up: "wheeze" improved.');
  });

  it('reads JSONL and skips blank lines', async () => {
    expect(await loadCorpus(corpus('notes.jsonl'))).toEqual(EXPECTED);
  });

  it('reads a folder of .txt files with the sub-folder as author', async () => {
    const docs = await loadCorpus(corpus('folder'));
    expect(docs).toEqual([
      { id: 'alice/n1', author: 'alice', text: EXPECTED[0]!.text },
      { id: 'alice/n2', author: 'alice', text: EXPECTED[1]!.text },
      { id: 'bob/n3', author: 'bob', text: EXPECTED[2]!.text },
    ]);
  });

  it('uses the column names it is given', async () => {
    const path = await tempFile('c.csv', 'patient,note_id,body\np1,a,hello there\np2,b,general kenobi\n');
    const docs = await loadCorpus(path, { columns: { author: 'patient', id: 'note_id', text: 'body' } });
    expect(docs).toEqual([
      { id: 'a', author: 'p1', text: 'hello there' },
      { id: 'b', author: 'p2', text: 'general kenobi' },
    ]);
  });

  it('makes a document with a missing, null or blank author its own author, in every format (one rule)', async () => {
    const csv = await tempFile('blank.csv', 'id,author,text\n1,,first\n2, ,second\n3,a,third\n');
    const jsonl = await tempFile('blank.jsonl', '{"id":"1","author":"","text":"first"}\n{"id":"2","author":null,"text":"second"}\n{"id":"3","author":"a","text":"third"}\n');
    const parquet = await writeParquet(join(await tempDir(), 'blank.parquet'), "SELECT * FROM (VALUES ('1', '', 'first'), ('2', NULL, 'second'), ('3', 'a', 'third')) t(id, author, text)");
    for (const path of [csv, jsonl, parquet]) {
      expect((await loadCorpus(path)).map((d) => d.author), path).toEqual(['1', '2', 'a']);
    }
  });

  it('falls back to line numbers for a missing default id and to the id for a missing default author', async () => {
    const path = await tempFile('c.csv', 'text\nfirst\nsecond\n');
    expect(await loadCorpus(path)).toEqual([
      { id: '2', author: '2', text: 'first' },
      { id: '3', author: '3', text: 'second' },
    ]);
  });

  it('accepts a UTF-8 byte order mark', async () => {
    const path = await tempFile('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id,author,text\n1,a,홍길동이 왔다\n')]));
    expect(await loadCorpus(path)).toEqual([{ id: '1', author: 'a', text: '홍길동이 왔다' }]);
    const jsonl = await tempFile('bom.jsonl', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id":"1","author":"a","text":"x"}\n')]));
    expect(await loadCorpus(jsonl)).toEqual([{ id: '1', author: 'a', text: 'x' }]);
  });

  it('accepts CRLF line ends', async () => {
    const path = await tempFile('crlf.jsonl', '{"id":"1","author":"a","text":"x"}\r\n{"id":"2","author":"a","text":"y"}\r\n');
    expect((await loadCorpus(path)).map((d) => d.text)).toEqual(['x', 'y']);
  });
});

describe('readCorpus errors', () => {
  it('names a missing file', async () => {
    const err = await errorOf(loadCorpus('/nonexistent/notes.csv'));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/notes\.csv: no such file or folder; check the corpus path/);
  });

  it('names an unknown format and the fix', async () => {
    const path = await tempFile('notes.xlsx', 'x');
    const err = await errorOf(loadCorpus(path));
    expect(err.message).toMatch(/cannot tell the corpus format.*--format csv\|tsv\|jsonl\|parquet\|folder/);
    const gz = await tempFile('notes.csv.gz', 'x');
    expect((await errorOf(loadCorpus(gz))).message).toBe(`${gz}: a compressed file; ppmlm reads corpora uncompressed: decompress it first (gunzip -k notes.csv.gz)`);
    // Each kind is named with the command that opens it: gunzip does not read a .zip.
    const zip = await tempFile('notes.ZIP', 'x');
    expect((await errorOf(loadCorpus(zip))).message).toBe(`${zip}: a compressed file; ppmlm reads corpora uncompressed: decompress it first (unzip notes.ZIP)`);
    const xz = await tempFile('notes.jsonl.xz', 'x');
    expect((await errorOf(loadCorpus(xz))).message).toMatch(/decompress it first \(unxz -k notes\.jsonl\.xz\)$/);
  });

  it('lists the columns that exist when one is missing', async () => {
    const path = await tempFile('c.csv', 'id,who,body\n1,a,b\n');
    const err = await errorOf(loadCorpus(path));
    expect(err).toBeInstanceOf(FormatError);
    expect(err.located).toBe(`${path}:1: no column "text" for the text; the columns are: "id", "who", "body" (choose one with --text-col)`);
    const explicit = await errorOf(loadCorpus(path, { columns: { text: 'body', author: 'patient' } }));
    expect(explicit.message).toMatch(/no column "patient" for the author.*--author-col/);
  });

  it('describes a first row that is a document instead of a header by its shape, never its text', async () => {
    const path = await tempFile('c.csv', '1,Okonkwo Adaeze,"Seen for asthma, MRN 48213377, follow up in two weeks."\n2,b,x\n');
    const err = await errorOf(loadCorpus(path));
    expect(err.located).toBe(
      `${path}:1: no column "text" for the text; the first row names no known column (3 cells of 1, 14 and 54 characters; not printed, as it may be a document holding personal data): add a header row naming the columns, such as text, id, author, label (choose one with --text-col)`,
    );
    const tsv = await tempFile('c.tsv', '7\t7\tshort\n');
    expect((await errorOf(loadCorpus(tsv))).located).toMatch(/c\.tsv:1: the first row names no known column \(3 cells of 1, 1 and 5 characters;/);
    // Short cells are no sign of a header: an email, a name and a phone number stay unprinted.
    const short = await tempFile('s.csv', 'alice.smith@example.com,Alice Smith,555-1234\nx,y,z\n');
    const located = (await errorOf(loadCorpus(short))).located;
    expect(located).toBe(`${short}:1: no column "text" for the text; the first row names no known column (3 cells of 23, 11 and 8 characters; not printed, as it may be a document holding personal data): add a header row naming the columns, such as text, id, author, label (choose one with --text-col)`);
    expect((await errorOf(loadCorpus(await tempFile('t.csv', 'Alice Smith,Alice Smith\n')))).located).not.toMatch(/Alice/);
    const dup = await tempFile('d.csv', 'text,text\n');
    expect((await errorOf(loadCorpus(dup))).located).toBe(`${dup}:1: header names column "text" twice; rename one of them`);
  });

  it('reports an unterminated quote at the line where it starts', async () => {
    const path = await tempFile('c.csv', 'id,author,text\n1,a,fine\n2,b,"never closed\n3,c,more\n');
    const err = await errorOf(loadCorpus(path));
    expect(err.located).toMatch(/c\.csv:3: unterminated quoted field/);
  });

  it('reports invalid UTF-8 with line and byte offset', async () => {
    const bytes = Buffer.concat([Buffer.from('id,author,text\n1,a,ok\n2,b,caf'), Buffer.from([0xe9]), Buffer.from(' au lait\n')]);
    const path = await tempFile('latin1.csv', bytes);
    const err = await errorOf(loadCorpus(path));
    expect(err.located).toMatch(/latin1\.csv:3: invalid UTF-8 at column 8 \(byte offset 29\); re-encode the file as UTF-8 \(e\.g\. iconv -f latin1 -t utf-8\)$/);
    // Korean in EUC-KR (CP949), two bytes of A1-FE a syllable, is told the encoding that reads it: latin1 would garble it.
    const euckr = await tempFile('euckr.jsonl', Buffer.concat([Buffer.from('{"text":"'), Buffer.from([0xc7, 0xc7, 0xb0, 0xed, 0xc0, 0xce]), Buffer.from('"}\n')]));
    expect((await errorOf(loadCorpus(euckr))).located).toMatch(/euckr\.jsonl:1: invalid UTF-8 at column 10 \(byte offset 9\); re-encode the file as UTF-8 \(e\.g\. iconv -f cp949 -t utf-8, for Korean in EUC-KR or CP949\)$/);
    const jsonl = await tempFile('latin1.jsonl', Buffer.concat([Buffer.from('{"text":"ok"}\n{"text":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    expect((await errorOf(loadCorpus(jsonl))).located).toMatch(/latin1\.jsonl:2: invalid UTF-8 at column 13 \(byte offset 26\)/);
    // UTF-16 (Windows' "Unicode"), little- and big-endian, is named, with the fix that opens it: latin1 would garble it.
    const utf16 = Buffer.from('\ufefftext\nseen today\n', 'utf16le');
    const expected = 'UTF-16, not UTF-8 (it starts with a UTF-16 byte-order mark); re-encode the file as UTF-8 (e.g. iconv -f utf-16 -t utf-8)';
    const le = await tempFile('le.csv', utf16);
    expect((await errorOf(loadCorpus(le))).located).toBe(`${le}:1: ${expected}`);
    const be = await tempFile('be.csv', Buffer.from(utf16).swap16());
    expect((await errorOf(loadCorpus(be))).located).toBe(`${be}:1: ${expected}`);
    expect(() => decodeUtf8Strict(utf16, 'list.txt')).toThrow(expected);
    const dir = await tempDir();
    await mkdir(join(dir, 'p1'));
    await writeFile(join(dir, 'p1', 'a.txt'), Buffer.from([0x61, 0x0a, 0xff]));
    expect((await errorOf(loadCorpus(dir))).located).toMatch(/a\.txt:2: invalid UTF-8/);
  });

  it('rejects empty text, naming the line', async () => {
    const path = await tempFile('c.csv', 'id,author,text\n1,a,hello\n2,b,   \n');
    expect((await errorOf(loadCorpus(path))).located).toBe(`${path}:3: the document has empty text; remove the row or pass --skip-bad-rows`);
  });

  it('rejects duplicate ids', async () => {
    const path = await tempFile('c.jsonl', '{"id":"x","text":"a"}\n{"id":"x","text":"b"}\n');
    expect((await errorOf(loadCorpus(path))).located).toMatch(/c\.jsonl:2: duplicate id \(first on line 1\)/);
  });

  it('rejects a document over the size limit', async () => {
    const path = await tempFile('c.jsonl', `{"id":"big","text":"${'a'.repeat(100)}"}\n`);
    expect((await errorOf(loadCorpus(path, { maxDocChars: 50 }))).message).toMatch(/has 100 characters, over the limit of 50; split it or raise --max-doc-chars/);
  });

  it('rejects rows with the wrong number of fields', async () => {
    const path = await tempFile('c.csv', 'id,author,text\n1,a,hello,extra\n');
    expect((await errorOf(loadCorpus(path))).located).toMatch(/c\.csv:2: row has 4 fields but the header has 3/);
  });

  it('rejects malformed JSON and non-string text', async () => {
    const bad = await tempFile('c.jsonl', '{"text": "ok"}\n{"text": oops}\n');
    expect((await errorOf(loadCorpus(bad))).located).toMatch(/c\.jsonl:2: not valid JSON/);
    // V8's own message quotes the line; the error names the position only.
    const quoting = await tempFile('q.jsonl', '{"text": "Okonkwo Adaeze, MRN 48213377" oops}\n');
    const err = await errorOf(loadCorpus(quoting));
    expect(err.located).toMatch(/q\.jsonl:1: not valid JSON at column 41; each line must be one JSON object/);
    expect(err.located).not.toMatch(/Okonkwo|48213377/);
    const num = await tempFile('d.jsonl', '{"text": 5}\n');
    expect((await errorOf(loadCorpus(num))).located).toBe(`${num}:1: key "text" must be a string, got number; write the text as one, or choose another key with --text-col`);
    const author = await tempFile('a.jsonl', '{"text": "seen today", "author": {"name": "x"}}\n');
    expect((await errorOf(loadCorpus(author))).located).toBe(`${author}:1: key "author" must be a string or a number, got object; write the author as one, or choose another key with --author-col`);
    // A reader that offers no way to choose a column names none; one with its own way names that.
    expect((await errorOf(loadCorpus(author, { choices: { text: '--reference-text-col' } }))).located).toBe(`${author}:1: key "author" must be a string or a number, got object; write the author as one`);
    expect((await errorOf(readCorpusReference(num))).located).toBe(`${num}:1: key "text" must be a string, got number; write the text as one, or choose another key with --reference-text-col`);
  });

  it('rejects empty files, header-only files, corpora whose every row is skipped, and empty folders', async () => {
    for (const [name, content] of [['e.csv', ''], ['e.jsonl', '\n\n'], ['h.csv', 'id,author,text\n'], ['h.tsv', 'id\tauthor\ttext\r\n']] as const) {
      const path = await tempFile(name, content);
      const err = await errorOf(loadCorpus(path));
      expect(err).toBeInstanceOf(FormatError);
      expect(err.located).toBe(`${path}: the corpus has no documents (an empty file, a header row only, or every row skipped); give at least one document`);
    }
    const allBad = await tempFile('b.csv', 'id,author,text\n1,a,\n');
    expect((await errorOf(loadCorpus(allBad, { skipBadRows: true }))).message).toMatch(/the corpus has no documents/);
    expect((await errorOf(loadCorpus(await tempDir()))).message).toMatch(/no \.txt files found/);
    // A folder of other data says what it holds; a binary file named .txt is no document.
    const shards = await tempDir();
    await writeFile(join(shards, 'train-00000-of-00001.parquet'), 'x');
    expect((await errorOf(loadCorpus(shards))).located).toBe(`${shards}: no .txt files found; it holds Parquet files: give one of them as the corpus, or a dataset folder whose shards are data/train-*.parquet; a folder corpus holds one .txt file per document (author = sub-folder)`);
    const arrow = await tempDir();
    await writeFile(join(arrow, 'data-00000-of-00001.arrow'), 'x');
    expect((await errorOf(loadCorpus(arrow))).message).toMatch(/^no \.txt files found; it holds Arrow files \(datasets save_to_disk\), which ppmlm does not read: export the split with to_parquet; /);
    const binary = await tempDir();
    await writeFile(join(binary, 'a.txt'), 'seen today');
    await writeFile(join(binary, 'b.txt'), 'hello\0world');
    expect((await errorOf(loadCorpus(binary))).located).toBe(`${join(binary, 'b.txt')}:1: holds NUL bytes, so it is a binary file, not a document; remove it from the folder`);
  });

  it('reports a stray quote after a quoted field at its line, and reads on past it with skipBadRows', async () => {
    const path = await tempFile('c.csv', 'id,author,text\n1,a,"Alice Smith" seen today\n2,b,"multi\nline" x\n3,c,fine\n');
    const err = await errorOf(loadCorpus(path));
    expect(err).toBeInstanceOf(FormatError);
    expect(err.located).toBe(`${path}:2: text after a closing quote; quote the whole field and write a quote inside it as ""`);
    const bad: string[] = [];
    const docs = await loadCorpus(path, { skipBadRows: true, onBadRow: (e) => bad.push(e.located) });
    expect(docs).toEqual([{ id: '3', author: 'c', text: 'fine' }]);
    expect(bad).toEqual([expect.stringMatching(/c\.csv:2: text after a closing quote/), expect.stringMatching(/c\.csv:3: text after a closing quote/)]);
  });

  it('keeps quotes inside unquoted fields and reads CRLF CSV', async () => {
    const path = await tempFile('c.csv', 'id,author,text\r\n1,a,5\'11" tall\r\n2,b,"x, ""y"""\r\n');
    expect(await loadCorpus(path)).toEqual([
      { id: '1', author: 'a', text: '5\'11" tall' },
      { id: '2', author: 'b', text: 'x, "y"' },
    ]);
  });

  it('stops a field over --max-doc-chars while parsing, at the line where it starts', async () => {
    // An unterminated quote would otherwise swallow the whole rest of the file into one field.
    const rows = Array.from({ length: 2000 }, (_, i) => `${i + 3},a,row ${i}`).join('\n');
    const path = await tempFile('c.csv', `id,author,text\n1,a,ok\n2,b,"never closed\n${rows}\n`);
    const err = await errorOf(loadCorpus(path, { maxDocChars: 1000 }));
    expect(err.located).toBe(`${path}:3: a field is longer than 1000 characters (an unterminated quote?); split the document or raise --max-doc-chars`);
    const bad: string[] = [];
    expect(await loadCorpus(path, { maxDocChars: 1000, skipBadRows: true, onBadRow: (e) => bad.push(e.located) })).toEqual([{ id: '1', author: 'a', text: 'ok' }]);
    expect(bad).toHaveLength(1);
  });

  it('refuses a JSONL line too long for --max-doc-chars while reading it, before parsing, and reads on with skipBadRows', async () => {
    // Not JSON either: the length is what is reported, so the line was never parsed.
    const long = `{"id":"2","text":"${'x'.repeat(1_200_000)}`;
    const path = await tempFile('c.jsonl', `{"id":"1","text":"ok"}\n${long}\n{"id":"3","text":"fine"}\n`);
    const err = await errorOf(loadCorpus(path, { maxDocChars: 10 }));
    expect(err.located).toBe(`${path}:2: the line is too long for a document of at most 10 characters; split the document or raise --max-doc-chars`);
    const bad: string[] = [];
    const docs = await loadCorpus(path, { maxDocChars: 10, skipBadRows: true, onBadRow: (e) => bad.push(e.located) });
    expect(docs.map((d) => d.id)).toEqual(['1', '3']);
    expect(bad).toEqual([err.located]);
  });

  it('reads a long quoted field in time linear in its length', async () => {
    const time = async (chars: number) => {
      const path = await tempFile('long.csv', `id,author,text\n1,a,"${'ab ""c"",\n'.repeat(chars / 10)}"\n`);
      const t0 = performance.now();
      const [doc] = await loadCorpus(path);
      expect(doc!.text.length).toBe((chars / 10) * 8);
      return performance.now() - t0;
    };
    await time(100_000);
    const small = await time(500_000);
    const large = await time(4_000_000);
    // Quadratic reading (fast-csv 5) took 9 s at 4 MB; linear is about 8 x the 0.5 MB time. Generous for a shared machine.
    expect(large).toBeLessThan(Math.max(40 * small, 1500));
  });

  it('skips and reports bad rows with skipBadRows', async () => {
    const path = await tempFile('c.csv', 'id,author,text\n1,a,hello\n2,b,\n1,c,dup\n3,d,"fine"\n');
    const bad: string[] = [];
    const docs: Document[] = [];
    for await (const doc of readCorpus(path, { skipBadRows: true, onBadRow: (e) => bad.push(e.located) })) docs.push(doc);
    expect(docs.map((d) => d.id)).toEqual(['1', '3']);
    expect(bad).toEqual([expect.stringMatching(/:3: the document has empty text/), expect.stringMatching(/:4: duplicate id \(first on line 2\)/)]);
  });

  it('streams: the first document arrives before the file is read to the end', async () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => `${i},a${i % 97},text number ${i}`).join('\n');
    const path = await tempFile('big.csv', `id,author,text\n${rows}\n`);
    const it = readCorpus(path)[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value).toEqual({ id: '0', author: 'a0', text: 'text number 0' });
    await it.return?.(undefined);
  });
});
