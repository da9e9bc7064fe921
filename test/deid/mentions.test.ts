import { describe, expect, it } from 'vitest';
import type { SpanDocument } from '../../src/corpus/index.js';
import { Rng } from '../../src/engine/index.js';
import { normalizeTerm } from '../../src/text/index.js';
import { publicLists } from '../../src/identifiers/index.js';
import { hasReplaceableMention, withSurrogateMentions } from '../../src/deid/mentions.js';

const doc: SpanDocument = {
  id: 't1',
  author: 'u1',
  text: 'omg justin bieber in Toronto with Selena at 12 Main St, 김민서 too',
  spans: [
    { start: 4, end: 17, label: 'person' },
    { start: 21, end: 28, label: 'location' },
    { start: 34, end: 40, label: 'PER' },
    { start: 44, end: 54, label: 'STREET_ADDRESS' },
    { start: 56, end: 59, label: '내국인이름' },
  ],
};

describe('surrogate mentions', () => {
  it('put a listed name or place in each person and place, in the casing of the original, and move the other spans', () => {
    const { firstNames, lastNames, places } = publicLists();
    const out = withSurrogateMentions(doc, new Rng(7));
    const at = (i: number) => out.text.slice(out.spans[i]!.start, out.spans[i]!.end);
    expect(out.spans.map((s) => s.label)).toEqual(doc.spans.map((s) => s.label));
    const [first, last] = at(0).split(' ');
    expect(at(0)).toBe(at(0).toLowerCase());
    expect(firstNames.has(normalizeTerm(first!)) && lastNames.has(normalizeTerm(last!))).toBe(true);
    expect(at(1)).toMatch(/^\p{Lu}/u);
    expect(places.has(normalizeTerm(at(1)))).toBe(true);
    expect(firstNames.has(normalizeTerm(at(2))) || lastNames.has(normalizeTerm(at(2)))).toBe(true);
    // An address and a Korean name are no census name's or city's like: kept, only moved.
    expect(at(3)).toBe('12 Main St');
    expect(at(4)).toBe('김민서');
    expect(out.text.startsWith('omg ')).toBe(true);
    expect(out.text.endsWith('김민서 too')).toBe(true);
  });

  it('draw the same surrogates from the same seed, and others from another', () => {
    expect(withSurrogateMentions(doc, new Rng(1))).toEqual(withSurrogateMentions(doc, new Rng(1)));
    expect(withSurrogateMentions(doc, new Rng(1)).text).not.toBe(withSurrogateMentions(doc, new Rng(2)).text);
  });

  it('keep the text between mentions, and every other span on its own text (property)', () => {
    const labels = ['O', 'person', 'location', 'DATE'];
    const outside = (t: string, s: readonly { start: number; end: number }[]) => s.reduceRight((acc, x) => acc.slice(0, x.start) + '|' + acc.slice(x.end), t);
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
});
