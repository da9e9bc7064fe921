import { describe, expect, it } from 'vitest';
import type { SpanDocument } from '../../src/corpus/index.js';
import { Rng } from '../../src/engine/index.js';
import { normalizeTerm } from '../../src/text/index.js';
import { publicLists } from '../../src/identifiers/index.js';
import { hasReplaceableMention, mentionCopies, withSurrogateMentions } from '../../src/deid/mentions.js';

const doc: SpanDocument = {
  id: 't1',
  author: 'u1',
  text: 'omg justin bieber in Toronto with Selena at 12 Main St, 김민서 too, Mercy Hospital',
  // Not in text order: the output keeps the input's.
  spans: [
    { start: 34, end: 40, label: 'PER' },
    { start: 4, end: 17, label: 'person' },
    { start: 21, end: 28, label: 'location' },
    { start: 44, end: 54, label: 'STREET_ADDRESS' },
    { start: 56, end: 59, label: '내국인이름' },
    { start: 65, end: 79, label: 'HOSPITAL' },
  ],
};

describe('surrogate mentions', () => {
  it('put a listed name or place in each person and place, in the casing of the original, and move the other spans', () => {
    const { firstNames, lastNames, places } = publicLists();
    const out = withSurrogateMentions(doc, new Rng(7));
    const at = (i: number) => out.text.slice(out.spans[i]!.start, out.spans[i]!.end);
    expect(out.spans.map((s) => s.label)).toEqual(doc.spans.map((s) => s.label));
    // Two words for two: a first name (some are two words, Jo Ann) and a last name.
    const words = at(1).split(' ');
    expect(at(1)).toBe(at(1).toLowerCase());
    expect(words.length).toBeGreaterThan(1);
    expect(lastNames.has(normalizeTerm(words.at(-1)!))).toBe(true);
    expect(at(2)).toMatch(/^\p{Lu}/u);
    expect(places.has(normalizeTerm(at(2)))).toBe(true);
    expect(firstNames.has(normalizeTerm(at(0))) || lastNames.has(normalizeTerm(at(0)))).toBe(true);
    // An address, a hospital and a Korean name are no census name's or city's like: kept, only moved.
    expect(at(3)).toBe('12 Main St');
    expect(at(4)).toBe('김민서');
    expect(at(5)).toBe('Mercy Hospital');
    expect(out.text.startsWith('omg ')).toBe(true);
    expect(out.text.endsWith('김민서 too, Mercy Hospital')).toBe(true);
  });

  it('write a surrogate in the casing of the mention, and leave a document with overlapping spans as it is', () => {
    const one = (text: string) => withSurrogateMentions({ id: 'c', author: 'a', text, spans: [{ start: 0, end: text.length, label: 'LOC' }] }, new Rng(3)).text;
    expect(one('toronto')).toMatch(/^[^\p{Lu}]+$/u);
    expect(one('TORONTO')).toMatch(/^[^\p{Ll}]+$/u);
    expect(one('Toronto')).toMatch(/^\p{Lu}/u);
    const nested: SpanDocument = { id: 'n', author: 'a', text: 'Mary Ann Smith came', spans: [{ start: 0, end: 14, label: 'PER' }, { start: 5, end: 8, label: 'PER' }] };
    expect(hasReplaceableMention(nested)).toBe(false);
    expect(withSurrogateMentions(nested, new Rng(1))).toEqual({ text: nested.text, spans: nested.spans });
  });

  it('draw the same surrogates from the same seed, and others from another', () => {
    expect(withSurrogateMentions(doc, new Rng(1))).toEqual(withSurrogateMentions(doc, new Rng(1)));
    expect(withSurrogateMentions(doc, new Rng(1)).text).not.toBe(withSurrogateMentions(doc, new Rng(2)).text);
  });

  it('keep the text between mentions, and every other span on its own text (property)', () => {
    const labels = ['O', 'person', 'location', 'DATE'];
    const outside = (t: string, s: readonly { start: number; end: number }[]) => [...s].sort((a, b) => a.start - b.start).reduceRight((acc, x) => acc.slice(0, x.start) + '|' + acc.slice(x.end), t);
    const rng = new Rng(11);
    for (let trial = 0; trial < 300; trial++) {
      let text = '';
      const spans: SpanDocument['spans'] = [];
      for (let w = 0, n = 1 + rng.int(12); w < n; w++) {
        const word = Array.from({ length: 1 + rng.int(8) }, () => 'aBcDeFgH'[rng.int(8)]).join('');
        const label = labels[rng.int(labels.length)]!;
        if (text) text += rng.int(2) ? ' ' : ', ';
        if (label !== 'O') spans.push({ start: text.length, end: text.length + word.length, label });
        text += word;
      }
      // In any order: the output's spans follow the input's.
      for (let i = spans.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [spans[i], spans[j]] = [spans[j]!, spans[i]!];
      }
      const input = { id: 'p', author: 'a', text, spans };
      const out = withSurrogateMentions(input, new Rng(trial));
      expect(out.spans.map((s) => s.label)).toEqual(spans.map((s) => s.label));
      expect(outside(out.text, out.spans), text).toBe(outside(text, spans));
      out.spans.forEach((s, i) => {
        if (spans[i]!.label === 'DATE') expect(out.text.slice(s.start, s.end)).toBe(text.slice(spans[i]!.start, spans[i]!.end));
      });
      expect(hasReplaceableMention(input)).toBe(spans.some((s) => s.label !== 'DATE'));
    }
  });

  it("are copied for each document that names someone, afresh each epoch and the same again for a seed's epoch", () => {
    const unnamed: SpanDocument = { id: 'u', author: 'b', text: 'no one here', spans: [] };
    const copies = mentionCopies([doc, unnamed, doc], 2, 5);
    expect(copies.count).toBe(4);
    const epoch0 = copies.forEpoch(0);
    expect(epoch0).toHaveLength(4);
    expect(mentionCopies([doc, unnamed, doc], 2, 5).forEpoch(0)).toEqual(epoch0);
    expect(new Set(epoch0.map((t) => t.text)).size).toBe(4);
    expect(copies.forEpoch(1).map((t) => t.text)).not.toEqual(epoch0.map((t) => t.text));
    expect(mentionCopies([doc], 0, 5).forEpoch(0)).toEqual([]);
  });
});
