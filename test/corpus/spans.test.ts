import { describe, expect, it } from 'vitest';
import { goldType, readSpanCorpus } from '../../src/corpus/index.js';
import { FormatError } from '../../src/errors.js';
import { tempFile } from '../helpers/tmp.js';

describe('gold labels', () => {
  it('group the public corpora\'s labels into reporting types', () => {
    expect(['HCPName', 'PER', 'person', 'GPE', 'STREET_ADDRESS', '구아래주소', '호실', '내국인이름', 'DateYear', 'DAT', '은행'].map(goldType)).toEqual(['PERSON', 'PERSON', 'PERSON', 'LOCATION', 'LOCATION', 'LOCATION', 'LOCATION', 'PERSON', 'DATE', 'DATE', '은행']);
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
    await expect(readSpanCorpus(bad, 'conll')).rejects.toMatchObject({ located: expect.stringMatching(/blank-bad\.conll:2: tag "PERSON"/) });
  });

  it('names the file and line of a bad tag, and refuses overlapping labels in JSONL', async () => {
    const bad = await tempFile('b.conll', 'John\tB-PER\nSmith\tPERSON\n');
    await expect(readSpanCorpus(bad, 'conll')).rejects.toMatchObject({ located: expect.stringMatching(/b\.conll:2: tag "PERSON" is neither O nor B-\/I-\/E-\/S-TYPE/) });
    const overlap = await tempFile('o.jsonl', JSON.stringify({ id: 'a', author: 'x', text: 'Dr Smith', spans: [{ start: 0, end: 8, label: 'NAME' }, { start: 3, end: 8, label: 'DATE' }] }) + '\n');
    await expect(readSpanCorpus(overlap, 'jsonl')).rejects.toThrow(FormatError);
    await expect(readSpanCorpus(overlap, 'jsonl')).rejects.toMatchObject({ located: expect.stringMatching(/o\.jsonl:1: .*overlap with different labels/) });
  });
});
