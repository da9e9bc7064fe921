import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/index.js';
import { RuleAnalyzer, type MorphAnalyzer } from '../../src/text/index.js';
import { bertPreTokenize, DEFAULT_WORDPIECE_OPTIONS, morphemeStarts, morphemesFor, tokenizeAtMorphemes, trainBpe, trainWordPiece } from '../../src/tokenizer/index.js';
import { byteLevelPieces } from '../../src/tokenizer/byteLevel.js';
import { unnormalized } from '../../src/tokenizer/normalizer.js';

const CORPUS = ['피고인은 피해자 홍길동에게 욕설을 하였다.', '홍길동은 식당에서 김철수와 일한다!', 'Café (U.S.) 3.5% 金哲洙'];

/** BERT's pre-tokens of a vocabulary learnt on the analyser's morphemes. */
const morphemePreTokens = async (text: string, analyzer: MorphAnalyzer) => bertPreTokenize(text, DEFAULT_WORDPIECE_OPTIONS, await morphemeStarts(text, analyzer));
/** Random text of Hangul, particles, Latin, digits, punctuation, a combining mark and whitespace. */
function randomTexts(seed: number, n: number): string[] {
  const alphabet = [...'홍길동에게은는이가를의로 서울.,!?(aZé9١\u0301金 \t\n㈜😀𠀀'];
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(rng.next() * 24) }, () => alphabet[Math.floor(rng.next() * alphabet.length)]!).join(''));
}

describe('morpheme cuts of WordPiece pre-tokens', () => {
  it('cuts BERT pre-tokens where a morpheme starts, keeping punctuation and offsets into the text', async () => {
    const analyzer = new RuleAnalyzer();
    const text = CORPUS[0]!;
    const cut = await morphemePreTokens(text, analyzer);
    expect(cut.map((p) => p.text)).toEqual(expect.arrayContaining(['홍길동', '에게', '.']));
    // Every piece spells the characters it came from (lowercased: the normaliser's).
    for (const p of cut) expect(text.slice(p.starts[0], p.ends.at(-1)).toLowerCase()).toBe(p.text);
    // Pieces only ever split BERT's, never join them.
    expect(cut.map((p) => p.text).join('')).toBe(bertPreTokenize(text, DEFAULT_WORDPIECE_OPTIONS).map((p) => p.text).join(''));
  });

  it('only ever splits BERT pre-tokens, and only where a morpheme starts, on random mixed text (property)', async () => {
    const analyzer = new RuleAnalyzer();
    for (const text of randomTexts(11, 500)) {
      const bert = bertPreTokenize(text, DEFAULT_WORDPIECE_OPTIONS);
      const cut = await morphemePreTokens(text, analyzer);
      expect(cut.map((p) => p.text).join(''), JSON.stringify(text)).toBe(bert.map((p) => p.text).join(''));
      // Every BERT pre-token starts a piece (pieces never join two), and a piece starts inside one only
      // where a morpheme starts.
      const starts = new Set(cut.map((p) => p.starts[0]));
      for (const p of bert) expect(starts.has(p.starts[0]), JSON.stringify(text)).toBe(true);
      const bertStarts = new Set(bert.map((p) => p.starts[0]));
      const morphemeStarts = new Set((await analyzer.analyze(text)).map((m) => m.start));
      for (const p of cut) if (!bertStarts.has(p.starts[0])) expect(morphemeStarts.has(p.starts[0]!), JSON.stringify(text)).toBe(true);
    }
  });

  it('leaves text without Hangul as BERT cuts it (accents stripped, Chinese characters apart)', async () => {
    const text = CORPUS[2]!;
    expect(await morphemePreTokens(text, new RuleAnalyzer())).toEqual(bertPreTokenize(text, DEFAULT_WORDPIECE_OPTIONS));
  });
});

