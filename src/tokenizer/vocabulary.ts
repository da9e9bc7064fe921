import { ConfigError } from '../errors.js';
import type { AddedToken } from './addedTokens.js';
import type { SpecialTokens, Tokenizer } from './types.js';

/**
 * Token ↔ id lookups and the special tokens every tokenizer shares. Added tokens outside the model's
 * vocabulary (`[PHONE]`, or special tokens a Hugging Face file lists only in `added_tokens`) take the ids
 * after it, so `vocab` indexes every id the model can see.
 */
export abstract class Vocabulary {
  private readonly ids: Map<string, number>;
  readonly specialIds: ReadonlySet<number>;
  readonly vocab: readonly string[];
  /** Tokens of the model's own vocabulary (tokenizer.json's `model.vocab`); the added ones follow. */
  readonly modelVocabSize: number;

  constructor(
    modelVocab: readonly string[],
    readonly specials: SpecialTokens,
    readonly addedTokens: readonly AddedToken[],
  ) {
    const vocab = [...modelVocab];
    for (const t of [...addedTokens].sort((a, b) => a.id - b.id)) {
      if (t.id === vocab.length) vocab.push(t.content);
      else if (vocab[t.id] !== t.content) {
        // The content is not shown: an added token may be a term from private text.
        throw new ConfigError(`added token ${t.id} ${t.id < vocab.length ? 'has the id of another token' : `leaves a gap after id ${vocab.length - 1}`}; added tokens must reuse their own id or follow the vocabulary`);
      }
    }
    this.vocab = vocab;
    this.modelVocabSize = modelVocab.length;
    this.ids = new Map(vocab.map((t, i) => [t, i]));
    const missing = Object.values(specials).filter((t) => !this.ids.has(t));
    if (missing.length > 0) throw new ConfigError(`the vocabulary lacks the special token(s) ${missing.join(', ')}; the tokenizer files are incomplete`);
    this.specialIds = new Set([...Object.values(specials).map((t) => this.ids.get(t)!), ...addedTokens.filter((t) => t.special).map((t) => t.id)]);
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

/** The first id that two tokenizers read as different tokens, over the first's ids; undefined where they agree. */
export function firstDifferentToken(a: Tokenizer, b: Tokenizer): number | undefined {
  for (let id = 0; id < a.vocabSize; id++) if (a.tokenOf(id) !== b.tokenOf(id)) return id;
  return undefined;
}
