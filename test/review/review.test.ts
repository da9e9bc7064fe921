import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/random.js';
import { corpusPassages, designProportionInterval, drawPassages, emptyMarks, estimateReview, goldReviewer, parseReviewMarks, passagesOf, reviewItem, type ReviewSample } from '../../src/review/index.js';
import { jeffreysShortestInterval, protectedIdentifiers } from '../../src/review/estimate.js';

describe('passages', () => {
  it('joins whole sentences up to the word budget and cuts an over-long one at white space', () => {
    const text = 'One two three. Four five six.\nSeven eight nine ten eleven twelve.';
    expect(passagesOf(text, 6).map((p) => text.slice(p.start, p.end))).toEqual(['One two three. Four five six.', 'Seven eight nine ten eleven twelve.']);
    expect(passagesOf(text, 3).map((p) => p.words)).toEqual([3, 3, 6]);
    const long = Array.from({ length: 25 }, (_, i) => `w${i}`).join(' ');
    expect(passagesOf(long, 10).map((p) => p.words)).toEqual([10, 10, 5]);
    expect(passagesOf('  ...  \n\n', 10)).toEqual([]);
  });

  it('draws every passage with the same probability, each individual getting their share (systematic, seeded)', () => {
    const docs = Array.from({ length: 30 }, (_, i) => ({ id: `d${i}`, author: `a${i % 7}`, text: Array.from({ length: 1 + (i % 4) }, (_, s) => `Sentence ${s} of note ${i} here.`).join(' ') }));
    const passages = corpusPassages(docs, 1, 5);
    const counts = new Map<string, number>();
    const draws = 3000;
    for (let seed = 0; seed < draws; seed++) {
      const drawn = drawPassages(corpusPassages(docs, seed, 5), 10, seed);
      expect(drawn).toHaveLength(10);
      expect(new Set(drawn).size).toBe(10);
      for (const p of drawn) counts.set(`${p.doc}:${p.start}`, (counts.get(`${p.doc}:${p.start}`) ?? 0) + 1);
      // An individual's share is proportional to their passages, to within one.
      const per = new Map<string, number>();
      for (const p of drawn) per.set(p.individual, (per.get(p.individual) ?? 0) + 1);
      for (const a of new Set(docs.map((d) => d.author))) {
        const share = (10 * passages.filter((p) => p.individual === a).length) / passages.length;
        expect(Math.abs((per.get(a) ?? 0) - share)).toBeLessThan(1 + 1e-9);
      }
    }
    const expected = (draws * 10) / passages.length;
    for (const p of passages) expect(Math.abs((counts.get(`${p.doc}:${p.start}`) ?? 0) - expected) / expected).toBeLessThan(0.2);
    expect(drawPassages(passages, 500, 1)).toHaveLength(passages.length);
  });
});

