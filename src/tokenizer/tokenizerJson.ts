import { basename, join } from 'node:path';
import { ConfigError, FormatError } from '../errors.js';
import { decodeUtf8Strict, isJsonObject, parseJson, readOptionalFile } from '../io/index.js';
import type { AddedToken } from './addedTokens.js';
import { BpeTokenizer, ROBERTA_SPECIALS } from './bpe.js';
import type { NormalizerConfig } from './normalizer.js';
import type { PreTokenizerConfig, SplitBehavior } from './preTokenizer.js';
import { BERT_SPECIALS, type SpecialTokens, type Tokenizer } from './types.js';
import { DEFAULT_WORDPIECE_OPTIONS, normalizerOf, preTokenizerOf, WordPieceTokenizer } from './wordpiece.js';

interface AddedTokenJson {
  id: number;
  content: string;
  single_word: boolean;
  lstrip: boolean;
  rstrip: boolean;
  normalized: boolean;
  special: boolean;
}

type ByteLevelJson = { type: 'ByteLevel'; add_prefix_space: boolean; trim_offsets: boolean; use_regex: boolean };

/** The parts of Hugging Face's tokenizer.json that ppmlm reads and writes. */
export interface TokenizerJson {
  version: '1.0';
  truncation: null;
  padding: null;
  added_tokens: AddedTokenJson[];
  normalizer: NormalizerConfig | null;
  pre_tokenizer: PreTokenizerConfig | ByteLevelJson | null;
  post_processor: unknown;
  decoder: unknown;
  model: { type: string; unk_token?: string | null; continuing_subword_prefix?: string | null; max_input_chars_per_word?: number; vocab: Record<string, number> | unknown; merges?: unknown };
}

function addedTokensJson(tok: Tokenizer): AddedTokenJson[] {
  return tok.addedTokens.map((t) => ({ id: t.id, content: t.content, single_word: t.singleWord, lstrip: t.lstrip, rstrip: t.rstrip, normalized: t.normalized, special: t.special }));
}

function modelVocabJson(tok: Tokenizer & { vocab: readonly string[] }): Record<string, number> {
  return Object.fromEntries(tok.vocab.slice(0, tok.modelVocabSize).map((t, i) => [t, i]));
}

/** tokenizer.json for a WordPiece tokenizer, loadable by Hugging Face `tokenizers` / `transformers`. */
export function toTokenizerJson(tok: WordPieceTokenizer): TokenizerJson {
  const id = (t: string) => tok.idOf(t)!;
  const s = tok.specials;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokensJson(tok),
    normalizer: normalizerOf(tok.options),
    pre_tokenizer: preTokenizerOf(tok.options),
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
      vocab: modelVocabJson(tok),
    },
  };
}

/** tokenizer.json for a byte-level BPE tokenizer (RoBERTa's layout). */
export function bpeToTokenizerJson(tok: BpeTokenizer): TokenizerJson {
  const s = tok.specials;
  const id = (t: string) => tok.idOf(t)!;
  const trim = tok.options.trimOffsets ?? true;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokensJson(tok),
    normalizer: tok.options.normalizer ?? null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: tok.options.addPrefixSpace, trim_offsets: trim, use_regex: true },
    post_processor: { type: 'RobertaProcessing', sep: [s.sep, id(s.sep)], cls: [s.cls, id(s.cls)], trim_offsets: trim, add_prefix_space: tok.options.addPrefixSpace },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, vocab: modelVocabJson(tok), merges: tok.merges.map(([a, b]) => `${a} ${b}`) } as TokenizerJson['model'],
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

const NORMALIZERS = ['BertNormalizer', 'Lowercase', 'StripAccents', 'NFD', 'NFKD', 'NFC', 'NFKC', 'Strip', 'Sequence'];
const PRE_TOKENIZERS = ['BertPreTokenizer', 'WhitespaceSplit', 'Whitespace', 'Punctuation', 'Sequence'];
const BEHAVIORS: SplitBehavior[] = ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];

