import { bertPreTokenize, type BertTextOptions, type PreToken } from './bertText.js';
import { BERT_SPECIALS, type Encoding, type SpecialTokens, type Tokenizer } from './types.js';
import { Vocabulary } from './vocabulary.js';

export interface WordPieceOptions extends BertTextOptions {
  continuingPrefix: string;
  maxInputCharsPerWord: number;
  specials: SpecialTokens;
}

export const DEFAULT_WORDPIECE_OPTIONS: WordPieceOptions = {
  lowercase: true,
  stripAccents: false,
  handleChineseChars: true,
  continuingPrefix: '##',
  maxInputCharsPerWord: 100,
  specials: BERT_SPECIALS,
};

/**
 * BERT's WordPiece: greedy longest-match-first over each pre-token, `##` marking word-internal pieces, a
 * word that cannot be covered becomes [UNK]. Same ids as Hugging Face tokenizers for the same vocab and
 * normaliser settings, plus character offsets into the original text.
 */
export class WordPieceTokenizer extends Vocabulary implements Tokenizer {
  readonly type = 'wordpiece';

  constructor(
    vocab: readonly string[],
    readonly options: WordPieceOptions = DEFAULT_WORDPIECE_OPTIONS,
  ) {
    super(vocab, options.specials);
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

  tokenizePreTokens(words: readonly PreToken[]): Encoding {
    const enc: Encoding = { ids: [], offsets: [], special: [] };
    for (const w of words) {
      for (const p of this.wordPieces(w.text)) {
        enc.ids.push(p.id);
        enc.offsets.push([w.map[p.start] ?? w.start, p.end < w.text.length ? w.map[p.end]! : w.end]);
        enc.special.push(false);
      }
    }
    return enc;
  }

  tokenize(text: string): Encoding {
    return this.tokenizePreTokens(bertPreTokenize(text, this.options));
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
