import { AddedTokenSplitter, specialAddedToken, type AddedToken } from './addedTokens.js';
import { normalize, unnormalized, type NormalizerConfig } from './normalizer.js';
import { cutPreTokens, preTokenize, type PreToken, type PreTokenizerConfig } from './preTokenizer.js';
import { BERT_SPECIALS, type Encoding, type SpecialTokens, type Tokenizer } from './types.js';
import { Vocabulary } from './vocabulary.js';

/** BERT's normaliser settings, the ones ppmlm's own WordPiece tokenizers use. */
export interface BertTextOptions {
  lowercase: boolean;
  /** Strip combining marks after NFD (BERT uncased does this by default; it also decomposes Hangul, so ppmlm's own tokenizers turn it off). */
  stripAccents: boolean;
  handleChineseChars: boolean;
}

export interface WordPieceOptions extends BertTextOptions {
  continuingPrefix: string;
  maxInputCharsPerWord: number;
  specials: SpecialTokens;
  /** A tokenizer.json normaliser other than BERT's with the settings above (e.g. a `Sequence` from Hugging Face). */
  normalizer?: NormalizerConfig | null;
  /** A tokenizer.json pre-tokenizer other than `BertPreTokenizer` (null: the whole text is one word). */
  preTokenizer?: PreTokenizerConfig | null;
  /** Tokens matched before WordPiece runs; default: the special tokens, as Hugging Face writes them for BERT. */
  addedTokens?: readonly AddedToken[];
}

export const DEFAULT_WORDPIECE_OPTIONS: WordPieceOptions = {
  lowercase: true,
  stripAccents: false,
  handleChineseChars: true,
  continuingPrefix: '##',
  maxInputCharsPerWord: 100,
  specials: BERT_SPECIALS,
};

/** The normaliser a WordPiece tokenizer applies. */
export function normalizerOf(options: WordPieceOptions): NormalizerConfig | null {
  if (options.normalizer !== undefined) return options.normalizer;
  return { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: options.handleChineseChars, strip_accents: options.stripAccents, lowercase: options.lowercase };
}

/** The pre-tokenizer a WordPiece tokenizer applies. */
export function preTokenizerOf(options: WordPieceOptions): PreTokenizerConfig | null {
  return options.preTokenizer === undefined ? { type: 'BertPreTokenizer' } : options.preTokenizer;
}

/**
 * The pre-tokens WordPiece runs on: the text normalised and split as the tokenizer's options say (added
 * tokens aside), then at `cuts` ({@link cutPreTokens}).
 */
export function bertPreTokenize(text: string, options: WordPieceOptions, cuts?: ReadonlySet<number>): PreToken[] {
  const preTokens = preTokenize(preTokenizerOf(options), normalize(normalizerOf(options), unnormalized(text)));
  return cuts === undefined ? preTokens : cutPreTokens(preTokens, cuts);
}

function defaultAddedTokens(vocab: readonly string[], specials: SpecialTokens): AddedToken[] {
  return [...new Set(Object.values(specials))].map((t) => specialAddedToken(vocab.indexOf(t), t)).filter((t) => t.id !== -1);
}

/**
 * BERT's WordPiece: greedy longest-match-first over each pre-token, `##` marking word-internal pieces, a
 * word that cannot be covered becomes [UNK]. Same ids and offsets as Hugging Face tokenizers for the same
 * tokenizer.json (test/tokenizer/parity.test.ts).
 */
export class WordPieceTokenizer extends Vocabulary implements Tokenizer {
  readonly type = 'wordpiece';
  private readonly splitter: AddedTokenSplitter;

  constructor(
    vocab: readonly string[],
    readonly options: WordPieceOptions = DEFAULT_WORDPIECE_OPTIONS,
  ) {
    super(vocab, options.specials, options.addedTokens ?? defaultAddedTokens(vocab, options.specials));
    this.splitter = new AddedTokenSplitter(this.addedTokens, normalizerOf(options));
  }

  /** The pieces of one pre-token, with [start, end) into the normalised word. */
  wordPieces(word: string): { id: number; start: number; end: number }[] {
    const unk = { id: this.idOf(this.specials.unk)!, start: 0, end: word.length };
    if ([...word].length > this.options.maxInputCharsPerWord) return [unk];
    const pieces: { id: number; start: number; end: number }[] = [];
    let start = 0;
    while (start < word.length) {
      let end = word.length;
      let found: number | undefined;
      while (start < end) {
        const sub = (start > 0 ? this.options.continuingPrefix : '') + word.slice(start, end);
        found = this.idOf(sub);
        if (found !== undefined) break;
        end--;
        // Never cut a surrogate pair.
        if (end > start && isLowSurrogate(word.charCodeAt(end))) end--;
      }
      if (found === undefined) return [unk];
      pieces.push({ id: found, start, end });
      start = end;
    }
    return pieces;
  }

  /** WordPiece over pre-tokens; each span covers only the characters its piece came from. */
  private tokenizePreTokens(words: readonly PreToken[], enc: Encoding): Encoding {
    for (const w of words) {
      for (const p of this.wordPieces(w.text)) {
        enc.ids.push(p.id);
        enc.offsets.push([w.starts[p.start]!, w.ends[p.end - 1]!]);
        enc.special.push(false);
      }
    }
    return enc;
  }

  tokenize(text: string, cuts?: ReadonlySet<number>): Encoding {
    const enc: Encoding = { ids: [], offsets: [], special: [] };
    const preTokenizer = preTokenizerOf(this.options);
    for (const segment of this.splitter.split(text)) {
      if (segment.added) {
        enc.ids.push(segment.added.id);
        enc.offsets.push([segment.text.starts[0] ?? 0, segment.text.ends.at(-1) ?? 0]);
        enc.special.push(segment.added.special);
        continue;
      }
      const preTokens = preTokenize(preTokenizer, segment.text);
      this.tokenizePreTokens(cuts === undefined ? preTokens : cutPreTokens(preTokens, cuts), enc);
    }
    return enc;
  }

  decode(ids: readonly number[]): string {
    let out = '';
    for (const id of ids) {
      if (this.specialIds.has(id) && id !== this.idOf(this.specials.unk)) continue;
      const tok = this.tokenOf(id);
      if (tok.startsWith(this.options.continuingPrefix)) out += tok.slice(this.options.continuingPrefix.length);
      else out += (out === '' ? '' : ' ') + tok;
    }
    // The cleanup Hugging Face's WordPiece decoder applies: no space before punctuation and clitics.
    return out.replace(/ ([.,!?;:%)\]}'])/g, '$1').replace(/([([{]) /g, '$1').replace(/ n't/g, "n't");
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