/** A component's `type`, or a FormatError naming where it is (`normalizer.normalizers[1]`). */
function componentType(value: unknown, where: string, file: string): string {
  if (!isJsonObject(value) || typeof value.type !== 'string') throw new FormatError(`"${where}" must be an object with a "type"`, { file });
  return value.type;
}

function flag(value: unknown, where: string, file: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new FormatError(`"${where}" must be true or false`, { file });
  return value;
}

/** A normaliser ppmlm applies exactly as Hugging Face does; any other is refused by name, never skipped. */
function readNormalizer(value: unknown, where: string, file: string): NormalizerConfig {
  const type = componentType(value, where, file);
  const v = value as Record<string, unknown>;
  if (!NORMALIZERS.includes(type)) throw new ConfigError(`${where} "${type}" is not supported (${NORMALIZERS.join(', ')} are); ppmlm would tokenize differently from Hugging Face`, { file });
  if (type === 'Sequence') {
    if (!Array.isArray(v.normalizers)) throw new FormatError(`"${where}.normalizers" must be an array`, { file });
    return { type, normalizers: v.normalizers.map((n, i) => readNormalizer(n, `${where}.normalizers[${i}]`, file)) };
  }
  if (type === 'BertNormalizer') {
    const lowercase = flag(v.lowercase, `${where}.lowercase`, file, true);
    const stripAccents = v.strip_accents === null || v.strip_accents === undefined ? null : flag(v.strip_accents, `${where}.strip_accents`, file, false);
    return { type, clean_text: flag(v.clean_text, `${where}.clean_text`, file, true), handle_chinese_chars: flag(v.handle_chinese_chars, `${where}.handle_chinese_chars`, file, true), strip_accents: stripAccents, lowercase };
  }
  if (type === 'Strip') return { type, left: flag(v.strip_left, `${where}.strip_left`, file, true), right: flag(v.strip_right, `${where}.strip_right`, file, true) };
  return { type } as NormalizerConfig;
}

function readPreTokenizer(value: unknown, where: string, file: string): PreTokenizerConfig {
  const type = componentType(value, where, file);
  const v = value as Record<string, unknown>;
  if (!PRE_TOKENIZERS.includes(type)) throw new ConfigError(`${where} "${type}" is not supported with WordPiece (${PRE_TOKENIZERS.join(', ')} are); ppmlm would tokenize differently from Hugging Face`, { file });
  if (type === 'Sequence') {
    if (!Array.isArray(v.pretokenizers)) throw new FormatError(`"${where}.pretokenizers" must be an array`, { file });
    return { type, pretokenizers: v.pretokenizers.map((p, i) => readPreTokenizer(p, `${where}.pretokenizers[${i}]`, file)) };
  }
  if (type === 'Punctuation') {
    const behavior = v.behavior ?? 'Isolated';
    if (!BEHAVIORS.includes(behavior as SplitBehavior)) throw new FormatError(`"${where}.behavior" must be one of ${BEHAVIORS.join(', ')}`, { file });
    return { type, behavior: behavior as SplitBehavior };
  }
  return { type } as PreTokenizerConfig;
}

/** Byte-level BPE's pre-tokenizer: `ByteLevel`, alone or as the only member of a `Sequence`, with GPT-2's regex. */
function readByteLevel(value: unknown, file: string): ByteLevelJson {
  let where = 'pre_tokenizer';
  let v = value;
  if (isJsonObject(v) && v.type === 'Sequence' && Array.isArray(v.pretokenizers) && v.pretokenizers.length === 1) [v, where] = [v.pretokenizers[0], 'pre_tokenizer.pretokenizers[0]'];
  const type = v === null || v === undefined ? 'null' : componentType(v, where, file);
  if (type !== 'ByteLevel') throw new ConfigError(`BPE with ${where} "${type}" is not supported (byte-level BPE, pre_tokenizer "ByteLevel", is)`, { file });
  const b = v as Record<string, unknown>;
  if (b.use_regex === false) throw new ConfigError(`${where} "ByteLevel" with use_regex false is not supported (GPT-2's split is)`, { file });
  return { type: 'ByteLevel', add_prefix_space: flag(b.add_prefix_space, `${where}.add_prefix_space`, file, true), trim_offsets: flag(b.trim_offsets, `${where}.trim_offsets`, file, true), use_regex: true };
}

