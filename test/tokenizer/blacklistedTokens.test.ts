import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/index.js';
import { BlacklistedTerms, blacklistedTokens, tokenSurface, touchesProtected, trainBpe, trainWordPiece } from '../../src/tokenizer/index.js';

// A planted name, an MRN and a rare word, each frequent enough to be learned as a whole token.
const TEXTS = Array.from({ length: 20 }, (_, i) => `Patient Okonkwo MRN 48213377 seen for wheeze. Mr Okonkwo returns. note ${i}`);
const BLACKLIST = new BlacklistedTerms(['okonkwo', '48213377', 'wheeze', 'mr okonkwo']);

describe('BlacklistedTerms', () => {
  it('compares in the normalised form and ignores single characters and multi-word terms', () => {
    const terms = new BlacklistedTerms(['Ｏkonkwo', 'x', 'mr okonkwo']);
    expect(terms.has('OKONKWO')).toBe(true);
    expect(terms.has('x')).toBe(false);
    expect(terms.size).toBe(1);
  });

  it('matches tokens of tokenizers that strip accents or decompose Hangul, which other tokenizers hold', () => {
    const terms = new BlacklistedTerms(['José', '김민서']);
    expect(terms.has('jose')).toBe(true);
    expect(terms.has('JOSÉ')).toBe(true);
    expect(terms.has('김민서'.normalize('NFD'))).toBe(true);
    expect(terms.has('김민수')).toBe(false);
  });

  it('reads a token as the text it spells: ## pieces without the prefix, BPE pieces decoded without the space', () => {
    expect(tokenSurface('wordpiece', '##konkwo')).toBe('konkwo');
    expect(tokenSurface('bpe', 'ĠOkonkwo')).toBe('Okonkwo');
  });
});

describe('touchesProtected', () => {
  it('says what a scan of every span says: whether the pre-token\'s characters overlap one (property)', () => {
    const rng = new Rng(3);
    for (let run = 0; run < 2000; run++) {
      const protect = Array.from({ length: rng.int(12) }, () => {
        const start = rng.int(60);
        return { start, end: start + 1 + rng.int(8) };
      });
      const starts = Array.from({ length: 1 + rng.int(6) }, () => rng.int(70));
      const ends = starts.map((p) => p + 1);
      const scan = protect.some((p) => p.start < Math.max(...ends) && p.end > Math.min(...starts));
      expect(touchesProtected(protect)(starts, ends), JSON.stringify({ protect, starts })).toBe(scan);
    }
  });
});

describe('training with a blacklist', () => {
  it('WordPiece learns no token, ## pieces included, that is a blacklisted word or number', async () => {
    const plain = await trainWordPiece(TEXTS, { vocabSize: 200, minFrequency: 2 });
    expect(blacklistedTokens(plain, BLACKLIST).length).toBeGreaterThanOrEqual(3);
    const clean = await trainWordPiece(TEXTS, { vocabSize: 200, minFrequency: 2, blacklisted: BLACKLIST });
    expect(blacklistedTokens(clean, BLACKLIST)).toEqual([]);
    // The words are still spelled, from smaller pieces, and the budget goes to other merges.
    expect(clean.decode(clean.tokenize('Okonkwo').ids)).toBe('okonkwo');
    expect(clean.idOf('patient')).toBeDefined();
  });

  it('BPE learns no blacklisted token, with or without its leading space, and still encodes the text', async () => {
    const plain = await trainBpe(TEXTS, { vocabSize: 400, minFrequency: 2 });
    expect(blacklistedTokens(plain, BLACKLIST).length).toBeGreaterThanOrEqual(3);
    const clean = await trainBpe(TEXTS, { vocabSize: 400, minFrequency: 2, blacklisted: BLACKLIST });
    expect(blacklistedTokens(clean, BLACKLIST)).toEqual([]);
    expect(clean.decode(clean.tokenize(TEXTS[0]!).ids)).toBe(TEXTS[0]);
  });

  /** TEXTS with the name and the MRN protected wherever written, as a blacklist's matches protect them. */
  const protectedTexts = TEXTS.map((text) => ({ text, protect: [...text.matchAll(/Okonkwo|48213377/g)].map((m) => ({ start: m.index, end: m.index + m[0].length })) }));
  /** Tokens (without ## or the leading space) of three characters or more that lie inside the name or the MRN. */
  const pieces = (tokens: string[]) => tokens.map((t) => t.replace(/^##|^Ġ/, '').toLowerCase()).filter((t) => t.length >= 3 && ('okonkwo'.includes(t) || '48213377'.includes(t)));

  it('WordPiece learns no merge inside a protected span (not ##konkwo, which spells the name less its first letter), yet spells the words', async () => {
    const equalOnly = await trainWordPiece(TEXTS, { vocabSize: 200, minFrequency: 2, blacklisted: BLACKLIST });
    const vocab = (t: typeof equalOnly) => Array.from({ length: t.vocabSize }, (_, id) => t.tokenOf(id));
    expect(pieces(vocab(equalOnly))).toContain('konkwo');
    const clean = await trainWordPiece(protectedTexts, { vocabSize: 200, minFrequency: 2, blacklisted: BLACKLIST });
    expect(pieces(vocab(clean))).toEqual([]);
    expect(clean.decode(clean.tokenize('Okonkwo 48213377').ids)).toBe('okonkwo 48213377');
    expect(clean.idOf('patient')).toBeDefined();
  });

  it('BPE learns no merge inside a protected span and still encodes the text', async () => {
    const clean = await trainBpe(protectedTexts, { vocabSize: 400, minFrequency: 2 });
    expect(pieces(Array.from({ length: clean.vocabSize }, (_, id) => clean.tokenOf(id)))).toEqual([]);
    expect(clean.decode(clean.tokenize(TEXTS[0]!).ids)).toBe(TEXTS[0]);
    // Plain strings and texts with nothing protected train the same vocabulary.
    const [a, b] = [await trainBpe(TEXTS, { vocabSize: 400, minFrequency: 2 }), await trainBpe(TEXTS.map((text) => ({ text, protect: [] })), { vocabSize: 400, minFrequency: 2 })];
    expect(Array.from({ length: b.vocabSize }, (_, id) => b.tokenOf(id))).toEqual(Array.from({ length: a.vocabSize }, (_, id) => a.tokenOf(id)));
  });
});