describe('intervals', () => {
  it("the shortest Jeffreys interval matches the closed forms, sits against 0 where the density only falls, and has equal density at both ends otherwise", () => {
    // k = 0.5: Beta(1, n): a falling density n(1 - x)^(n - 1), so [0, 1 - 0.05^(1/n)].
    const [lo0, hi0] = jeffreysShortestInterval(0.5, 10);
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(1 - 0.05 ** (1 / 10), 6);
    // k = n - 0.5: Beta(n, 1), rising: [0.05^(1/n), 1].
    const [lo1, hi1] = jeffreysShortestInterval(9.5, 10);
    expect(lo1).toBeCloseTo(0.05 ** (1 / 10), 6);
    expect(hi1).toBe(1);
    // Symmetric: centred, about ±1.96 standard deviations.
    const [a, b] = jeffreysShortestInterval(50, 100);
    expect(a + b).toBeCloseTo(1, 4);
    expect(b - a).toBeGreaterThan(0.18);
    expect(b - a).toBeLessThan(0.2);
    // Skewed (1 of 28): the log density of Beta(1.5, 27.5) is the same at both ends.
    const [s0, s1] = jeffreysShortestInterval(1, 28);
    const logDensity = (x: number) => 0.5 * Math.log(x) + 26.5 * Math.log(1 - x);
    expect(logDensity(s0)).toBeCloseTo(logDensity(s1), 3);
    expect(s0).toBeGreaterThan(0);
  });

  it('widens with clustering and never collapses at 0', () => {
    const independent = Array.from({ length: 40 }, (_, i) => ({ num: i % 10 === 0 ? 1 : 0, den: 1 }));
    // The same 4 of 40 outcomes, all in one of 4 clusters: the design effect widens the interval.
    const clustered = [{ num: 4, den: 10 }, { num: 0, den: 10 }, { num: 0, den: 10 }, { num: 0, den: 10 }];
    const w = (i: [number, number]) => i[1] - i[0];
    expect(w(designProportionInterval(clustered))).toBeGreaterThan(w(designProportionInterval(independent)));
    const zero = designProportionInterval([{ num: 0, den: 30 }, { num: 0, den: 20 }]);
    expect(zero[0]).toBe(0);
    expect(zero[1]).toBeGreaterThan(0.02);
    expect(designProportionInterval([])).toEqual([NaN, NaN]);
  });

  it('counts touching or overlapping protected spans as one identifier', () => {
    const text = 'Dr. Frances Baker, on 3/12 at noon';
    expect(protectedIdentifiers(text, [{ start: 4, end: 11 }, { start: 12, end: 17 }, { start: 22, end: 26 }, { start: 22, end: 24 }])).toBe(2);
  });
});