/** Whether offsets are trimmed of spaces: only a RoBERTa or ByteLevel post-processor with trim_offsets does it. */
function trimsOffsets(post: unknown, file: string): boolean {
  if (post === null || post === undefined) return false;
  const type = componentType(post, 'post_processor', file);
  const p = post as Record<string, unknown>;
  if (type === 'RobertaProcessing' || type === 'ByteLevel') return flag(p.trim_offsets, 'post_processor.trim_offsets', file, true);
  if (type === 'Sequence' && Array.isArray(p.processors)) return p.processors.some((q) => trimsOffsets(q, file));
  return false;
}

function readAddedTokens(value: unknown, file: string): AddedToken[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new FormatError('"added_tokens" must be an array', { file });
  return value.map((t: unknown, i) => {
    const where = `added_tokens[${i}]`;
    if (!isJsonObject(t) || typeof t.content !== 'string' || typeof t.id !== 'number' || !Number.isInteger(t.id) || t.id < 0) throw new FormatError(`"${where}" must have an integer "id" and a string "content"`, { file });
    const special = flag(t.special, `${where}.special`, file, false);
    return { id: t.id, content: t.content, special, normalized: flag(t.normalized, `${where}.normalized`, file, !special), lstrip: flag(t.lstrip, `${where}.lstrip`, file, false), rstrip: flag(t.rstrip, `${where}.rstrip`, file, false), singleWord: flag(t.single_word, `${where}.single_word`, file, false) };
  });
}

/** BPE model options that change ids; ppmlm refuses them rather than tokenize differently. */
function checkBpeModel(m: Record<string, unknown>, file: string): void {
  const unsupported: [string, boolean][] = [
    ['dropout', m.dropout !== null && m.dropout !== undefined && m.dropout !== 0],
    ['continuing_subword_prefix', m.continuing_subword_prefix !== null && m.continuing_subword_prefix !== undefined && m.continuing_subword_prefix !== ''],
    ['end_of_word_suffix', m.end_of_word_suffix !== null && m.end_of_word_suffix !== undefined && m.end_of_word_suffix !== ''],
    ['byte_fallback', m.byte_fallback === true],
    ['ignore_merges', m.ignore_merges === true],
  ];
  for (const [key, set] of unsupported) if (set) throw new ConfigError(`BPE with "model.${key}" set is not supported (byte-level BPE without it is)`, { file });
}

/**
 * The special-token names of a tokenizer family, present in the vocabulary or in added_tokens: the
 * family's, then those tokenizer_config.json declares, then the post-processor's [CLS]/[SEP], which are
 * what Hugging Face's tokenizer puts around a text.
 */
function specialsOf(defaults: SpecialTokens, unk: string | undefined, declared: Partial<SpecialTokens>, post: Partial<SpecialTokens>): SpecialTokens {
  return { ...defaults, unk: unk ?? defaults.unk, ...declared, ...post };
}

/**
 * The tokens a post-processor puts before and after a single text (BertProcessing, RobertaProcessing, a
 * TemplateProcessing `single`, or the one of a Sequence that adds them). ppmlm reads every text as
 * [CLS] text [SEP]: a template that puts other tokens around it (none, one, the text first) would give
 * the model inputs it was not trained on, so it is refused. A file without a post-processor keeps its
 * family's specials, as before such files were read.
 */
