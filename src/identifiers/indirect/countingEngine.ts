import type { AuthorTermEngine, EngineStats, TermUsage } from './engine.js';

interface Tally {
  /** Distinct authors seen, at most `cap` of them. */
  authors: string[];
  occurrences: number;
}

/**
 * The fast in-memory engine. To decide "fewer than k distinct authors" a term needs only its first k
 * distinct authors, so each term keeps at most k of them and a count: the same answers as the graph
 * (term degree < k) at a fraction of its memory and time. Counts of authors above k are reported as k.
 */
export class CountingEngine implements AuthorTermEngine {
  readonly name = 'counting';
  private readonly tallies = new Map<string, Tally>();
  private readonly authorSet = new Set<string>();
  private edgeCount = 0;

  constructor(private readonly cap: number) {}

  async add(author: string, terms: readonly string[]): Promise<void> {
    this.authorSet.add(author);
    for (const term of terms) {
      const t = this.tallies.get(term);
      if (t === undefined) {
        this.tallies.set(term, { authors: [author], occurrences: 1 });
        this.edgeCount++;
        continue;
      }
      t.occurrences++;
      if (t.authors.length < this.cap && t.authors[t.authors.length - 1] !== author && !t.authors.includes(author)) {
        t.authors.push(author);
        this.edgeCount++;
      }
    }
  }

  get size(): number {
    return this.tallies.size;
  }

  async rareTerms(k: number): Promise<TermUsage[]> {
    if (k > this.cap) throw new RangeError(`this engine counts up to ${this.cap} authors per term; cannot answer k=${k}`);
    const out: TermUsage[] = [];
    for (const [term, t] of this.tallies) if (t.authors.length < k) out.push({ term, authors: t.authors.length, occurrences: t.occurrences });
    return out;
  }

  async usage(terms: readonly string[]): Promise<Map<string, TermUsage>> {
    return new Map(terms.map((term) => {
      const t = this.tallies.get(term);
      return [term, { term, authors: t?.authors.length ?? 0, occurrences: t?.occurrences ?? 0 }];
    }));
  }

  async stats(): Promise<EngineStats> {
    return { authors: this.authorSet.size, terms: this.tallies.size, edges: this.edgeCount };
  }

  /**
   * Rows that give the same rare-term answers in SQL (distinct authors up to the cap, total count on the
   * first row), for moving to DuckDB when the map outgrows memory.
   */
  *rows(): Generator<[author: string, term: string, n: number]> {
    for (const [term, t] of this.tallies) for (let i = 0; i < t.authors.length; i++) yield [t.authors[i]!, term, i === 0 ? t.occurrences : 0];
  }

  async close(): Promise<void> {
    this.tallies.clear();
  }
}
