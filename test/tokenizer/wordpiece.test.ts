import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { codePointOffsets, WordPieceTokenizer, DEFAULT_WORDPIECE_OPTIONS, encodeWindows, fromTokenizerJson, loadTokenizer, toTokenizerJson, trainWordPiece } from '../../src/tokenizer/index.js';
import { tempDir } from '../helpers/tmp.js';

const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'the', 'un', '##aff', '##able', 'aff', 'patient', '##s', ',', '.', 'é', 'cafe', 'caf', '##é', '홍', '##길동'];
const tok = new WordPieceTokenizer(VOCAB);

describe('WordPieceTokenizer', () => {
  it('splits greedily longest-first with ## pieces and gives offsets into the original text', () => {
    const text = 'The  UNAFFABLE patients.';
    const enc = tok.tokenize(text);
    expect(enc.ids.map((id) => tok.tokenOf(id))).toEqual(['the', 'un', '##aff', '##able', 'patient', '##s', '.']);
    expect(enc.offsets.map(([s, e]) => text.slice(s, e))).toEqual(['The', 'UN', 'AFF', 'ABLE', 'patient', 's', '.']);
  });

  it('maps a word it cannot cover to [UNK] and keeps Hangul intact (no accent stripping)', () => {
    expect(tok.tokenize('xyz 홍길동').ids.map((id) => tok.tokenOf(id))).toEqual(['[UNK]', '홍', '##길동']);
  });

  it('keeps symbols such as ㈜ and × inside words, splits punctuation, and drops U+FEFF, ZWJ and private-use characters', () => {
    const vocab = new WordPieceTokenizer([...VOCAB, '㈜', '##d', 'x', '##×', '##y', '!']);
    const tokens = (text: string) => vocab.tokenize(text).ids.map((id) => vocab.tokenOf(id));
    expect(tokens('㈜D x×y!')).toEqual(['㈜', '##d', 'x', '##×', '##y', '!']);
    expect(tokens('pa\uFEFFtient\u200Ds \uE000the')).toEqual(['patient', '##s', 'the']);
  });

  it('gives spans that cover only the characters a piece came from, not a dropped control character', () => {
    const text = 'un\u0001affable';
    expect(tok.tokenize(text).offsets).toEqual([[0, 2], [3, 6], [6, 10]]);
  });

  it('matches special tokens written in the text and converts offsets to code points', () => {
    const text = '😀 the [MASK]';
    const enc = tok.tokenize(text);
    expect(enc.ids).toEqual([1, 5, 4]);
    expect(enc.offsets).toEqual([[0, 2], [3, 6], [7, 13]]);
    expect(codePointOffsets(text, enc.offsets)).toEqual([[0, 1], [2, 5], [6, 12]]);
  });

  it('strips accents like uncased BERT when asked, with offsets on the accented text', () => {
    const stripping = new WordPieceTokenizer(VOCAB, { ...DEFAULT_WORDPIECE_OPTIONS, stripAccents: true });
    const enc = stripping.tokenize('Café');
    expect(enc.ids.map((id) => stripping.tokenOf(id))).toEqual(['cafe']);
    expect(enc.offsets).toEqual([[0, 4]]);
  });

  it('decodes back to readable text', () => {
    expect(tok.decode(tok.tokenize('the unaffable patients.').ids)).toBe('the unaffable patients.');
  });

  it('covers a long document with overlapping [CLS] ... [SEP] windows', () => {
    const text = Array.from({ length: 10 }, () => 'the patient').join(' ');
    const windows = encodeWindows(tok, text, { maxLength: 8, stride: 2 });
    for (const w of windows) {
      expect(w.ids[0]).toBe(2);
      expect(w.ids.at(-1)).toBe(3);
      expect(w.ids.length).toBeLessThanOrEqual(8);
    }
    const inner = windows.map((w) => w.offsets.slice(1, -1));
    expect(inner[1]![0]).toEqual(inner[0]!.at(-2));
    expect(inner.flat().at(-1)![1]).toBe(text.length);
  });
});

describe('tokenizer.json', () => {
  it('round-trips through the Hugging Face format and vocab.txt', async () => {
    const json = toTokenizerJson(tok);
    expect(json.model.type).toBe('WordPiece');
    expect(json.normalizer).toMatchObject({ type: 'BertNormalizer', lowercase: true, strip_accents: false });
    const back = fromTokenizerJson(JSON.parse(JSON.stringify(json)), 'tokenizer.json');
    expect(back.tokenize('The unaffable').ids).toEqual(tok.tokenize('The unaffable').ids);
    const dir = await tempDir();
    await writeFile(join(dir, 'vocab.txt'), `${VOCAB.join('\n')}\n`);
    expect((await loadTokenizer(dir)).vocabSize).toBe(VOCAB.length);
  });

  it('names what is unsupported or corrupt', async () => {
    expect(() => fromTokenizerJson({ ...toTokenizerJson(tok), model: { type: 'Unigram', vocab: [] } }, 't.json')).toThrow(/tokenizer model "Unigram" is not supported yet/);
    const dir = await tempDir();
    await expect(loadTokenizer(dir)).rejects.toThrow(/has neither tokenizer\.json nor vocab\.txt/);
    await writeFile(join(dir, 'tokenizer.json'), '{"model":');
    await expect(loadTokenizer(dir)).rejects.toMatchObject({ message: expect.stringMatching(/^not valid JSON/), file: join(dir, 'tokenizer.json') });
  });
});

describe('trainWordPiece', () => {
  it('learns frequent words as whole tokens and reaches at most the requested size', async () => {
    const texts = Array.from({ length: 50 }, (_, i) => `the patient was seen ${i % 2 ? 'today' : 'yesterday'} and discharged`);
    const trained = await trainWordPiece(texts, { vocabSize: 60 });
    expect(trained.vocabSize).toBeLessThanOrEqual(60);
    expect(trained.idOf('patient')).toBeDefined();
    expect(trained.tokenize('the patient').ids.map((id) => trained.tokenOf(id))).toEqual(['the', 'patient']);
    expect(trained.vocab.slice(0, 5)).toEqual(['[UNK]', '[CLS]', '[SEP]', '[PAD]', '[MASK]']);
  });

  it('is deterministic', async () => {
    const texts = ['a b c ab abc bc', 'ab ab abc', 'c cb ba'];
    expect((await trainWordPiece(texts, { vocabSize: 30, minFrequency: 1 })).vocab).toEqual((await trainWordPiece(texts, { vocabSize: 30, minFrequency: 1 })).vocab);
  });
});