function postProcessorSpecials(post: unknown, file: string, where = 'post_processor'): Partial<SpecialTokens> {
  if (post === null || post === undefined) return {};
  const type = componentType(post, where, file);
  const p = post as Record<string, unknown>;
  const pairToken = (key: 'cls' | 'sep') => {
    const v = p[key];
    if (!Array.isArray(v) || typeof v[0] !== 'string') throw new FormatError(`"${where}.${key}" must be [token, id]`, { file });
    return v[0];
  };
  if (type === 'BertProcessing' || type === 'RobertaProcessing') return { cls: pairToken('cls'), sep: pairToken('sep') };
  if (type === 'Sequence') {
    if (!Array.isArray(p.processors)) throw new FormatError(`"${where}.processors" must be an array`, { file });
    return Object.assign({}, ...p.processors.map((q, i) => postProcessorSpecials(q, file, `${where}.processors[${i}]`)));
  }
  if (type !== 'TemplateProcessing') return {};
  const single = Array.isArray(p.single) ? p.single : [];
  const special = (piece: unknown) => (isJsonObject(piece) && isJsonObject(piece.SpecialToken) && typeof piece.SpecialToken.id === 'string' ? piece.SpecialToken.id : undefined);
  const text = (piece: unknown) => isJsonObject(piece) && isJsonObject(piece.Sequence) && piece.Sequence.id === 'A';
  const [cls, sep] = [special(single[0]), special(single[2])];
  if (single.length !== 3 || cls === undefined || !text(single[1]) || sep === undefined) {
    throw new ConfigError(`"${where}.single" puts ${single.length === 0 ? 'nothing' : 'other tokens'} around a text; ppmlm reads a text between two special tokens, as BERT and RoBERTa do ([CLS] $A [SEP], <s> $A </s>)`, { file });
  }
  return { cls, sep };
}

/** Builds a tokenizer from tokenizer.json; malformed fields and unsupported components are named in the error. */
export function fromTokenizerJson(raw: unknown, file: string, specials: Partial<SpecialTokens> = {}): Tokenizer {
  if (!isJsonObject(raw)) throw new FormatError('tokenizer.json must be a JSON object', { file });
  if (!isJsonObject(raw.model) || typeof raw.model.type !== 'string') throw new FormatError('"model" must be an object with a "type" (WordPiece, BPE)', { file });
  if (raw.normalizer !== undefined && raw.normalizer !== null && !isJsonObject(raw.normalizer)) throw new FormatError('"normalizer" must be an object or null', { file });
  if (raw.pre_tokenizer !== undefined && raw.pre_tokenizer !== null && !isJsonObject(raw.pre_tokenizer)) throw new FormatError('"pre_tokenizer" must be an object or null', { file });
  const m = raw.model as Record<string, unknown>;
  const addedTokens = readAddedTokens(raw.added_tokens, file);
  const normalizer = raw.normalizer === undefined || raw.normalizer === null ? null : readNormalizer(raw.normalizer, 'normalizer', file);
  if (m.type === 'BPE') {
    const byteLevel = readByteLevel(raw.pre_tokenizer, file);
    checkBpeModel(m, file);
    const vocab = vocabArray(m.vocab, file);
    const merges = mergePairs(m.merges, file);
    return inFile(file, () => new BpeTokenizer(vocab, merges, { addPrefixSpace: byteLevel.add_prefix_space, trimOffsets: trimsOffsets(raw.post_processor, file), specials: specialsOf(ROBERTA_SPECIALS, undefined, specials, postProcessorSpecials(raw.post_processor, file)), normalizer, addedTokens }));
  }
  if (m.type !== 'WordPiece') throw new ConfigError(`tokenizer model "${m.type}" is not supported yet (WordPiece and byte-level BPE are); convert the tokenizer or train one with "ppmlm tokenizer train"`, { file });
  const vocab = vocabArray(m.vocab, file);
  for (const key of ['unk_token', 'continuing_subword_prefix'] as const) {
    if (m[key] !== undefined && typeof m[key] !== 'string') throw new FormatError(`"model.${key}" must be a string`, { file });
  }
  const maxChars = m.max_input_chars_per_word;
  if (maxChars !== undefined && (typeof maxChars !== 'number' || !Number.isInteger(maxChars) || maxChars < 1)) throw new FormatError('"model.max_input_chars_per_word" must be a positive integer', { file });
  const preTokenizer = raw.pre_tokenizer === undefined || raw.pre_tokenizer === null ? null : readPreTokenizer(raw.pre_tokenizer, 'pre_tokenizer', file);
  const bert = normalizer?.type === 'BertNormalizer' ? normalizer : undefined;
  const lowercase = bert ? bert.lowercase : hasLowercase(normalizer);
  return inFile(file, () => new WordPieceTokenizer(vocab, {
    lowercase,
    stripAccents: bert ? (bert.strip_accents ?? bert.lowercase) : false,
    handleChineseChars: bert?.handle_chinese_chars ?? false,
    continuingPrefix: (m.continuing_subword_prefix as string | undefined) ?? '##',
    maxInputCharsPerWord: (maxChars as number | undefined) ?? 100,
    specials: specialsOf(BERT_SPECIALS, m.unk_token as string | undefined, specials, postProcessorSpecials(raw.post_processor, file)),
    // Kept as read, so the file is written back as it came and BERT's own settings stay exact.
    normalizer,
    preTokenizer: preTokenizer?.type === 'BertPreTokenizer' ? undefined : preTokenizer,
    addedTokens,
  }));
}

