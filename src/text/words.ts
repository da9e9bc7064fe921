import { isFunctionalTag, splitParticle, type MorphAnalyzer } from './korean/index.js';
import { normalizeTerm, withoutPossessive } from './normalize.js';
import { isHangulWord, segmentWords, type WordSpan } from './segment.js';

/** A content word: a word with Korean particles and endings cut off, plus its normalised form (without an English possessive). */
export interface ContentWord extends WordSpan {
  norm: string;
  /**
   * For a Korean word, its other readings, normalised, with where each ends: the word up to each morpheme
   * boundary after the cut and whole (민예하는 → 민예하, 민예하는: the analyser cuts more than particles, 민예
   * + 하 + 는), and the word less an agreeing particle by rule (수서도의 → 수서도, which mecab reads as 수서
   * + 도의). A name written whole in a blacklist must still find the word.
   */
  readings?: { norm: string; end: number }[];
}

/**
 * The words of a text as terms are built from them: segmented for any script, normalised, and for Korean
 * cut to their content morphemes (홍길동이 → 홍길동) by `analyzer`. Texts without Hangul never reach the
 * analyser. `readings` also records each Korean word's other readings (see {@link ContentWord.readings}),
 * which only term matching needs: building terms skips that work.
 */
export async function contentWords(text: string, analyzer?: MorphAnalyzer, { readings = false } = {}): Promise<ContentWord[]> {
  if (analyzer === undefined || !isHangulWord(text)) return plainContentWords(text);
  const words = segmentWords(text);
  const morphemes = await analyzer.analyze(text);
  const out: ContentWord[] = [];
  let m = 0;
  for (const w of words) {
    if (!isHangulWord(w.surface)) {
      out.push(withNorm(w));
      continue;
    }
    while (m < morphemes.length && morphemes[m]!.end <= w.start) m++;
    let end = -1;
    let k = m;
    for (; k < morphemes.length && morphemes[k]!.start < w.end; k++) {
      const morph = morphemes[k]!;
      if (morph.start < w.start || morph.end > w.end) continue;
      // A word never starts with a particle; stock mecab (no mecab-ko space penalty) sometimes says so.
      if (isFunctionalTag(morph.tag) && end !== -1) break;
      end = morph.end;
    }
    if (end === -1) end = w.end;
    const surface = text.slice(w.start, end);
    const word: ContentWord = { start: w.start, end, surface, kind: w.kind, norm: normalizeTerm(surface) };
    if (readings) {
      const other = otherReadings(text, w, end, morphemes, k);
      if (other.length > 0) word.readings = other;
    }
    out.push(word);
  }
  return out;
}

/** The word `w` up to each morpheme boundary from morpheme `k` on and whole, and less a particle by rule; not `cut`. */
function otherReadings(text: string, w: WordSpan, cut: number, morphemes: readonly { start: number; end: number }[], k: number): { norm: string; end: number }[] {
  const ends = new Set<number>();
  if (cut < w.end) {
    for (; k < morphemes.length && morphemes[k]!.start < w.end; k++) if (morphemes[k]!.end <= w.end) ends.add(morphemes[k]!.end);
    ends.add(w.end);
  }
  ends.add(w.start + splitParticle(w.surface)[0].length);
  ends.delete(cut);
  return [...ends].map((end) => ({ norm: normalizeTerm(text.slice(w.start, end)), end }));
}

/** The content words of a text read without an analyser: segmented and normalised. */
export function plainContentWords(text: string): ContentWord[] {
  return segmentWords(text).map(withNorm);
}

/**
 * A word's normal form, without an English possessive ({@link withoutPossessive}): "London's" is the term
 * London. The word keeps its characters (St. Mary's is protected whole).
 */
function withNorm(w: WordSpan): ContentWord {
  (w as ContentWord).norm = normalizeTerm(withoutPossessive(w.surface));
  return w as ContentWord;
}

