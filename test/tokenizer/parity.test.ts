/**
 * Parity with Hugging Face `tokenizers` (the Rust library, npm package): the same tokenizer.json must give
 * the same ids, and the same offsets once ppmlm's UTF-16 offsets are converted to code points.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/index.js';
import { bpeToTokenizerJson, codePointOffsets, loadTokenizer, toTokenizerJson, trainBpe, trainWordPiece, type Tokenizer } from '../../src/tokenizer/index.js';
import { BYTE_LEVEL_SPLIT } from '../../src/tokenizer/byteLevel.js';
import { normalize, unnormalized, type NormalizerConfig } from '../../src/tokenizer/normalizer.js';
import { preTokenize } from '../../src/tokenizer/preTokenizer.js';
import { tempDir } from '../helpers/tmp.js';
import { ConfigError } from '../../src/errors.js';

const hf = createRequire(import.meta.url)('tokenizers') as typeof import('tokenizers');
type HfTokenizer = import('tokenizers').Tokenizer;

const ROOT = new URL('../../', import.meta.url).pathname;

/** Texts of the repository's example corpora (English clinical notes, Korean judgments). */
async function corpusTexts(): Promise<string[]> {
  const out: string[] = [];
  for (const file of ['examples/clinical-en/notes.csv', 'examples/legal-ko/judgments.csv', 'test/fixtures/corpus/notes.jsonl']) {
    for (const doc of await loadCorpus(join(ROOT, file))) out.push(doc.text);
  }
  return out;
}

/** A seeded generator (mulberry32), so a failure names a text that can be reproduced. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The kinds of text where the two implementations could part: symbols BERT keeps inside words, emoji and
// ZWJ sequences, BOMs inside words, control and private-use characters, combining marks, astral
// characters, exotic whitespace, long words, special and added tokens written in the text.
const PIECES = [
  '㈜D으로부터', '○피고인', '◎', '㎡당', '～', '3×4', '피고인은', '서울', '2019.', '9.', '(남,', '58세)', '😀', '👩‍⚕️', '👍🏽', '🇰🇷', '👨‍👩‍👧',
  'pa\uFEFFtient', '\uFEFF', 'ab\u0001cd', '\u0085', '\u000b', '\u200b', '\u200d', 'x\uE000y', '\u{F0000}', 'e\u0301', 'Cafe\u0301', 'naïve', 'İstanbul',
  'ΣΑΣ', 'ǅ', 'ﬁne', '𠀀字', '漢字', '\u{2B920}', '𝐀𝐁', ' ', '\t', '\n', '\u00a0', '\u3000', '\u2028', 'x'.repeat(120), '가'.repeat(101),
  '<mask>', ' <mask>', '[MASK]', '[PHONE]', '[phone]', '$+^`', '...', '—', '«»', '¿', 'ℌ', '١٢٣', 'नमस्ते', 'ภาษาไทย', "don't", "it's", 'Dr.', 'MRN', '4649695',
];

function adversarialTexts(n: number, seed: number): string[] {
  const next = rng(seed);
  return Array.from({ length: n }, () => {
    let text = '';
    const pieces = 1 + Math.floor(next() * 12);
    for (let k = 0; k < pieces; k++) text += PIECES[Math.floor(next() * PIECES.length)]! + (next() < 0.6 ? ' ' : '');
    return text;
  });
}

/** Differences between ppmlm and Hugging Face on these texts, described (empty when they agree). */
async function differences(ours: Tokenizer, theirs: HfTokenizer, texts: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const text of texts) {
    const enc = ours.tokenize(text);
    const ref = await theirs.encode(text, null, { addSpecialTokens: false });
    const offsets = codePointOffsets(text, enc.offsets);
    if (JSON.stringify(enc.ids) !== JSON.stringify(ref.getIds())) out.push(`ids of ${JSON.stringify(text)}: ${JSON.stringify(enc.ids)} vs ${JSON.stringify(ref.getIds())}`);
    else if (JSON.stringify(offsets) !== JSON.stringify(ref.getOffsets())) out.push(`offsets of ${JSON.stringify(text)}: ${JSON.stringify(offsets)} vs ${JSON.stringify(ref.getOffsets())}`);
  }
  return out;
}

