import { normalizeTerm, withoutAccents } from '../text/index.js';
import { fromByteLevel } from './byteLevel.js';
import type { Tokenizer } from './types.js';

/**
 * The form terms and tokens are compared in: accents stripped (NFD without combining marks), then NFKC and
 * case folding. A tokenizer that strips accents holds "jose" for "José", and one that decomposes Hangul
 * holds jamo sequences for "김민서"; both compare equal to the blacklisted term here (recomposed by NFKC).
 * Stripping errs towards refusing: a term and a different word that differ only in accents match.
 */
const comparable = (s: string) => normalizeTerm(withoutAccents(s));

/**
 * Blacklisted words and numbers in the form vocabulary tokens are compared in (see {@link comparable}), so
 * an uncased WordPiece token, an accent-stripped one and a cased BPE token all compare. Only terms of more
 * than one character count: single characters spell every word and cannot be left out.
 *
 * @example
 * const terms = new BlacklistedTerms(['john', 'mrn 12345', '12345']);
 * terms.has('John'); // true
 */
export class BlacklistedTerms {
  private readonly terms: ReadonlySet<string>;

  constructor(terms: Iterable<string>) {
    const words = new Set<string>();
    // A token never holds whitespace, so multi-word terms cannot equal one; their words alone are not identifiers.
    for (const t of terms) {
      const term = comparable(t);
      if (!/\s/u.test(term) && [...term].length > 1) words.add(term);
    }
    this.terms = words;
  }

  get size(): number {
    return this.terms.size;
  }

  /** Whether a token's surface (its text without `##` or leading space) is a blacklisted term. */
  has(surface: string): boolean {
    return this.terms.has(comparable(surface));
  }
}

/**
 * The text a vocabulary token stands for: WordPiece continuation pieces without their prefix (`##smith`
 * spells `smith`), byte-level BPE tokens decoded and without the leading space they carry.
 */
export function tokenSurface(type: Tokenizer['type'], token: string, continuingPrefix = '##'): string {
  if (type === 'bpe') return fromByteLevel(token).trim();
  return token.startsWith(continuingPrefix) ? token.slice(continuingPrefix.length) : token;
}

/** The vocabulary tokens (special tokens aside) whose surface is a blacklisted term; empty when none. */
export function blacklistedTokens(tokenizer: Tokenizer, terms: BlacklistedTerms): string[] {
  const found: string[] = [];
  if (terms.size === 0) return found;
  for (let id = 0; id < tokenizer.vocabSize; id++) {
    const token = tokenizer.tokenOf(id);
    if (!tokenizer.specialIds.has(id) && terms.has(tokenSurface(tokenizer.type, token))) found.push(token);
  }
  return found;
}

/**
 * A text to learn a vocabulary from, with the spans no merge may be learned from: a blacklist's protected
 * occurrences, or gold identifier spans. Refusing only a token that equals a blacklisted word is not
 * enough: the trainer then learns the word less its first letter (`##konkwo`, `##649695`), which spells it.
 * Words touching a protected span still bring their characters to the alphabet, so they stay spelled.
 */
export type TrainingText = string | { text: string; protect: readonly { start: number; end: number }[] };

/**
 * A test of whether a pre-token, by its characters' [start, end) in the original text, touches one of a
 * text's protected spans: a binary search over the spans by start, with the furthest end reached so far,
 * so that a long document with many matches costs a logarithm per word, not a scan.
 */
export function touchesProtected(protect: readonly { start: number; end: number }[]): (starts: readonly number[], ends: readonly number[]) => boolean {
  const sorted = [...protect].sort((a, b) => a.start - b.start);
  const reach: number[] = [];
  for (const [i, p] of sorted.entries()) reach.push(Math.max(p.end, reach[i - 1] ?? -Infinity));
  return (starts, ends) => {
    if (sorted.length === 0 || starts.length === 0) return false;
    let [from, to] = [Infinity, -Infinity];
    for (let i = 0; i < starts.length; i++) [from, to] = [Math.min(from, starts[i]!), Math.max(to, ends[i]!)];
    // The last span that starts before the pre-token ends; it or one before it reaches past its start.
    let [lo, hi] = [0, sorted.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.start < to) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && reach[lo - 1]! > from;
  };
}

