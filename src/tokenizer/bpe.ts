import { AddedTokenSplitter, specialAddedToken, type AddedToken } from './addedTokens.js';
import { isWhitespace } from './bertText.js';
import { byteLevelPieces, fromByteLevel } from './byteLevel.js';
import type { NormalizerConfig } from './normalizer.js';
import type { Encoding, SpecialTokens, Tokenizer } from './types.js';
import { Vocabulary } from './vocabulary.js';

export const ROBERTA_SPECIALS: SpecialTokens = { unk: '<unk>', cls: '<s>', sep: '</s>', pad: '<pad>', mask: '<mask>' };

export interface BpeOptions {
  addPrefixSpace: boolean;
  specials: SpecialTokens;
  /** Offsets leave out the spaces a token starts or ends with (RoBERTa's `trim_offsets`; default true). */
  trimOffsets?: boolean;
  /** A tokenizer.json normaliser applied before byte-level splitting (RoBERTa has none). */
  normalizer?: NormalizerConfig | null;
  /** Tokens matched before BPE runs; default: the special tokens, `<mask>` taking the space before it (RoBERTa's `lstrip`). */
  addedTokens?: readonly AddedToken[];
}

function defaultAddedTokens(vocab: readonly string[], specials: SpecialTokens): AddedToken[] {
  return [...new Set(Object.values(specials))].map((t) => specialAddedToken(vocab.indexOf(t), t, t === specials.mask)).filter((t) => t.id !== -1);
}

const SPACE_SYMBOL = 'Ġ';

/** Spaces at one end of a token: the byte-level space symbol or real whitespace (an added token's stripped spaces). */
function spaces(token: string, fromEnd: boolean): number {
  const chars = [...token];
  if (fromEnd) chars.reverse();
  let n = 0;
  while (n < chars.length && (chars[n] === SPACE_SYMBOL || isWhitespace(chars[n]!))) n++;
  return n;
}

/**
 * Byte-level BPE (GPT-2, RoBERTa): GPT-2 pre-tokenisation, bytes mapped to printable characters, then the
 * lowest-ranked merge applied until none applies. Offsets are the characters a token's bytes came from,
 * trimmed of spaces as Hugging Face's RoBERTa post-processor trims them (a lone `Ġ` gets an empty span).
 */
export class BpeTokenizer extends Vocabulary implements Tokenizer {
  readonly type = 'bpe';
  private readonly ranks: Map<string, number>;
  private readonly cache = new Map<string, string[]>();
  private readonly splitter: AddedTokenSplitter;

  constructor(
    vocab: readonly string[],
    readonly merges: readonly [string, string][],
    readonly options: BpeOptions = { addPrefixSpace: false, specials: ROBERTA_SPECIALS },
  ) {
    super(vocab, options.specials, options.addedTokens ?? defaultAddedTokens(vocab, options.specials));
    this.ranks = new Map(merges.map(([a, b], i) => [`${a} ${b}`, i]));
    this.splitter = new AddedTokenSplitter(this.addedTokens, options.normalizer ?? null);
  }

  /** The BPE symbols of one byte-level piece. */
  bpe(piece: string): string[] {
    const cached = this.cache.get(piece);
    if (cached) return cached;
    let symbols = [...piece];
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < symbols.length; i++) {
        const rank = this.ranks.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (rank !== undefined && rank < bestRank) [best, bestRank] = [i, rank];
      }
      if (best === -1) break;
      const [a, b] = [symbols[best]!, symbols[best + 1]!];
      const next: string[] = [];
      for (let i = 0; i < symbols.length; i++) {
        if (i + 1 < symbols.length && symbols[i] === a && symbols[i + 1] === b) {
          next.push(a + b);
          i++;
        } else next.push(symbols[i]!);
      }
      symbols = next;
    }
    if (this.cache.size < 100_000) this.cache.set(piece, symbols);
    return symbols;
  }

  tokenize(text: string, cuts?: ReadonlySet<number>): Encoding {
    const enc: Encoding = { ids: [], offsets: [], special: [] };
    const tokens: string[] = [];
    const unk = this.idOf(this.specials.unk)!;
    for (const segment of this.splitter.split(text)) {
      if (segment.added) {
        enc.ids.push(segment.added.id);
        enc.offsets.push([segment.text.starts[0] ?? 0, segment.text.ends.at(-1) ?? 0]);
        enc.special.push(segment.added.special);
        tokens.push(segment.text.text);
        continue;
      }
      for (const piece of byteLevelPieces(segment.text, this.options.addPrefixSpace, cuts)) {
        let at = 0;
        for (const symbol of this.bpe(piece.text)) {
          const n = [...symbol].length;
          enc.ids.push(this.idOf(symbol) ?? unk);
          enc.offsets.push([piece.charStart[at]!, piece.charEnd[at + n - 1]!]);
          enc.special.push(false);
          tokens.push(symbol);
          at += n;
        }
      }
    }
    if (this.options.trimOffsets ?? true) this.trimOffsets(text, enc, tokens);
    return enc;
  }

  /**
   * Hugging Face's `process_offsets`: as many characters (code points) off each end as the token has spaces
   * there; a prefix space it added itself stays in the first token's span.
   */
  private trimOffsets(text: string, enc: Encoding, tokens: readonly string[]): void {
    enc.offsets.forEach((offsets, i) => {
      let [start, end] = offsets;
      let leading = spaces(tokens[i]!, false);
      const trailing = spaces(tokens[i]!, true);
      if (leading > 0) {
        if ((i === 0 || start === 0) && this.options.addPrefixSpace && leading === 1) leading = 0;
        start = Math.min(codePointsAfter(text, start, leading), end);
      }
      if (trailing > 0 && end >= trailing) end = Math.max(codePointsBefore(text, end, trailing), start);
      enc.offsets[i] = [start, end];
    });
  }

  /** The text of the ids, special tokens left out; an added token (`[PHONE]`) is its own text, not byte-level symbols. */
  decode(ids: readonly number[]): string {
    const added = new Map(this.addedTokens.map((t) => [t.id, t.content]));
    let out = '';
    let run = '';
    for (const id of ids) {
      if (this.specialIds.has(id)) continue;
      const content = added.get(id);
      if (content === undefined) run += this.tokenOf(id);
      else {
        out += fromByteLevel(run) + content;
        run = '';
      }
    }
    return out + fromByteLevel(run);
  }
}

/** The UTF-16 index `n` code points after `at`. */
function codePointsAfter(text: string, at: number, n: number): number {
  for (let k = 0; k < n && at < text.length; k++) at += (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
  return at;
}

/** The UTF-16 index `n` code points before `at`. */
function codePointsBefore(text: string, at: number, n: number): number {
  for (let k = 0; k < n && at > 0; k++) at -= at >= 2 && /[\udc00-\udfff]/.test(text[at - 1]!) && /[\ud800-\udbff]/.test(text[at - 2]!) ? 2 : 1;
  return at;
}
