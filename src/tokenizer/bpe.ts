import { byteLevelPieces, fromByteLevel } from './byteLevel.js';
import type { Encoding, SpecialTokens, Tokenizer } from './types.js';
import { Vocabulary } from './vocabulary.js';

export const ROBERTA_SPECIALS: SpecialTokens = { unk: '<unk>', cls: '<s>', sep: '</s>', pad: '<pad>', mask: '<mask>' };

export interface BpeOptions {
  addPrefixSpace: boolean;
  specials: SpecialTokens;
}

/**
 * Byte-level BPE (GPT-2, RoBERTa): GPT-2 pre-tokenisation, bytes mapped to printable characters, then the
 * lowest-ranked merge applied until none applies. Character offsets come from the bytes each token covers.
 */
export class BpeTokenizer extends Vocabulary implements Tokenizer {
  readonly type = 'bpe';
  private readonly ranks: Map<string, number>;
  private readonly cache = new Map<string, string[]>();

  constructor(
    vocab: readonly string[],
    readonly merges: readonly [string, string][],
    readonly options: BpeOptions = { addPrefixSpace: false, specials: ROBERTA_SPECIALS },
  ) {
    super(vocab, options.specials);
    this.ranks = new Map(merges.map(([a, b], i) => [`${a} ${b}`, i]));
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

  tokenize(text: string): Encoding {
    const enc: Encoding = { ids: [], offsets: [], special: [] };
    const unk = this.idOf(this.specials.unk)!;
    for (const piece of byteLevelPieces(text, this.options.addPrefixSpace)) {
      let at = 0;
      for (const symbol of this.bpe(piece.text)) {
        const n = [...symbol].length;
        enc.ids.push(this.idOf(symbol) ?? unk);
        // Offsets exclude the leading space that byte-level pieces carry, as Hugging Face's trim_offsets does.
        let start = piece.charStart[at]!;
        const end = piece.charEnd[at + n - 1]!;
        if (symbol.startsWith('Ġ') && end - start > 1 && text[start] === ' ') start++;
        enc.offsets.push([start, end]);
        enc.special.push(false);
        at += n;
      }
    }
    return enc;
  }

  decode(ids: readonly number[]): string {
    return fromByteLevel(ids.filter((id) => !this.specialIds.has(id)).map((id) => this.tokenOf(id)).join(''));
  }
}
