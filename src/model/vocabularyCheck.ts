import { VocabularyIdentifiersError } from '../errors.js';
import { blacklistedTokens, type BlacklistedTerms, type Tokenizer } from '../tokenizer/index.js';

/** What a model export checks its vocabulary against: the run's blacklist, and whether the user overrode it. */
export interface VocabularyCheck {
  blacklisted: BlacklistedTerms;
  /** Export even when vocabulary tokens are blacklisted terms (`--allow-vocabulary-identifiers`). */
  allowIdentifiers?: boolean;
  /** How the refusal names the override, when it is not the CLI flag. */
  override?: string;
}

/**
 * How many vocabulary tokens are blacklisted terms; throws {@link VocabularyIdentifiersError} when there are
 * any and the check does not allow them. The vocabulary is part of the shared model, so a tokenizer trained
 * on the private corpus without `--blacklist` would publish its names and numbers.
 *
 * @example
 * checkVocabulary(tokenizer, { blacklisted: new BlacklistedTerms(entries.map((e) => e.term)) });
 */
export function checkVocabulary(tokenizer: Tokenizer, check: VocabularyCheck | undefined): number {
  if (check === undefined) return 0;
  const count = blacklistedTokens(tokenizer, check.blacklisted).length;
  if (count > 0 && check.allowIdentifiers !== true) throw new VocabularyIdentifiersError(count, check.override);
  return count;
}

/**
 * What a model's provenance records about its vocabulary: the override and how many tokens it let through,
 * or nothing when the vocabulary held no blacklisted term.
 *
 * @example
 * const provenance = { ...base, ...vocabularyProvenance(checkVocabulary(tokenizer, check)) };
 */
export function vocabularyProvenance(count: number): { allowVocabularyIdentifiers?: true; vocabularyIdentifiers?: number } {
  return count > 0 ? { allowVocabularyIdentifiers: true, vocabularyIdentifiers: count } : {};
}
