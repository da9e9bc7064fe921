import { describe, expect, it } from 'vitest';
import { splitByAuthor, type Document } from '../../src/corpus/index.js';
import { UsageError } from '../../src/errors.js';

/** 40 authors with 1 to 4 documents each. */
const docs: Document[] = Array.from({ length: 40 }, (_, a) => Array.from({ length: 1 + (a % 4) }, (_, k) => ({ id: `${a}-${k}`, author: `patient-${a}`, text: `note ${k} of ${a}` }))).flat();

describe('splitByAuthor', () => {
  it('refuses a share outside (0, 1) and a corpus of fewer than 2 authors', () => {
    for (const share of [0, 1, -0.1, 1.5, NaN]) expect(() => splitByAuthor(docs, share, 1)).toThrow(UsageError);
    expect(() => splitByAuthor(docs.filter((d) => d.author === 'patient-3'), 0.5, 1)).toThrow(/at least 2 authors, the corpus has 1/);
  });

  it('puts no author on both sides and keeps every document once', () => {
    const { train, heldOut } = splitByAuthor(docs, 0.25, 7);
    const trainAuthors = new Set(train.map((d) => d.author));
    expect(heldOut.some((d) => trainAuthors.has(d.author))).toBe(false);
    expect([...train, ...heldOut].map((d) => d.id).sort()).toEqual(docs.map((d) => d.id).sort());
  });

  it('holds out the share of individuals asked for, at least one on each side', () => {
    for (const share of [0.1, 0.25, 0.5, 0.9]) expect(new Set(splitByAuthor(docs, share, 3).heldOut.map((d) => d.author)).size).toBe(Math.round(share * 40));
    const two = docs.filter((d) => d.author === 'patient-1' || d.author === 'patient-2');
    for (const share of [0.01, 0.99]) {
      const { train, heldOut } = splitByAuthor(two, share, 3);
      expect([train.length > 0, heldOut.length > 0]).toEqual([true, true]);
    }
  });

  it('is a function of the seed, not of document order', () => {
    const a = splitByAuthor(docs, 0.2, 11).heldOut.map((d) => d.id).sort();
    expect(splitByAuthor([...docs].reverse(), 0.2, 11).heldOut.map((d) => d.id).sort()).toEqual(a);
    expect(splitByAuthor(docs, 0.2, 12).heldOut.map((d) => d.id).sort()).not.toEqual(a);
  });
});
