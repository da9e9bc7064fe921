import { describe, expect, it } from 'vitest';
import { blacklistProtection, evaluateProtection, occurrenceProtection, type Protection } from '../../src/audit/index.js';
import { goldType } from '../../src/corpus/index.js';
import type { SpanDocument } from '../../src/corpus/index.js';
import { NameRecognizer, type Blacklist } from '../../src/identifiers/index.js';

const docs: SpanDocument[] = [
  { id: '1', author: 'p1', text: 'Seen by Dr Smith on 3/12.', spans: [{ start: 11, end: 16, label: 'HCPName' }, { start: 20, end: 24, label: 'Date' }] },
  { id: '2', author: 'p1', text: 'Smith called back.', spans: [{ start: 0, end: 5, label: 'HCPName' }] },
  { id: '3', author: 'p2', text: 'Mary Ann Lee went home.', spans: [{ start: 0, end: 12, label: 'PTName' }] },
];

describe('protection against gold spans', () => {
  it('protects where a recogniser fired, with the whole mention of a name (occurrence level)', async () => {
    const empty: Blacklist = { header: { version: 1, extra: {} }, entries: [] };
    const text = 'Follow up with Mr. Ryan Bagy MD in 2 months.';
    const { covered, detections } = await occurrenceProtection([new NameRecognizer()], empty)({ id: '1', author: 'a', text, spans: [] });
    expect(detections.map((d) => text.slice(d.start, d.end))).toEqual(['Ryan Bagy']);
    // The surname's own span lies inside the name: it adds no position here, only a term elsewhere.
    expect(covered.map((c) => text.slice(c.start, c.end))).toEqual(['Ryan Bagy', 'Mr. Ryan Bagy MD', 'Bagy']);
  });

  it('is perfect for an oracle that protects exactly the gold spans, and open-ended at 1', async () => {
    const oracle: Protection = async (d) => ({ covered: d.spans, detections: d.spans.map((s) => ({ ...s, category: goldType(s.label) })) });
    const e = await evaluateProtection(docs, oracle);
    expect(e.individuals).toBe(2);
    const all = e.types.find((t) => t.type === 'all')!;
    expect(all).toMatchObject({ gold: 4, full: { value: 1, n: 4 }, anyOverlap: { value: 1 } });
    // Wilson keeps the interval open where every individual's recall is 1.
    expect(all.full.interval[0]).toBeLessThan(0.6);
    expect(e.precision).toMatchObject({ value: 1, n: 4 });
    expect(e.otherTextProtected.value).toBe(0);
  });

  it('counts a span touched but not every word character covered, and the other text protected', async () => {
    const list: Blacklist = { header: { version: 1, extra: {} }, entries: [
      { term: 'smith', kind: 'direct', category: 'PERSON', authors: 1, occurrences: 2, sources: ['list:names'] },
      { term: 'mary', kind: 'indirect', category: 'RARE', authors: 1, occurrences: 1, sources: ['graph:k=2'] },
      { term: 'home', kind: 'indirect', category: 'RARE', authors: 1, occurrences: 1, sources: ['graph:k=2'] },
    ] };
    const e = await evaluateProtection(docs, blacklistProtection(list));
    const row = (t: string) => e.types.find((r) => r.type === t)!;
    expect(row('PERSON')).toMatchObject({ gold: 3, anyOverlap: { value: 1 }, full: { value: 2 / 3 } });
    expect(row('DATE').full.value).toBe(0);
    // "home" (4 word characters) of the word characters outside gold spans.
    const other = 'SeenbyDron'.length + 'calledback'.length + 'wenthome'.length;
    expect(e.otherTextProtected).toMatchObject({ value: 4 / other, n: other });
    expect(e.precision).toMatchObject({ value: 1, n: 2 });
    expect(e.otherTextProtectedBy.map((b) => [b.protectedBy, b.share.value])).toEqual([['indirect', 4 / other], ['PERSON', 0]]);
    const direct = await evaluateProtection(docs, blacklistProtection(list, { only: 'direct' }));
    expect(direct.types.find((r) => r.type === 'PERSON')!.anyOverlap.value).toBe(2 / 3);
  });

  it('splits the other text protected by what protects it, a character covered twice counting under each', async () => {
    const list: Blacklist = { header: { version: 1, extra: {} }, entries: [
      { term: 'called back', kind: 'direct', category: 'DATE', authors: 1, occurrences: 1, sources: ['rule:test'] },
      { term: 'back', kind: 'indirect', category: 'RARE', authors: 1, occurrences: 1, sources: ['graph:k=2'] },
      { term: 'went', kind: 'direct', category: 'PERSON', authors: 1, occurrences: 1, sources: ['list:names'] },
    ] };
    const e = await evaluateProtection(docs, blacklistProtection(list));
    const other = 'SeenbyDron'.length + 'calledback'.length + 'wenthome'.length;
    expect(e.otherTextProtected.value).toBe(14 / other);
    expect(e.otherTextProtectedBy.map((b) => [b.protectedBy, b.share.value])).toEqual([['DATE', 10 / other], ['PERSON', 4 / other], ['indirect', 4 / other]]);
  });
});
