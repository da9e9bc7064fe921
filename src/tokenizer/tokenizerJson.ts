import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, FormatError } from '../errors.js';
import { decodeUtf8Strict, isJsonObject, jsonErrorPosition } from '../io/index.js';
import { BpeTokenizer } from './bpe.js';
import { DEFAULT_WORDPIECE_OPTIONS, WordPieceTokenizer } from './wordpiece.js';
import type { Tokenizer } from './types.js';

/** The parts of Hugging Face's tokenizer.json that ppmlm reads and writes. */
export interface TokenizerJson {
  version: '1.0';
  truncation: null;
  padding: null;
  added_tokens: { id: number; content: string; single_word: boolean; lstrip: boolean; rstrip: boolean; normalized: boolean; special: boolean }[];
  normalizer: { type: 'BertNormalizer'; clean_text: boolean; handle_chinese_chars: boolean; strip_accents: boolean | null; lowercase: boolean } | null;
  pre_tokenizer: { type: string } | null;
  post_processor: unknown;
  decoder: unknown;
  model: { type: string; unk_token?: string; continuing_subword_prefix?: string; max_input_chars_per_word?: number; vocab: Record<string, number> | unknown };
}

/** tokenizer.json for a WordPiece tokenizer, loadable by Hugging Face `tokenizers` / `transformers`. */
export function toTokenizerJson(tok: WordPieceTokenizer): TokenizerJson {
  const id = (t: string) => tok.idOf(t)!;
  const s = tok.specials;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [s.pad, s.unk, s.cls, s.sep, s.mask].map((content) => ({ id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: tok.options.handleChineseChars, strip_accents: tok.options.stripAccents, lowercase: tok.options.lowercase },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: s.cls, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: s.sep, type_id: 0 } }],
      pair: [
        { SpecialToken: { id: s.cls, type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: s.sep, type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: s.sep, type_id: 1 } },
      ],
      special_tokens: Object.fromEntries([s.cls, s.sep].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: tok.options.continuingPrefix, cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: s.unk,
      continuing_subword_prefix: tok.options.continuingPrefix,
      max_input_chars_per_word: tok.options.maxInputCharsPerWord,
      vocab: Object.fromEntries(tok.vocab.map((t, i) => [t, i])),
    },
  };
}

/** tokenizer.json for a byte-level BPE tokenizer (RoBERTa's layout). */
export function bpeToTokenizerJson(tok: BpeTokenizer): TokenizerJson {
  const s = tok.specials;
  const id = (t: string) => tok.idOf(t)!;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [s.cls, s.pad, s.sep, s.unk, s.mask].map((content) => ({ id: id(content), content, single_word: false, lstrip: content === s.mask, rstrip: false, normalized: false, special: true })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: tok.options.addPrefixSpace, trim_offsets: true, use_regex: true } as TokenizerJson['pre_tokenizer'],
    post_processor: { type: 'RobertaProcessing', sep: [s.sep, id(s.sep)], cls: [s.cls, id(s.cls)], trim_offsets: true, add_prefix_space: tok.options.addPrefixSpace },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, vocab: Object.fromEntries(tok.vocab.map((t, i) => [t, i])), merges: tok.merges.map(([a, b]) => `${a} ${b}`) } as unknown as TokenizerJson['model'],
  };
}

/**
 * The vocabulary as an array by id. Ids must be exactly 0..n-1: checked before anything is indexed by id,
 * so a corrupt id (1e9) is an error at once rather than a billion-slot sparse array.
 */
function vocabArray(vocabMap: unknown, file: string): string[] {
  if (!isJsonObject(vocabMap)) throw new FormatError('"model.vocab" must be an object mapping tokens to ids', { file });
  const entries = Object.entries(vocabMap);
  const vocab = new Array<string | undefined>(entries.length).fill(undefined);
  for (const [n, [token, id]] of entries.entries()) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= entries.length) {
      // The token is not shown: a vocabulary trained on private text may hold identifiers.
      throw new FormatError(`"model.vocab" entry ${n + 1} has the id ${JSON.stringify(id)}; ids must be the integers 0..${entries.length - 1}`, { file });
    }
    if (vocab[id] !== undefined) throw new FormatError(`"model.vocab" gives the id ${id} twice; ids must be 0..n-1 without gaps`, { file });
    vocab[id] = token;
  }
  return vocab as string[];
}

/** BPE merges as pairs: `"a b"` strings (tokenizers before 0.20) or `["a", "b"]` arrays. */
function mergePairs(merges: unknown, file: string): [string, string][] {
  if (!Array.isArray(merges)) throw new FormatError('"model.merges" must be an array; a BPE tokenizer needs its merges', { file });
  return merges.map((m, i) => {
    const pair = typeof m === 'string' ? m.split(' ') : m;
    if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((t) => typeof t === 'string' && t !== '')) {
      throw new FormatError(`"model.merges"[${i}] must be "a b" or ["a", "b"]`, { file });
    }
    return pair as [string, string];
  });
}

