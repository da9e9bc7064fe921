import { describe, expect, it } from 'vitest';
import { BlacklistedTerms, blacklistedTokens, tokenSurface, trainBpe, trainWordPiece } from '../../src/tokenizer/index.js';

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
});
