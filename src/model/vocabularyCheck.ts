import { PrivateVocabularyError, VocabularyIdentifiersError } from '../errors.js';
import { blacklistedTokens, type BlacklistedTerms, type Tokenizer } from '../tokenizer/index.js';

/**
 * How a vocabulary was made, recorded under `vocabulary` in ppmlm.json when ppmlm trained it (`tokenizer
 * train`, `deid train`'s fresh tokenizer, the demo) and carried on by every model made from it. A tokenizer
 * made elsewhere (a Hugging Face model) has none.
 */
export interface VocabularyOrigin {
  /** Fingerprint of the corpus it was trained on. */
  corpus: string;
  /** The corpus was declared public (`--public-corpus`): its vocabulary reveals nobody. */
  publicCorpus: boolean;
  /** Fingerprint of the blacklist whose terms no token spells (`tokenizer train --blacklist`). */
  blacklist?: string;
  /**
   * The Korean analyser whose morphemes cut Hangul text before WordPiece or BPE when the vocabulary was learnt
   * (`tokenizer train --morphemes`, a fresh `deid train` vocabulary): training text is cut the same way.
   */
  morphemes?: string;
}

/**
 * Why a vocabulary is not data-independent under DP, or undefined: one ppmlm trained on a corpus not
 * declared public (a tokenizer with no record was made elsewhere, before the private data was seen).
 */
export function vocabularyProvenanceProblem(origin: VocabularyOrigin | undefined): string | undefined {
  return origin?.publicCorpus === false ? 'trained by ppmlm on a corpus not declared public' : undefined;
}

/** What ppmlm.json records of a vocabulary's check (`vocabularyCheck`). */
export type VocabularyCheckRecord =
  | { status: 'unchecked'; reason: 'no provenance' }
  | { status: 'public-corpus' }
  | { status: 'checked'; against: 'run blacklist' | 'training blacklist' | 'training spans'; identifiers: number; allowed?: true }
  | { status: 'unchecked'; reason: 'private corpus, no blacklist'; allowed?: true };

/** What a model export checks its vocabulary against: the run's blacklist, and whether the user overrode a refusal. */
export interface VocabularyCheck {
  blacklisted?: BlacklistedTerms;
  /** Export even when the check refuses (`--allow-vocabulary-identifiers`). */
  allowIdentifiers?: boolean;
  /** How the refusal names the override, when it is not the CLI flag. */
  override?: string;
  /** The fingerprint of the blacklist `blacklisted` came from, for the record of a tokenizer trained without its terms. */
  blacklistFingerprint?: string;
}

/** The info line of a vocabulary that nothing can be said about. */
export const UNCHECKED_VOCABULARY = 'vocabulary unchecked: no provenance (a tokenizer ppmlm did not train; its vocabulary ships as it came)';

/**
 * Decides whether a model may ship `tokenizer`'s vocabulary, by how it was made. A vocabulary ppmlm did not
 * train (a Hugging Face model's) was public before the private corpus was seen, and fine-tuning ships it
 * unchanged: accepted, with `onInfo(UNCHECKED_VOCABULARY)`. One trained on a corpus declared public: accepted.
 * One trained on a private corpus is checked against the run's blacklist (refused with
 * {@link VocabularyIdentifiersError} when a token is a term), or, without one, accepted only when it was
 * trained with a blacklist; otherwise refused with {@link PrivateVocabularyError}. `allowIdentifiers`
 * overrides a refusal, and the record says so.
 *
 * @example
 * const record = checkVocabulary(loaded.tokenizer, loaded.provenance?.vocabulary, { blacklisted }, log);
 */
export function checkVocabulary(tokenizer: Tokenizer, origin: VocabularyOrigin | undefined, check: VocabularyCheck = {}, onInfo?: (line: string) => void): VocabularyCheckRecord {
  if (origin === undefined) {
    onInfo?.(UNCHECKED_VOCABULARY);
    return { status: 'unchecked', reason: 'no provenance' };
  }
  if (origin.publicCorpus) return { status: 'public-corpus' };
  const allowed = check.allowIdentifiers === true;
  if (check.blacklisted !== undefined) {
    const identifiers = blacklistedTokens(tokenizer, check.blacklisted).length;
    if (identifiers > 0 && !allowed) throw new VocabularyIdentifiersError(identifiers, check.override);
    return { status: 'checked', against: 'run blacklist', identifiers, ...(identifiers > 0 && { allowed: true as const }) };
  }
  if (origin.blacklist !== undefined) return { status: 'checked', against: 'training blacklist', identifiers: 0 };
  if (!allowed) throw new PrivateVocabularyError(check.override);
  return { status: 'unchecked', reason: 'private corpus, no blacklist', allowed: true };
}

/**
 * What a model's ppmlm.json records about its vocabulary: where it came from (carried on to every model
 * made from it) and how this export checked it.
 *
 * @example
 * const provenance = { ...base, ...vocabularyProvenance(origin, checkVocabulary(tokenizer, origin, check)) };
 */
export function vocabularyProvenance(origin: VocabularyOrigin | undefined, record: VocabularyCheckRecord): { vocabulary?: VocabularyOrigin; vocabularyCheck: VocabularyCheckRecord } {
  return { ...(origin && { vocabulary: origin }), vocabularyCheck: record };
}

/** The model card's line for a vocabulary check, or undefined when there is nothing to say. */
export function describeVocabularyCheck(record: VocabularyCheckRecord | undefined): string | undefined {
  if (record === undefined) return undefined;
  if (record.status === 'public-corpus') return 'trained by ppmlm on a corpus declared public';
  if (record.status === 'checked') {
    return record.allowed ? `${record.identifiers} tokens are blacklisted terms (allowed by --allow-vocabulary-identifiers)` : `no token is a blacklisted term (checked against the ${record.against})`;
  }
  if (record.reason === 'no provenance') return 'unchecked: not trained by ppmlm (shipped as received)';
  return `unchecked: trained on a private corpus without a blacklist${record.allowed ? ' (allowed by --allow-vocabulary-identifiers)' : ''}`;
}
