import { contentWords, plainContentWords, type ContentWord, type MorphAnalyzer } from '../../text/index.js';
import type { BlacklistEntry } from './types.js';

/** An occurrence of a blacklisted term: characters [start, end) of the text. */
export interface TermMatch {
  start: number;
  end: number;
  /** Index of the entry in the list the matcher was built from. */
  entry: number;
}

/**
 * Finds every occurrence of blacklisted terms in a text: a trie over words, walked with every partial match
 * alive. Texts are cut into content words exactly as terms were built (segmentation, NFKC + case folding,
 * Korean particles split off), so a term matches at word boundaries only and `홍길동` is found in
 * `홍길동이`. A Korean word also offers its other readings (see {@link ContentWord.readings}: up to a
 * later morpheme boundary, whole, less a particle by rule), and every word of a term, the first, last or
 * only one, may match any of them: `민예하 서시은` is found in `민예하 서시은이` although mecab reads 민예 + 하
 * and 서 + 시은 + 이.
 * Several readings per word are why this is not Aho-Corasick, whose failure links assume one symbol per
 * position; the work per word is bounded by the readings times the partial matches alive, which no term
 * longer than the longest one can extend. Overlapping matches are all reported, by start, longest first.
 *
 * @example
 * const m = new BlacklistMatcher(list.entries);
 * const spans = await m.match('Alice Smith called 555-0100', analyzer);
 */
export class BlacklistMatcher {
  private readonly wordIds = new Map<string, number>();
  private readonly children: Map<number, number>[] = [new Map()];
  private readonly depth: number[] = [0];
  /** Entries whose word sequence ends at this node. */
  private readonly terms: number[][] = [[]];
  readonly size: number;

  constructor(entries: readonly Pick<BlacklistEntry, 'term'>[]) {
    this.size = entries.length;
    entries.forEach((entry, index) => {
      const words = termWords(entry.term);
      if (words.length === 0) return;
      let node = 0;
      for (const w of words) {
        let id = this.wordIds.get(w);
        if (id === undefined) {
          id = this.wordIds.size;
          this.wordIds.set(w, id);
        }
        let next = this.children[node]!.get(id);
        if (next === undefined) {
          next = this.children.length;
          this.children.push(new Map());
          this.depth.push(this.depth[node]! + 1);
          this.terms.push([]);
          this.children[node]!.set(id, next);
        }
        node = next;
      }
      this.terms[node]!.push(index);
    });
  }

  /** Matches over words already cut by {@link contentWords} (with their `readings`). */
  matchWords(words: readonly ContentWord[]): TermMatch[] {
    const out: TermMatch[] = [];
    /** Trie nodes of the partial matches that end at the previous word, deepest (earliest start) first. */
    let alive: number[] = [];
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const next: number[] = [];
      if (word.readings === undefined) {
        // One reading: walking the deepest partial matches first keeps both lists in order.
        this.step(words, i, word.norm, word.end, alive, next, out);
      } else {
        const found: TermMatch[] = [];
        this.step(words, i, word.norm, word.end, alive, next, found);
        for (const reading of word.readings) this.step(words, i, reading.norm, reading.end, alive, next, found);
        found.sort((x, y) => x.start - y.start || y.end - x.end);
        next.sort((x, y) => this.depth[y]! - this.depth[x]!);
        out.push(...found);
      }
      alive = next;
    }
    return out;
  }

  /** Extends each partial match in `alive`, and a new one at the root, by word `i` read as `norm`. */
  private step(words: readonly ContentWord[], i: number, norm: string, end: number, alive: readonly number[], next: number[], found: TermMatch[]): void {
    const id = this.wordIds.get(norm);
    if (id === undefined) return;
    for (let a = 0; a <= alive.length; a++) {
      const node = this.children[a === alive.length ? 0 : alive[a]!]!.get(id);
      if (node === undefined) continue;
      next.push(node);
      const terms = this.terms[node]!;
      if (terms.length === 0) continue;
      const start = words[i - this.depth[node]! + 1]!.start;
      for (const entry of terms) found.push({ start, end, entry });
    }
  }

  /** All occurrences in `text`; `analyzer` is needed for Korean texts. */
  async match(text: string, analyzer?: MorphAnalyzer): Promise<TermMatch[]> {
    if (this.size === 0) return [];
    return this.matchWords(await contentWords(text, analyzer, { readings: true }));
  }
}

/**
 * The words of a stored term. Terms are stored already cut to content words (builders produce them from
 * {@link contentWords}), so they are only segmented and normalised here, never re-analysed.
 */
export function termWords(term: string): string[] {
  return plainContentWords(term).map((w) => w.norm);
}

/** Sorted, non-overlapping character spans covering all matches. */
export function mergeSpans(matches: readonly { start: number; end: number }[]): [number, number][] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: [number, number][] = [];
  for (const m of sorted) {
    const last = out.at(-1);
    if (last !== undefined && m.start <= last[1]) last[1] = Math.max(last[1], m.end);
    else out.push([m.start, m.end]);
  }
  return out;
}