async function saved(json: unknown): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(json));
  return dir;
}

describe('parity with Hugging Face tokenizers', async () => {
  const corpus = await corpusTexts();
  const adversarial = adversarialTexts(3000, 20);
  const training = [...corpus, ...adversarialTexts(500, 7)];

  /** Code points in batches (planes 4-13 are unassigned; lone surrogates are not text). */
  function* batches(size: number): Generator<string[]> {
    let batch: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if ((cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x40000 && cp < 0xe0000)) continue;
      batch.push(String.fromCodePoint(cp));
      if (batch.length === size) yield batch.splice(0);
    }
    yield batch;
  }

  /** The code points of the batches on which two splitters disagree. */
  function disagreements(ours: (text: string) => string[], theirs: (text: string) => string[], context: (c: string) => string, join: string): string[] {
    const wrong: string[] = [];
    const same = (text: string) => JSON.stringify(ours(text)) === JSON.stringify(theirs(text));
    for (const batch of batches(4096)) {
      if (same(batch.map(context).join(join))) continue;
      for (const c of batch) if (!same(context(c))) wrong.push(`U+${c.codePointAt(0)!.toString(16)}: ${JSON.stringify(ours(context(c)))} vs ${JSON.stringify(theirs(context(c)))}`);
    }
    return wrong;
  }

  it('every code point is dropped, split or kept inside a word as BERT\'s normaliser and pre-tokenizer do', () => {
    for (const [lowercase, stripAccents] of [[false, false], [true, true]] as const) {
      const config: NormalizerConfig = { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: stripAccents, lowercase };
      const normalizer = hf.bertNormalizer({ cleanText: true, handleChineseChars: true, stripAccents, lowercase });
      const preTokenizer = hf.bertPreTokenizer();
      const wrong = disagreements(
        (text) => preTokenize({ type: 'BertPreTokenizer' }, normalize(config, unnormalized(text))).map((w) => w.text),
        (text) => preTokenizer.preTokenizeString(normalizer.normalizeString(text)).map(([w]) => w),
        (c) => `a${c}b`,
        ' ',
      );
      expect(wrong.slice(0, 20), `${wrong.length} code points differ (lowercase ${lowercase})`).toEqual([]);
    }
  });

  it('every code point is split as the byte-level (GPT-2) pre-tokenizer splits it', () => {
    const preTokenizer = hf.byteLevelPreTokenizer(false, true);
    const wrong = disagreements(
      // Pieces by their length in bytes (the byte-level alphabet has one character per byte).
      (text) => [...text.matchAll(BYTE_LEVEL_SPLIT)].map((m) => String(Buffer.byteLength(m[0]))),
      (text) => preTokenizer.preTokenizeString(text).map(([w]) => String([...w].length)),
      (c) => `a${c}1${c} `,
      '',
    );
    expect(wrong.slice(0, 20), `${wrong.length} code points differ`).toEqual([]);
  });

  it('a ppmlm WordPiece tokenizer gives Hugging Face\'s ids and offsets on the corpora and on adversarial text', async () => {
    const tok = await trainWordPiece(training, { vocabSize: 3000, minFrequency: 2 });
    const dir = await saved(toTokenizerJson(tok));
    const theirs = hf.Tokenizer.fromFile(join(dir, 'tokenizer.json'));
    const ours = await loadTokenizer(dir);
    const diffs = await differences(tok, theirs, [...corpus, ...adversarial]);
    expect(diffs.slice(0, 10), `${diffs.length} texts differ`).toEqual([]);
    expect(ours.tokenize(corpus.join(' ')).ids).toEqual(tok.tokenize(corpus.join(' ')).ids);
  });

  it('a ppmlm byte-level BPE tokenizer gives Hugging Face\'s ids and offsets, <mask> taking the space before it', async () => {
    const tok = await trainBpe(training, { vocabSize: 3000, minFrequency: 2 });
    const dir = await saved(bpeToTokenizerJson(tok));
    const theirs = hf.Tokenizer.fromFile(join(dir, 'tokenizer.json'));
    const diffs = await differences(tok, theirs, [...corpus, ...adversarial]);
    expect(diffs.slice(0, 10), `${diffs.length} texts differ`).toEqual([]);
    const text = 'Seen by <mask> today';
    const enc = tok.tokenize(text);
    const at = enc.ids.indexOf(tok.idOf('<mask>')!);
    expect(enc.offsets[at]).toEqual([8, 14]);
    expect(tok.tokenOf(enc.ids[at - 1]!)).not.toBe('Ġ');
  });

  /** A model vocabulary without the special tokens (Hugging Face then lists them only in added_tokens). */
  const withoutSpecials = (tok: Tokenizer & { vocab: readonly string[] }, keep: string[]) => Object.fromEntries(tok.vocab.filter((t) => !tok.specialIds.has(tok.idOf(t)!) || keep.includes(t)).map((t, i) => [t, i]));

  it('reads a WordPiece tokenizer.json written by Hugging Face: Sequence normaliser and pre-tokenizer, special tokens only in added_tokens, [PHONE] outside the vocabulary', async () => {
    const trained = await trainWordPiece(training, { vocabSize: 2000, minFrequency: 2 });
    const built = new hf.Tokenizer(hf.WordPiece.init(withoutSpecials(trained, ['[UNK]']), { unkToken: '[UNK]' }));
    built.setNormalizer(hf.sequenceNormalizer([hf.nfdNormalizer(), hf.lowercase(), hf.stripAccentsNormalizer()]));
    built.setPreTokenizer(hf.sequencePreTokenizer([hf.whitespaceSplitPreTokenizer(), hf.punctuationPreTokenizer()]));
    built.addSpecialTokens(['[CLS]', '[SEP]', '[PAD]', '[MASK]']);
    built.addTokens(['[PHONE]']);
    const dir = await tempDir();
    built.save(join(dir, 'tokenizer.json'));
    const ours = await loadTokenizer(dir);
    const diffs = await differences(ours, built, [...corpus, ...adversarial]);
    expect(diffs.slice(0, 10), `${diffs.length} texts differ`).toEqual([]);
    const phone = ours.tokenize('Call [PHONE] now');
    expect(phone.ids).toContain(ours.idOf('[PHONE]'));
    expect(ours.idOf('[PHONE]')).toBe(ours.vocabSize - 1);
    expect(ours.specialIds.has(ours.idOf('[MASK]')!)).toBe(true);
  });

  it('applies the other supported components as Hugging Face does: NFC/NFKC/NFKD, Strip, Whitespace, Punctuation behaviours, no pre-tokenizer, single_word and rstrip', async () => {
    const trained = await trainWordPiece(training, { vocabSize: 2000, minFrequency: 2 });
    const configs: ((t: HfTokenizer) => void)[] = [
      (t) => {
        t.setNormalizer(hf.sequenceNormalizer([hf.nfkcNormalizer(), hf.stripNormalizer(true, true), hf.lowercase()]));
        t.setPreTokenizer(hf.whitespacePreTokenizer());
      },
      (t) => {
        t.setNormalizer(hf.sequenceNormalizer([hf.nfcNormalizer(), hf.lowercase()]));
        t.setPreTokenizer(hf.sequencePreTokenizer([hf.whitespaceSplitPreTokenizer(), hf.punctuationPreTokenizer('contiguous')]));
      },
      (t) => {
        t.setNormalizer(hf.sequenceNormalizer([hf.nfkdNormalizer(), hf.lowercase()]));
        t.setPreTokenizer(hf.sequencePreTokenizer([hf.whitespaceSplitPreTokenizer(), hf.punctuationPreTokenizer('mergedWithPrevious'), hf.punctuationPreTokenizer('mergedWithNext')]));
      },
      (t) => {
        t.setNormalizer(hf.bertNormalizer({ cleanText: true, handleChineseChars: false, stripAccents: true, lowercase: true }));
        t.setPreTokenizer(hf.sequencePreTokenizer([hf.whitespaceSplitPreTokenizer(), hf.punctuationPreTokenizer('removed')]));
      },
      (t) => t.setNormalizer(hf.lowercase()),
    ];
    for (const [n, configure] of configs.entries()) {
      const built = new hf.Tokenizer(hf.WordPiece.init(withoutSpecials(trained, ['[UNK]']), { unkToken: '[UNK]' }));
      configure(built);
      built.addSpecialTokens(['[CLS]', '[SEP]', '[PAD]', '[MASK]']);
      built.addAddedTokens([new hf.AddedToken('[PHONE]', false, { singleWord: true, rightStrip: true }), new hf.AddedToken('MRN', false, { leftStrip: true, normalized: false })]);
      const dir = await tempDir();
      built.save(join(dir, 'tokenizer.json'));
      const diffs = await differences(await loadTokenizer(dir), built, [...corpus.slice(0, 200), ...adversarial.slice(0, 1000)]);
      expect(diffs.slice(0, 10), `configuration ${n}: ${diffs.length} texts differ`).toEqual([]);
    }
  });

  it('reads a byte-level BPE tokenizer.json written by Hugging Face with a prefix space and special tokens only in added_tokens', async () => {
    const trained = await trainBpe(training, { vocabSize: 1500, minFrequency: 2 });
    const built = new hf.Tokenizer(hf.BPE.init(withoutSpecials(trained, []), trained.merges.map(([a, b]) => [a, b])));
    built.setPreTokenizer(hf.byteLevelPreTokenizer(true, true));
    built.setPostProcessor(hf.robertaProcessing(['</s>', 0], ['<s>', 0], true, true));
    built.addAddedTokens(['<s>', '<pad>', '</s>', '<unk>'].map((t) => new hf.AddedToken(t, true)));
    built.addAddedTokens([new hf.AddedToken('<mask>', true, { leftStrip: true })]);
    const dir = await tempDir();
    built.save(join(dir, 'tokenizer.json'));
    const ours = await loadTokenizer(dir);
    const diffs = await differences(ours, built, [...corpus, ...adversarial]);
    expect(diffs.slice(0, 10), `${diffs.length} texts differ`).toEqual([]);
  });

  it('refuses, naming the component, what it cannot apply as Hugging Face does', async () => {
    const cases: [(t: HfTokenizer) => void, string][] = [
      [(t) => t.setPreTokenizer(hf.metaspacePreTokenizer()), 'pre_tokenizer "Metaspace" is not supported with WordPiece'],
      [(t) => t.setNormalizer(hf.sequenceNormalizer([hf.nfkcNormalizer(), hf.replace('a', 'b')])), 'normalizer.normalizers[1] "Replace" is not supported'],
      [(t) => t.setPreTokenizer(hf.sequencePreTokenizer([hf.whitespaceSplitPreTokenizer(), hf.digitsPreTokenizer(true)])), 'pre_tokenizer.pretokenizers[1] "Digits" is not supported with WordPiece'],
    ];
    for (const [configure, message] of cases) {
      const built = new hf.Tokenizer(hf.WordPiece.init({ '[UNK]': 0, '[CLS]': 1, '[SEP]': 2, '[PAD]': 3, '[MASK]': 4, a: 5 }, { unkToken: '[UNK]' }));
      configure(built);
      const dir = await tempDir();
      built.save(join(dir, 'tokenizer.json'));
      await expect(loadTokenizer(dir)).rejects.toSatisfy((err: ConfigError) => err instanceof ConfigError && err.located.startsWith(`${join(dir, 'tokenizer.json')}: ${message}`) && !err.message.includes('\n'));
    }
  });
});