export interface NgramOptions {
  /** Shortest and longest n-gram, in words (default 1–3). */
  min?: number;
  max?: number;
  /** Skip n-grams made only of numbers (default true). */
  ignoreNumbers?: boolean;
  /** Shortest term in characters (default 2). */
  minLength?: number;
  /**
   * When set, an n-gram of two or more words is a term only if one of its words is an anchor (its
   * normalised form passes): n-grams of common words alone are not terms. Unigrams are unaffected.
   */
  anchor?: (norm: string) => boolean;
  /**
   * With `anchor`, every word of such an n-gram must pass this too: "dr marder" and "robert v degiorgio"
   * are terms, "dr marder aware" is not (its last word adds text, not identification).
   */
  nameLike?: (norm: string) => boolean;
}

/** {@link NgramOptions} with the defaults filled in. */
export type NgramRule = Required<Omit<NgramOptions, 'anchor' | 'nameLike'>> & Pick<NgramOptions, 'anchor' | 'nameLike'>;

export interface Ngram {
  /** Normalised words joined by one space: the form stored in blacklists. */
  term: string;
  start: number;
  end: number;
}

/** Every n-gram of consecutive content words, with its character span. */
export function* wordNgrams(words: readonly ContentWord[], options: NgramOptions = {}): Generator<Ngram> {
  const starts: number[] = [];
  const ends: number[] = [];
  const terms = ngramTerms(words, options, starts, ends);
  for (let k = 0; k < terms.length; k++) yield { term: terms[k]!, start: starts[k]!, end: ends[k]! };
}

/** {@link NgramOptions} with their defaults filled in. */
export function resolveNgramOptions(options: NgramOptions): NgramRule {
  const { min = 1, max = 3, ignoreNumbers = true, minLength = 2, anchor, nameLike } = options;
  return { min, max, ignoreNumbers, minLength, anchor, nameLike };
}

/**
 * Whether a run of n words, `chars` characters long with the words joined by single spaces, is a term:
 * at least `min` words, at least `minLength` characters, not only numbers (unless numbers are kept), and
 * holding an anchor word, all its words name-like, when the rule has anchors and n > 1.
 */
export function isNgramTerm(rule: NgramRule, n: number, chars: number, allNumbers: boolean, anchored = true): boolean {
  return n >= rule.min && chars >= rule.minLength && !(rule.ignoreNumbers && allNumbers) && (n === 1 || rule.anchor === undefined || anchored);
}

/** Whether a word may sit in an anchored n-gram: anchor rule's `nameLike`, or any word without one. */
export function nameLikeWord(rule: NgramRule, norm: string): boolean {
  return rule.nameLike === undefined || rule.nameLike(norm);
}

/**
 * Visits every run of n consecutive words (n = 1..max) starting at word i, in order of i then n, and says
 * whether it is a term ({@link isNgramTerm}). Runs that are not terms are visited too, so that callers
 * can build each n-gram from the one before it.
 */
export function visitNgrams(words: readonly ContentWord[], options: NgramOptions, visit: (i: number, n: number, isTerm: boolean) => void): void {
  const rule = resolveNgramOptions(options);
  for (let i = 0; i < words.length; i++) {
    let chars = -1;
    let allNumbers = true;
    let anchored = false;
    let nameLike = true;
    for (let n = 1; n <= rule.max && i + n <= words.length; n++) {
      const w = words[i + n - 1]!;
      chars += w.norm.length + 1;
      allNumbers &&= w.kind === 'number';
      if (rule.anchor !== undefined && !anchored) anchored = rule.anchor(w.norm);
      if (rule.anchor !== undefined && nameLike) nameLike = nameLikeWord(rule, w.norm);
      visit(i, n, isNgramTerm(rule, n, chars, allNumbers, anchored && nameLike));
    }
  }
}

/**
 * The terms of {@link wordNgrams} as plain strings, in the same order; span starts and ends go to the
 * optional arrays.
 */
export function ngramTerms(words: readonly ContentWord[], options: NgramOptions = {}, starts?: number[], ends?: number[]): string[] {
  const out: string[] = [];
  let term = '';
  visitNgrams(words, options, (i, n, isTerm) => {
    const w = words[i + n - 1]!;
    term = n === 1 ? w.norm : `${term} ${w.norm}`;
    if (!isTerm) return;
    out.push(term);
    starts?.push(words[i]!.start);
    ends?.push(w.end);
  });
  return out;
}