function hasLowercase(n: NormalizerConfig | null): boolean {
  if (n === null) return false;
  if (n.type === 'Lowercase') return true;
  return n.type === 'Sequence' && n.normalizers.some(hasLowercase);
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
 * Loads the tokenizer of a model folder: tokenizer.json when present, else vocab.txt. As Hugging Face's
 * tokenizers do, `tokenizer_config.json` decides what it sets: `do_lower_case`, `strip_accents` and
 * `tokenize_chinese_chars` (a BERT normaliser's, or vocab.txt's, whose defaults are BertTokenizer's: lower
 * case, accents stripped with it) and `add_prefix_space` (a byte-level BPE's): a cased model read as
 * lower case would see other ids than it was trained on.
 */
export async function loadTokenizer(dir: string): Promise<Tokenizer> {
  const settings = await readTokenizerConfig(dir);
  const jsonPath = join(dir, 'tokenizer.json');
  const json = await readOptionalFile(jsonPath);
  if (json !== undefined) {
    const parsed = parseJson(decodeUtf8Strict(json, jsonPath), jsonPath, 'tokenizer.json is one JSON object; save it again (tokenizer.save in the tokenizers library)');
    return fromTokenizerJson(isJsonObject(parsed) ? withTokenizerConfig(parsed, settings) : parsed, jsonPath, settings.specials);
  }
  const vocabPath = join(dir, 'vocab.txt');
  const vocab = await readOptionalFile(vocabPath);
  if (vocab === undefined) throw new ConfigError(`${dir} has neither tokenizer.json nor vocab.txt; train one with "ppmlm tokenizer train", or save the model's tokenizer with its fast tokenizer (AutoTokenizer.from_pretrained(...).save_pretrained(DIR) writes tokenizer.json)`);
  const tokens = decodeUtf8Strict(vocab, vocabPath).split('\n');
  if (tokens.at(-1) === '') tokens.pop();
  const lowercase = settings.do_lower_case ?? true;
  return inFile(vocabPath, () => new WordPieceTokenizer(tokens, { ...DEFAULT_WORDPIECE_OPTIONS, lowercase, stripAccents: settings.strip_accents ?? lowercase, handleChineseChars: settings.tokenize_chinese_chars ?? true, specials: { ...BERT_SPECIALS, ...settings.specials } }));
}

/** What tokenizer_config.json sets of the text's handling; each absent where the file does not say. */
interface TokenizerSettings {
  do_lower_case?: boolean;
  strip_accents?: boolean | null;
  tokenize_chinese_chars?: boolean;
  add_prefix_space?: boolean;
  /** The special tokens the folder names (`mask_token` …), from tokenizer_config.json, then special_tokens_map.json. */
  specials: Partial<SpecialTokens>;
}

async function readTokenizerConfig(dir: string): Promise<TokenizerSettings> {
  const [path, mapPath] = [join(dir, 'tokenizer_config.json'), join(dir, 'special_tokens_map.json')];
  const raw = await readTokenizerObject(path);
  const map = await readTokenizerObject(mapPath);
  const settings: TokenizerSettings = { specials: { ...declaredSpecials(raw, path), ...declaredSpecials(map, mapPath) } };
  for (const key of ['do_lower_case', 'strip_accents', 'tokenize_chinese_chars', 'add_prefix_space'] as const) {
    const value = raw[key];
    if (value === undefined || (value === null && key === 'strip_accents')) continue;
    if (typeof value !== 'boolean') throw new FormatError(`"${key}" must be true or false, got ${JSON.stringify(value)}; fix it as the model was trained`, { file: path });
    settings[key] = value;
  }
  return settings;
}

/** A JSON object file of a tokenizer's folder, or an empty object where there is none. */
async function readTokenizerObject(path: string): Promise<Record<string, unknown>> {
  const bytes = await readOptionalFile(path);
  if (bytes === undefined) return {};
  const raw = parseJson(decodeUtf8Strict(bytes, path), path, `${basename(path)} is one JSON object; save the tokenizer again`);
  if (!isJsonObject(raw)) throw new FormatError(`${basename(path)} must be a JSON object`, { file: path });
  return raw;
}

const SPECIAL_KEYS = { unk: 'unk_token', cls: 'cls_token', sep: 'sep_token', pad: 'pad_token', mask: 'mask_token' } as const;

/** The special tokens a tokenizer file names: a string, or an AddedToken object's `content`. */
function declaredSpecials(raw: Record<string, unknown>, file: string): Partial<SpecialTokens> {
  const out: Partial<SpecialTokens> = {};
  for (const [role, key] of Object.entries(SPECIAL_KEYS) as [keyof SpecialTokens, string][]) {
    const value = raw[key];
    if (value === undefined || value === null) continue;
    const content = isJsonObject(value) ? value.content : value;
    if (typeof content !== 'string' || content === '') throw new FormatError(`"${key}" must be a token (a string, or an object with "content")`, { file });
    out[role] = content;
  }
  return out;
}

/** tokenizer.json with what tokenizer_config.json sets over it, as Hugging Face's fast tokenizers apply it. */
function withTokenizerConfig(parsed: Record<string, unknown>, settings: TokenizerSettings): Record<string, unknown> {
  let out = parsed;
  const normalizer = parsed.normalizer;
  if (isJsonObject(normalizer) && normalizer.type === 'BertNormalizer') {
    const lowercase = settings.do_lower_case ?? normalizer.lowercase;
    // Rebuilt for another case, the normaliser strips accents as the config says, else as it lower-cases (null).
    const stripAccents = settings.strip_accents !== undefined ? settings.strip_accents : lowercase !== normalizer.lowercase ? null : normalizer.strip_accents;
    out = {
      ...out,
      normalizer: {
        ...normalizer,
        lowercase,
        strip_accents: stripAccents,
        ...(settings.tokenize_chinese_chars !== undefined && { handle_chinese_chars: settings.tokenize_chinese_chars }),
      },
    };
  }
  const preTokenizer = parsed.pre_tokenizer;
  if (settings.add_prefix_space !== undefined && isJsonObject(preTokenizer) && preTokenizer.type === 'ByteLevel') out = { ...out, pre_tokenizer: { ...preTokenizer, add_prefix_space: settings.add_prefix_space } };
  return out;
}