describe('the estimate', () => {
  const sample: ReviewSample = {
    format: 'ppmlm-review-sample', version: 1, fingerprint: 'f', corpus: 'c', blacklist: 'b', seed: 1, passageWords: 40, population: { passages: 3, individuals: 2, words: 13 },
    items: [
      { individual: 'p1', doc: 'n1', start: 0, end: 30, text: 'Seen by Dr Quigley and Ann Lee', words: 7, wordSpans: [], spans: [{ start: 11, end: 18, kind: 'direct', category: 'PERSON', source: 'list:names' }, { start: 0, end: 4, kind: 'direct', category: 'PERSON', source: 'list:names' }] },
      { individual: 'p1', doc: 'n2', start: 0, end: 14, text: 'Rested on 3/12', words: 3, wordSpans: [], spans: [{ start: 10, end: 14, kind: 'direct', category: 'DATE', source: 'rule:date' }] },
      { individual: 'p2', doc: 'n3', start: 0, end: 13, text: 'Ate zorblat ok', words: 3, wordSpans: [], spans: [{ start: 4, end: 11, kind: 'indirect', category: 'RARE', source: 'graph:k=2' }] },
    ],
  };
  const gold = new Map([
    ['n1', { id: 'n1', author: 'p1', text: 'Seen by Dr Quigley and Ann Lee', spans: [{ start: 11, end: 18, label: 'HCPName' }, { start: 23, end: 30, label: 'PTName' }] }],
    ['n2', { id: 'n2', author: 'p1', text: 'Rested on 3/12', spans: [{ start: 10, end: 14, label: 'Date' }] }],
    ['n3', { id: 'n3', author: 'p2', text: 'Ate zorblat ok', spans: [] }],
  ]);

  it('from an oracle reviewer: misses, identifiers, precision and other text as counted by hand', () => {
    const marks = goldReviewer(sample, gold);
    expect(marks.items[0]!.missed).toEqual([{ start: 23, end: 30, type: 'PERSON' }]);
    expect(marks.items[0]!.spans).toEqual(['identifier', 'not']);
    const e = estimateReview(sample, marks);
    // Identifiers: Quigley, 3/12 (protected) and Ann Lee (missed).
    expect(e).toMatchObject({ reviewed: 3, individuals: 2, words: 13, identifiers: 3, missed: 1 });
    expect(e.missRate.value).toBeCloseTo(1 / 3, 12);
    expect(e.missedPer1000Words.value).toBeCloseTo(1000 / 13, 9);
    // Direct detections: Quigley and 3/12 are identifiers, "Seen" is a false alarm.
    expect(e.directPrecision.value).toBeCloseTo(2 / 3, 12);
    // Other text: word characters outside identifiers; protected among them: "Seen" (4) and "zorblat" (7).
    const other = 'SeenbyDrand'.length + 'Restedon'.length + 'Atezorblatok'.length;
    expect(e.otherTextProtected.value).toBeCloseTo(11 / other, 12);
    // Unreviewed passages do not count.
    const partial = { ...marks, items: marks.items.map((m, i) => ({ ...m, reviewed: i !== 0 })) };
    expect(estimateReview(sample, partial)).toMatchObject({ reviewed: 2, missed: 0, identifiers: 1 });
  });

  it('reads back the marks it starts from, and names what is malformed', () => {
    const marks = emptyMarks(sample);
    expect(parseReviewMarks(JSON.stringify(marks), 'm.json')).toEqual(marks);
    expect(() => parseReviewMarks('{"format": "ppmlm-review-marks",\n"version": 1,\n]', 'm.json')).toThrow(/not valid JSON at column 1/);
    const wrongType = { ...marks, items: [{ ...marks.items[0]!, missed: [{ start: 0, end: 2, type: 'NAME' }] }, ...marks.items.slice(1)] };
    expect(() => parseReviewMarks(JSON.stringify(wrongType), 'm.json')).toThrow(/items\[0\]\.missed\[0\]\.type must be one of PERSON/);
    // A mark made twice, or two that overlap, are one missed occurrence; apart ones stay apart.
    const twice = { ...marks, items: [{ ...marks.items[0]!, missed: [{ start: 2, end: 8, type: 'PERSON' }, { start: 0, end: 5, type: 'DATE' }, { start: 0, end: 5, type: 'DATE' }, { start: 10, end: 12, type: 'PERSON' }] }, ...marks.items.slice(1)] };
    expect(parseReviewMarks(JSON.stringify(twice), 'm.json').items[0]!.missed).toEqual([{ start: 0, end: 8, type: 'DATE' }, { start: 10, end: 12, type: 'PERSON' }]);
  });

  it('an oracle reviewer on random samples: the interval covers the census value in most draws', () => {
    // A synthetic population of 60 individuals whose passages miss identifiers at different rates.
    const rng = new Rng(3);
    const docs = Array.from({ length: 60 }, (_, i) => ({ id: `n${i}`, author: `p${i}`, text: Array.from({ length: 8 }, (_, s) => `Visit ${s} with Kowalczyk${i} today.`).join(' ') }));
    const goldDocs = new Map(docs.map((d) => {
      const spans = [...d.text.matchAll(/Kowalczyk\d+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, label: 'PTName' }));
      return [d.id, { ...d, spans }];
    }));
    const missing = new Set(docs.filter(() => rng.next() < 0.2).map((d) => d.id));
    const sampleOf = (seed: number, size: number): ReviewSample => {
      const drawn = drawPassages(corpusPassages(docs, seed, 10), size, seed);
      return { ...sample, items: drawn.map((p) => {
        const d = docs[p.doc]!;
        const text = d.text.slice(p.start, p.end);
        const spans = missing.has(d.id) ? [] : [...text.matchAll(/Kowalczyk\d+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, kind: 'direct' as const, category: 'PERSON', source: 'list:names' }));
        return reviewItem(d, p, spans);
      }) };
    };
    const census = sampleOf(0, 10_000);
    const truth = estimateReview(census, goldReviewer(census, goldDocs)).missRate.value;
    let covered = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const s = sampleOf(seed, 40);
      const [lo, hi] = estimateReview(s, goldReviewer(s, goldDocs)).missRate.interval;
      if (lo <= truth && truth <= hi) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(90);
  });
});
