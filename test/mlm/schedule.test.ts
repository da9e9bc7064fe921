import { describe, expect, it } from 'vitest';
import { maskConfigFor } from '../../src/mlm/index.js';
import { RuleAnalyzer } from '../../src/text/index.js';
import { tokenizeAtMorphemes, tokenSurface, trainBpe, trainWordPiece, WordPieceTokenizer, type Tokenizer } from '../../src/tokenizer/index.js';

// Names inside sentences, after a space and capitalised, as clinical text has them.
const TEXTS = Array.from({ length: 60 }, (_, i) => `Seen today with ${i % 2 ? 'Alice' : 'alice'} Whitfield and her brother, alice reports pain. ALICE WHITFIELD signed.`);

/** The ids of every vocabulary token that spells one of `words` in some case, with or without a BPE space. */
function spellings(tokenizer: Tokenizer, words: string[]): number[] {
  const wanted = new Set(words);
  return Array.from({ length: tokenizer.vocabSize }, (_, id) => id).filter((id) => wanted.has(tokenSurface(tokenizer.type, tokenizer.tokenOf(id)).toLowerCase()));
}

describe('the random-replacement pool', () => {
  for (const [name, train] of [
    ['byte-level BPE (RoBERTa)', () => trainBpe(TEXTS, { vocabSize: 400, minFrequency: 2 })],
    ['WordPiece (BERT)', () => trainWordPiece(TEXTS, { vocabSize: 200, minFrequency: 2 })],
  ] as const) {
    it(`never draws a token a blacklisted term becomes inside text, by default: ${name}`, async () => {
      const tokenizer = await train();
      const forms = spellings(tokenizer, ['alice', 'whitfield']);
      // The vocabulary has the words in more than one form (e.g. "alice", "Ġalice", "ĠAlice").
      expect(forms.length).toBeGreaterThan(name.startsWith('byte') ? 2 : 0);
      const pool = new Set((await maskConfigFor(tokenizer, [{ term: 'alice whitfield' }, { term: 'alice' }], { maskProb: 0.15 })).randomPool);
      expect(forms.filter((id) => pool.has(id))).toEqual([]);
      // Asked for, they may be drawn.
      const open = new Set((await maskConfigFor(tokenizer, [{ term: 'alice' }], { maskProb: 0.15, randomBlacklisted: true })).randomPool);
      expect(forms.every((id) => open.has(id))).toBe(true);
    });
  }

  it('never draws a piece a Korean term becomes when training text is cut into morphemes', async () => {
    // The rule analyser reads 김민도 as 김민 + the particle 도: cut, the term's last piece starts a word.
    const analyzer = new RuleAnalyzer();
    const tokenizer = new WordPieceTokenizer(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', '김', '민', '도', '##민', '##도', '김민']);
    const cut = await tokenizeAtMorphemes(tokenizer, '김민도', analyzer);
    expect(cut.ids.map((id) => tokenizer.tokenOf(id))).toEqual(['김민', '도']);
    const wordInitial = tokenizer.idOf('도')!;
    expect(tokenizer.tokenize('김민도').ids).not.toContain(wordInitial);
    const pool = async (morphemes?: RuleAnalyzer) => new Set((await maskConfigFor(tokenizer, [{ term: '김민도' }], { maskProb: 0.15 }, morphemes)).randomPool);
    expect((await pool()).has(wordInitial)).toBe(true);
    expect((await pool(analyzer)).has(wordInitial)).toBe(false);
  });

  it('never draws the piece with its space a Korean term becomes after a space in byte-level BPE, cut into morphemes', async () => {
    const analyzer = new RuleAnalyzer();
    // Learnt on whole words: the name alone (Ġ김민) and with its particle (Ġ김민도) are both tokens.
    const tokenizer = await trainBpe(['피해자 김민도 왔다', '피해자 김민 왔다'].flatMap((t) => Array(5).fill(t) as string[]), { vocabSize: 300, minFrequency: 1 });
    const cut = await tokenizeAtMorphemes(tokenizer, 'x 김민도', analyzer);
    const spaced = cut.ids.find((id) => tokenSurface('bpe', tokenizer.tokenOf(id)) === '김민' && tokenizer.tokenOf(id).startsWith('Ġ'));
    expect(spaced).toBeDefined();
    const pool = new Set((await maskConfigFor(tokenizer, [{ term: '김민도' }], { maskProb: 0.15 }, analyzer)).randomPool);
    expect(pool.has(spaced!)).toBe(false);
  });
});
