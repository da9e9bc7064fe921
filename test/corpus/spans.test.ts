import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { goldType, readSpanCorpus } from '../../src/corpus/index.js';
import { FormatError, UsageError } from '../../src/errors.js';
import { tempDir, tempFile } from '../helpers/tmp.js';

describe('gold labels', () => {
  it('group the public corpora\'s labels into reporting types', () => {
    expect(['HCPName', 'PER', 'person', 'GPE', 'STREET_ADDRESS', '구아래주소', '호실', '내국인이름', 'DateYear', 'DAT', '은행'].map(goldType)).toEqual(['PERSON', 'PERSON', 'PERSON', 'LOCATION', 'LOCATION', 'LOCATION', 'LOCATION', 'PERSON', 'DATE', 'DATE', '은행']);
  });
});

describe('readSpanCorpus', () => {
  it('refuses an unknown format by name, from code where no flag parser checks it', async () => {
    const file = await tempFile('g.xml', '<doc/>');
    const err = await readSpanCorpus(file, 'xml' as 'jsonl').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('unknown span format "xml"; use jsonl, presidio, physionet, conll');
  });
});

describe('CoNLL gold spans', () => {
  it('joins tokens with spaces, merges B-/I- and IO runs, one individual per sentence', async () => {
    const file = await tempFile('g.conll', 'John\tB-PER\nSmith\tI-PER\nvisited\tO\nNew\tI-LOC\nYork\tI-LOC\n\nHi\tO\nAnn\tB-person\n');
    const docs = await readSpanCorpus(file, 'conll');
    expect(docs.map((d) => d.text)).toEqual(['John Smith visited New York', 'Hi Ann']);
    expect(new Set(docs.map((d) => d.author)).size).toBe(2);
    expect(docs[0]!.spans.map((s) => `${docs[0]!.text.slice(s.start, s.end)}:${s.label}`)).toEqual(['John Smith:PER', 'New York:LOC']);
  });

  it('makes the sentences of one -DOCSTART- article one document, a sentence a line, and one individual', async () => {
    const file = await tempFile('a.conll', 'Hi\tO\n\nYo\tO\n-DOCSTART- O\n\nJohn\tB-PER\nleft\tO\n\nHe\tO\nreturned\tO\n\nAnn\tB-PER\n-DOCSTART- O\nAnn\tB-PER\nstayed\tO\n');
    const docs = await readSpanCorpus(file, 'conll');
    // Before the first marker: the first article.
    expect(docs.map((d) => d.text)).toEqual(['Hi\nYo', 'John left\nHe returned\nAnn', 'Ann stayed']);
    expect(docs[1]!.spans.map((s) => `${docs[1]!.text.slice(s.start, s.end)}@${s.start}`)).toEqual(['John@0', 'Ann@22']);
    expect(new Set(docs.map((d) => d.author)).size).toBe(3);
  });

  it('reads CoNLL-2003 columns: the first is the token, the last the tag', async () => {
    const file = await tempFile('c.conll', 'EU NNP B-NP B-ORG\nrejects VBZ B-VP O\nGerman JJ B-NP B-MISC\n');
    const [doc] = await readSpanCorpus(file, 'conll');
    expect(doc!.text).toBe('EU rejects German');
    expect(doc!.spans).toEqual([{ start: 0, end: 2, label: 'ORG' }, { start: 11, end: 17, label: 'MISC' }]);
  });

  it('skips a blank token before a tab, as the Broad Twitter Corpus writes one, an open span going on past it', async () => {
    const file = await tempFile('blank.conll', 'Hi\tO\n \tO\n\tO\nNew\tB-LOC\n \tI-LOC\nYork\tI-LOC\n');
    const [doc] = await readSpanCorpus(file, 'conll');
    expect(doc!.text).toBe('Hi New York');
    expect(doc!.spans).toEqual([{ start: 3, end: 11, label: 'LOC' }]);
    // A blank that begins a span ends the one open: two spans, not "New York".
    const [split] = await readSpanCorpus(await tempFile('blank-b.conll', 'New\tB-LOC\n \tB-LOC\nYork\tI-LOC\n'), 'conll');
    expect(split!.spans).toEqual([{ start: 0, end: 3, label: 'LOC' }, { start: 4, end: 8, label: 'LOC' }]);
    const bad = await tempFile('blank-bad.conll', 'Hi\tO\n \tPERSON\n');
    await expect(readSpanCorpus(bad, 'conll')).rejects.toMatchObject({ located: expect.stringMatching(/blank-bad\.conll:2: the tag \(the last column, 6 characters, not shown: it may be text\)/) });
  });

  it('names the file and line of a bad tag, and refuses overlapping labels in JSONL', async () => {
    const bad = await tempFile('b.conll', 'John\tB-PER\nSmith\tPERSON\n');
    await expect(readSpanCorpus(bad, 'conll')).rejects.toMatchObject({ located: expect.stringMatching(/b\.conll:2: the tag \(the last column, 6 characters, not shown: it may be text\) is neither O nor B-\/I-\/E-\/S-TYPE/) });
    // What reads as text is not shown: a file that is not CoNLL has text in its last column.
    const text = await tempFile('t.conll', 'Patient\tJohn Smith seen today\n');
    await expect(readSpanCorpus(text, 'conll')).rejects.toMatchObject({ line: 1, message: 'the tag (the last column, 5 characters, not shown: it may be text) is neither O nor B-/I-/E-/S-TYPE' });
    const one = await tempFile('one.conll', 'Okonkwo\n');
    await expect(readSpanCorpus(one, 'conll')).rejects.toMatchObject({ line: 1, message: 'expected a token and its tag separated by a tab or space; the line has one column (7 characters, not shown: it may be text)' });
    const overlap = await tempFile('o.jsonl', JSON.stringify({ id: 'a', author: 'x', text: 'Dr Smith', spans: [{ start: 0, end: 8, label: 'NAME' }, { start: 3, end: 8, label: 'DATE' }] }) + '\n');
    await expect(readSpanCorpus(overlap, 'jsonl')).rejects.toThrow(FormatError);
    await expect(readSpanCorpus(overlap, 'jsonl')).rejects.toMatchObject({ located: expect.stringMatching(/o\.jsonl:1: .*overlap with different labels/) });
  });
});

