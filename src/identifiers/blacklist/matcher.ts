import { contentWords, normalizeTerm, segmentWords, type ContentWord, type MorphAnalyzer } from '../../text/index.js';
import type { BlacklistEntry } from './types.js';

/** An occurrence of a blacklisted term: characters [start, end) of the text. */
export interface TermMatch {
  start: number;
  end: number;
  /** Index of the entry in the list the matcher was built from. */
  entry: number;
}

/**
 * Finds every occurrence of blacklisted terms in a text, in time linear in the number of words plus
 * matches: an Aho-Corasick automaton over words rather than characters. Texts are cut into content words
 * exactly as terms were built (segmentation, NFKC + case folding, Korean particles split off), so a term
 * matches at word boundaries only and `홍길동` is found in `홍길동이`. Overlapping matches are all reported.
 *
 * @example
 * const m = new BlacklistMatcher(list.entries);
 * const spans = await m.match('Alice Smith called 555-0100', analyzer);
 */
export class BlacklistMatcher {
  private readonly wordIds = new Map<string, number>();
  private readonly children: Map<number, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  private readonly depth: number[] = [0];
  /** Entries whose word sequence ends at this node. */
  private readonly terms: number[][] = [[]];
  /** Nearest node on the fail chain that has terms (0 = none). */
  private readonly outLink: number[] = [0];
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
          this.fail.push(0);
          this.depth.push(this.depth[node]! + 1);
          this.terms.push([]);
          this.outLink.push(0);
          this.children[node]!.set(id, next);
        }
        node = next;
      }
      this.terms[node]!.push(index);
    });
    this.link();
  }

  private link(): void {
    const queue: number[] = [];
    for (const child of this.children[0]!.values()) queue.push(child);
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q]!;
      for (const [word, child] of this.children[node]!) {
        let f = this.fail[node]!;
        while (f !== 0 && !this.children[f]!.has(word)) f = this.fail[f]!;
        const target = this.children[f]!.get(word);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        const fc = this.fail[child]!;
        this.outLink[child] = this.terms[fc]!.length > 0 ? fc : this.outLink[fc]!;
        queue.push(child);
      }
    }
  }

  /**
   * Matches over words already cut by {@link contentWords}. A one-word term also matches a longer reading
   * of a cut word (the blacklisted name 민예하 in 민예하는, which the analyser reads as 민예 + 하 + 는).
   */
  matchWords(words: readonly ContentWord[]): TermMatch[] {
    const out: TermMatch[] = [];
    let state = 0;
    for (let i = 0; i < words.length; i++) {
      for (const reading of words[i]!.longer ?? []) {
        const id = this.wordIds.get(reading.norm);
        const single = id === undefined ? undefined : this.children[0]!.get(id);
        if (single !== undefined) for (const entry of this.terms[single]!) out.push({ start: words[i]!.start, end: reading.end, entry });
      }
      const id = this.wordIds.get(words[i]!.norm);
      if (id === undefined) {
        state = 0;
        continue;
      }
      while (state !== 0 && !this.children[state]!.has(id)) state = this.fail[state]!;
      state = this.children[state]!.get(id) ?? 0;
      for (let node = this.terms[state]!.length > 0 ? state : this.outLink[state]!; node !== 0; node = this.outLink[node]!) {
        const start = words[i - this.depth[node]! + 1]!.start;
        for (const entry of this.terms[node]!) out.push({ start, end: words[i]!.end, entry });
      }
    }
    return out;
  }

  /** All occurrences in `text`; `analyzer` is needed for Korean texts. */
  async match(text: string, analyzer?: MorphAnalyzer): Promise<TermMatch[]> {
    if (this.size === 0) return [];
    return this.matchWords(await contentWords(text, analyzer, { longer: true }));
  }
}

/**
 * The words of a stored term. Terms are stored already cut to content words (builders produce them from
 * {@link contentWords}), so they are only segmented and normalised here, never re-analysed.
 */
export function termWords(term: string): string[] {
  return segmentWords(term).map((w) => normalizeTerm(w.surface));
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
