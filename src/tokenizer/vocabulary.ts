import { ConfigError } from '../errors.js';
import type { SpecialTokens } from './types.js';

/** Token ↔ id lookups and the special tokens every tokenizer shares. */
export abstract class Vocabulary {
  private readonly ids: Map<string, number>;
  readonly specialIds: ReadonlySet<number>;

  constructor(
    readonly vocab: readonly string[],
    readonly specials: SpecialTokens,
  ) {
    this.ids = new Map(vocab.map((t, i) => [t, i]));
    const missing = Object.values(specials).filter((t) => !this.ids.has(t));
    if (missing.length > 0) throw new ConfigError(`the vocabulary lacks the special token(s) ${missing.join(', ')}; the tokenizer files are incomplete`);
    this.specialIds = new Set(Object.values(specials).map((t) => this.ids.get(t)!));
  }

  get vocabSize(): number {
    return this.vocab.length;
  }

  idOf(token: string): number | undefined {
    return this.ids.get(token);
  }

  tokenOf(id: number): string {
    return this.vocab[id] ?? this.specials.unk;
  }
}