describe('tokenizeAtMorphemes', () => {
  it('reads a corpus with the pieces a vocabulary learnt on it holds: no [UNK], a particle a word of its own', async () => {
    const analyzer = new RuleAnalyzer();
    const tokenizer = await trainWordPiece(CORPUS, { vocabSize: 200, minFrequency: 1, morphemes: analyzer });
    const unk = tokenizer.idOf('[UNK]');
    for (const text of CORPUS) expect((await tokenizeAtMorphemes(tokenizer, text, analyzer)).ids).not.toContain(unk);
    const enc = await tokenizeAtMorphemes(tokenizer, CORPUS[0]!, analyzer);
    const pieces = enc.ids.map((id) => tokenizer.tokenOf(id));
    expect(pieces).toContain('에게');
    expect(pieces).not.toContain('##에게');
    // Without an analyser, as the tokenizer reads it.
    expect(await tokenizeAtMorphemes(tokenizer, CORPUS[0]!)).toEqual(tokenizer.tokenize(CORPUS[0]!));
  });

  it('matches special tokens written in the text before cutting, as the tokenizer does', async () => {
    const analyzer = new RuleAnalyzer();
    const tokenizer = await trainWordPiece(CORPUS, { vocabSize: 200, minFrequency: 1, morphemes: analyzer });
    const text = '피해자 홍길동에게 [MASK] 하였다';
    const enc = await tokenizeAtMorphemes(tokenizer, text, analyzer);
    expect(enc.ids).toContain(tokenizer.idOf('[MASK]'));
    expect(enc.ids.map((id) => tokenizer.tokenOf(id))).toContain('에게');
  });

  it('cuts byte-level BPE learnt on morphemes as it was learnt: no token spans two, a leading space stays with its word', async () => {
    const analyzer = new RuleAnalyzer();
    const bpe = await trainBpe(CORPUS, { vocabSize: 400, minFrequency: 1, morphemes: analyzer });
    const text = CORPUS[0]!;
    const enc = await tokenizeAtMorphemes(bpe, text, analyzer);
    expect(enc.ids).not.toContain(bpe.idOf('<unk>'));
    expect(bpe.decode(enc.ids)).toBe(text);
    const starts = (await morphemeStarts(text, analyzer))!;
    const spansTwo = (offsets: readonly [number, number][]) => offsets.some(([start, end]) => [...starts].some((k) => start < k && k < end));
    expect(spansTwo(enc.offsets)).toBe(false);
    // A vocabulary learnt on whole words holds tokens across morphemes (Ġ홍길동에게); cut, none is used.
    const whole = await trainBpe(CORPUS, { vocabSize: 400, minFrequency: 1 });
    expect(spansTwo(whole.tokenize(text).offsets)).toBe(true);
    expect(spansTwo((await tokenizeAtMorphemes(whole, text, analyzer)).offsets)).toBe(false);
    const pieces = enc.ids.map((id) => bpe.tokenOf(id));
    // 홍길동에게: the name with its space, then the particle, each learnt whole.
    expect(pieces).toEqual(expect.arrayContaining(['ĠíĻįê¸¸ëıĻ', 'ìĹĲê²Į']));
    // Text without Hangul, or no analyser: as the tokenizer reads it.
    expect(await tokenizeAtMorphemes(bpe, CORPUS[2]!, analyzer)).toEqual(bpe.tokenize(CORPUS[2]!));
    expect(await tokenizeAtMorphemes(bpe, text)).toEqual(bpe.tokenize(text));
  });

  it('only ever splits byte-level pieces, where a morpheme starts and never after their leading whitespace alone (property)', async () => {
    const analyzer = new RuleAnalyzer();
    for (const text of randomTexts(12, 500)) {
      const whole = byteLevelPieces(unnormalized(text), false);
      const starts = (await morphemeStarts(text, analyzer)) ?? new Set<number>();
      const cut = byteLevelPieces(unnormalized(text), false, starts);
      expect(cut.map((p) => p.text).join(''), JSON.stringify(text)).toBe(whole.map((p) => p.text).join(''));
      const wholeStarts = new Set(whole.map((p) => p.charStart[0]));
      for (const p of whole) expect(cut.some((c) => c.charStart[0] === p.charStart[0]), JSON.stringify(text)).toBe(true);
      for (const p of cut) {
        if (!wholeStarts.has(p.charStart[0])) expect(starts.has(p.charStart[0]!), JSON.stringify(text)).toBe(true);
        // A piece holds a word's character unless the piece it came from was whitespace only.
        const source = text.slice(p.charStart[0], p.charEnd.at(-1));
        if (/^\s+$/.test(source)) expect(whole.some((w) => w.charStart[0] === p.charStart[0] && w.text === p.text), JSON.stringify(text)).toBe(true);
      }
    }
  });
});

describe('morphemesFor', () => {
  const named = (name: string): MorphAnalyzer => ({ name, analyze: async () => [], close: async () => {} });
  const korean = ['피해자 홍길동에게'];

  it('cuts nothing for a vocabulary learnt otherwise, or text without Hangul', () => {
    expect(morphemesFor(undefined, named('mecab'), korean)).toEqual({});
    expect(morphemesFor('mecab', undefined, ['Alice saw Bob'])).toEqual({});
  });

  it("cuts with the run's analyser when it is the vocabulary's, and with a rule analyser of its own otherwise", () => {
    const mecab = named('mecab');
    expect(morphemesFor('mecab', mecab, korean)).toEqual({ morphemes: mecab });
    for (const run of [mecab, undefined]) {
      const { morphemes, warning } = morphemesFor('rule', run, korean);
      expect(morphemes).toBeInstanceOf(RuleAnalyzer);
      expect(warning).toBeUndefined();
    }
  });

  it('says when a mecab vocabulary cannot be read as it was learnt', () => {
    const rule = named('rule');
    expect(morphemesFor('mecab', rule, korean)).toEqual({ morphemes: rule, warning: expect.stringContaining('learnt on mecab morphemes but the rule analyser cuts the text here') });
    expect(morphemesFor('mecab', undefined, korean)).toEqual({ warning: expect.stringContaining('no Korean analyser reads the text here (as with --lang en)') });
  });
});