/** Builds a tokenizer from tokenizer.json; malformed fields and unsupported models and normalisers are named in the error. */
export function fromTokenizerJson(raw: unknown, file: string): Tokenizer {
  if (!isJsonObject(raw)) throw new FormatError('tokenizer.json must be a JSON object', { file });
  if (!isJsonObject(raw.model) || typeof raw.model.type !== 'string') throw new FormatError('"model" must be an object with a "type" (WordPiece, BPE)', { file });
  if (raw.normalizer !== undefined && raw.normalizer !== null && !isJsonObject(raw.normalizer)) throw new FormatError('"normalizer" must be an object or null', { file });
  if (raw.pre_tokenizer !== undefined && raw.pre_tokenizer !== null && !isJsonObject(raw.pre_tokenizer)) throw new FormatError('"pre_tokenizer" must be an object or null', { file });
  const json = raw as unknown as TokenizerJson;
  if (json.model.type === 'BPE') {
    const model = json.model as unknown as { vocab: unknown; merges: unknown };
    if (json.pre_tokenizer?.type !== 'ByteLevel') throw new ConfigError(`BPE with pre-tokenizer "${json.pre_tokenizer?.type}" is not supported (byte-level BPE is)`, { file });
    const vocab = vocabArray(model.vocab, file);
    const merges = mergePairs(model.merges, file);
    const has = (t: string) => vocab.includes(t);
    const specials = has('<s>') ? { unk: '<unk>', cls: '<s>', sep: '</s>', pad: '<pad>', mask: '<mask>' } : undefined;
    if (!specials) throw new ConfigError('byte-level BPE without the RoBERTa special tokens (<s>, </s>, <pad>, <unk>, <mask>) is not supported', { file });
    return inFile(file, () => new BpeTokenizer(vocab, merges, { addPrefixSpace: (json.pre_tokenizer as { add_prefix_space?: boolean }).add_prefix_space ?? false, specials }));
  }
  if (json.model.type !== 'WordPiece') throw new ConfigError(`tokenizer model "${json.model.type}" is not supported yet (WordPiece and byte-level BPE are); convert the tokenizer or train one with "ppmlm tokenizer train"`, { file });
  const vocab = vocabArray(json.model.vocab, file);
  const m = json.model as Record<string, unknown>;
  for (const key of ['unk_token', 'continuing_subword_prefix'] as const) {
    if (m[key] !== undefined && typeof m[key] !== 'string') throw new FormatError(`"model.${key}" must be a string`, { file });
  }
  const maxChars = m.max_input_chars_per_word;
  if (maxChars !== undefined && (typeof maxChars !== 'number' || !Number.isInteger(maxChars) || maxChars < 1)) throw new FormatError('"model.max_input_chars_per_word" must be a positive integer', { file });
  const n = json.normalizer;
  if (n !== null && n !== undefined && n.type !== 'BertNormalizer') throw new ConfigError(`normalizer "${n.type}" is not supported (BertNormalizer is)`, { file });
  const lowercase = n?.lowercase ?? false;
  const specials = { ...DEFAULT_WORDPIECE_OPTIONS.specials, unk: json.model.unk_token ?? '[UNK]' };
  return inFile(file, () => new WordPieceTokenizer(vocab, {
    lowercase,
    // Hugging Face: strip_accents null means "follow lowercase".
    stripAccents: n?.strip_accents ?? lowercase,
    handleChineseChars: n?.handle_chinese_chars ?? true,
    continuingPrefix: json.model.continuing_subword_prefix ?? '##',
    maxInputCharsPerWord: json.model.max_input_chars_per_word ?? 100,
    specials,
  }));
}

/** Runs a tokenizer constructor, whose own checks (special tokens present) cannot name the file they read. */
function inFile<T>(file: string, make: () => T): T {
  try {
    return make();
  } catch (err) {
    if (err instanceof ConfigError && err.file === undefined) throw new ConfigError(err.message, { file, cause: err });
    throw err;
  }
}

/** vocab.txt: one token per line, the line number is the id. */
export function toVocabTxt(tok: WordPieceTokenizer): string {
  return `${tok.vocab.join('\n')}\n`;
}

/**
 * Loads the tokenizer of a model folder: tokenizer.json when present, else vocab.txt (BERT defaults: lower
 * case, accents stripped, as `BertTokenizer` does without a config).
 */
export async function loadTokenizer(dir: string): Promise<Tokenizer> {
  const jsonPath = join(dir, 'tokenizer.json');
  const json = await readFile(jsonPath).catch(() => undefined);
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeUtf8Strict(json, jsonPath));
    } catch (err) {
      if (err instanceof FormatError) throw err;
      throw new FormatError(`not valid JSON${jsonErrorPosition(err)}; the file is corrupt, re-save the tokenizer`, { file: jsonPath });
    }
    return fromTokenizerJson(parsed, jsonPath);
  }
  const vocabPath = join(dir, 'vocab.txt');
  const vocab = await readFile(vocabPath).catch(() => {
    throw new ConfigError(`${dir} has neither tokenizer.json nor vocab.txt; train one with "ppmlm tokenizer train" or copy it from the model's repository`);
  });
  const tokens = decodeUtf8Strict(vocab, vocabPath).split('\n');
  if (tokens.at(-1) === '') tokens.pop();
  return inFile(vocabPath, () => new WordPieceTokenizer(tokens, { ...DEFAULT_WORDPIECE_OPTIONS, stripAccents: true }));
}