describe('span files with mistakes', () => {
  it('names what is wrong with a span, and where: the line, or the element of a JSON array', async () => {
    const jsonl = async (spans: unknown) => readSpanCorpus(await tempFile('s.jsonl', `${JSON.stringify({ text: 'John Smith', spans })}\n`), 'jsonl');
    await expect(jsonl([{ start: '0', end: '4', label: 'P' }])).rejects.toMatchObject({ line: 1, message: 'span offsets must be whole numbers of characters, got start a string and end a string' });
    const huge = readSpanCorpus(await tempFile('h.jsonl', '{"text": "John Smith", "spans": [{"start": 0, "end": 1e400, "label": "P"}]}\n'), 'jsonl');
    await expect(huge).rejects.toMatchObject({ line: 1, message: 'span offsets must be whole numbers of characters, got start a whole number and end a number too large to hold' });
    await expect(jsonl([3])).rejects.toMatchObject({ line: 1, message: 'each span is an object {start, end, label}' });
    await expect(jsonl([{ start: 4, end: 2, label: 'P' }])).rejects.toMatchObject({ line: 1, message: 'span [4, 2) is empty; its end must come after its start' });
    await expect(jsonl([{ start: 0, end: 4 }])).rejects.toMatchObject({ line: 1, message: 'span [0, 4) has no label' });
    await expect(jsonl([{ start: 0, end: 4, label: 7 }])).rejects.toMatchObject({ line: 1, message: 'span [0, 4) has a whole number as its label; write the label as a string ("PERSON")' });
    const presidio = async (rows: unknown) => readSpanCorpus(await tempFile('p.json', JSON.stringify(rows)), 'presidio');
    const shape = 'each element is an object with "full_text" (string) and "spans" (array of {entity_type, start_position, end_position})';
    for (const bad of [[null], [{ text: 'John', spans: [] }], [{ full_text: 'John', spans: { entity_type: 'PERSON' } }]]) await expect(presidio(bad)).rejects.toMatchObject({ message: `element 0 (from 0): ${shape}` });
    await expect(presidio([{ full_text: 'ok', spans: [] }, { full_text: 'John', spans: [{ entity_type: 'PERSON', start_position: 0, end_position: 9 }] }])).rejects.toMatchObject({
      message: "element 1 (from 0): span [0, 9) is outside its document's text, which has 4 characters; offsets count characters from 0, the end exclusive",
    });
  });

  it('reads a PhysioNet folder with spaces or tabs between fields, and names a bad line, a missing file, CRLF', async () => {
    const folder = async (phrase: string | undefined, text = 'START_OF_RECORD=1||||1||||\nPatient John Smith seen today.\n||||END_OF_RECORD\n') => {
      const dir = await tempDir();
      await writeFile(join(dir, 'id.text'), text);
      if (phrase !== undefined) await writeFile(join(dir, 'id-phi.phrase'), phrase);
      return dir;
    };
    for (const phrase of ['1 1 8 18 PTName John Smith\n', '1\t1\t8\t18\tPTName\n', '1  1 8 18 PTName\n\n']) {
      const [doc] = await readSpanCorpus(await folder(phrase), 'physionet');
      expect(doc!.spans.map((s) => doc!.text.slice(s.start, s.end))).toEqual(['John Smith']);
    }
    const problem = async (phrase: string) => readSpanCorpus(await folder(`1 1 8 18 PTName\n${phrase}`), 'physionet');
    await expect(problem('1 1 8\n')).rejects.toMatchObject({ line: 2, message: 'expected patient, note, start, end and type, then the phrase, separated by spaces' });
    await expect(problem('1 1 0 1x0 PTName\n')).rejects.toMatchObject({ line: 2, message: 'the third and fourth fields, start and end, must be whole numbers of characters' });
    await expect(problem('1 1 0 99 PTName\n')).rejects.toMatchObject({ line: 2, message: "span [0, 99) is outside its document's text, which has 31 characters; offsets count characters from 0, the end exclusive" });
    await expect(problem('2 1 0 4 PTName\n')).rejects.toMatchObject({ line: 2, message: "id.text holds no record of this line's patient and note (its first two fields)" });
    const noPhrase = await folder(undefined);
    await expect(readSpanCorpus(noPhrase, 'physionet')).rejects.toThrow(`${join(noPhrase, 'id-phi.phrase')}: no such file or folder; a PhysioNet deid folder holds id.text and id-phi.phrase: give that folder`);
    const crlf = await folder('1 1 8 18 PTName\n', 'START_OF_RECORD=1||||1||||\r\nPatient John Smith seen today.\r\n||||END_OF_RECORD\r\n');
    await expect(readSpanCorpus(crlf, 'physionet')).rejects.toMatchObject({ message: 'has Windows line ends (CRLF), which shift every offset of id-phi.phrase; convert it back (dos2unix id.text)' });
    const file = await tempFile('id.text', 'x');
    await expect(readSpanCorpus(file, 'physionet')).rejects.toMatchObject({ message: 'not a folder; a PhysioNet deid folder holds id.text and id-phi.phrase: give that folder' });
  });
});
