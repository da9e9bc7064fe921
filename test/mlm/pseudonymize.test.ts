import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/index.js';
import { BlacklistMatcher, type BlacklistEntry } from '../../src/identifiers/index.js';
import { formatPreservingSurrogate, pseudonymize } from '../../src/mlm/index.js';

const entry = (term: string, kind: 'direct' | 'indirect', category: string): BlacklistEntry => ({ term, kind, category, authors: 1, occurrences: 1, sources: [] });
const ENTRIES = [entry('alice smith', 'direct', 'PERSON'), entry('617-555-0142', 'direct', 'PHONE'), entry('glassblowing', 'indirect', 'RARE')];
const matcher = new BlacklistMatcher(ENTRIES);

describe('pseudonymize', () => {
  it('replaces direct identifiers by category placeholders and leaves indirect ones', async () => {
    const text = 'Alice Smith (617-555-0142) enjoys glassblowing. Alice Smith again.';
    expect(await pseudonymize(text, matcher, ENTRIES)).toBe('[PERSON] ([PHONE]) enjoys glassblowing. [PERSON] again.');
  });

  it('uses one format-preserving surrogate per term within a document', async () => {
    const out = await pseudonymize('Alice Smith called 617-555-0142; Alice Smith.', matcher, ENTRIES, { style: 'surrogate', rng: new Rng(1) });
    const m = /^([A-Z][a-z]{4} [A-Z][a-z]{4}) called (\d{3}-\d{3}-\d{4}); ([A-Za-z ]+)\.$/.exec(out);
    expect(m).not.toBeNull();
    expect(m![1]).toBe(m![3]);
    expect(m![1]).not.toBe('Alice Smith');
    expect(m![2]).not.toBe('617-555-0142');
  });

  it('keeps the shape of Korean and mixed values', () => {
    const s = formatPreservingSurrogate('홍길동 010-1234-5678', new Rng(2));
    expect(s).toMatch(/^[가-힣]{3} \d{3}-\d{4}-\d{4}$/);
  });
});
