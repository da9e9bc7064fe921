import { UsageError } from '../../errors.js';
import type { ContentWord, NgramOptions } from '../../text/index.js';
import type { AuthorTermEngine, EngineStats, RareTermVisitor, TermUsage } from './engine.js';
import { PAYLOAD, TermTable } from './termTable.js';

/**
 * The fast in-memory engine. To decide "fewer than k distinct authors" a term needs only its first k
 * distinct authors, so each term keeps at most k author ids and a count: the same answers as the graph
 * (term degree < k) at a fraction of its memory and time. Counts of authors above k are reported as k.
 * Terms are ids of a {@link TermTable}; their strings are built only for the answers.
 */
export class CountingEngine implements AuthorTermEngine {
  readonly name = 'counting';
  /** The largest k this engine answers: each term keeps k author ids. */
  static readonly MAX_K = 255;
  private readonly authorIds = new Map<string, number>();
  private readonly authorNames: string[] = [];
  /** Slot payload: occurrences (0 for a prefix that is not itself a term), distinct authors, author ids. */
  private readonly table: TermTable;
  private terms = 0;
  private edgeCount = 0;

  constructor(
    private readonly cap: number,
    private readonly ngrams: NgramOptions = {},
  ) {
    if (!Number.isInteger(cap) || cap < 1 || cap > CountingEngine.MAX_K) throw new UsageError(`k=${cap}: the counting engine answers k from 1 to ${CountingEngine.MAX_K}; use --engine duckdb or graph`);
    this.table = new TermTable(2 + cap);
  }

  async add(author: string, words: readonly ContentWord[]): Promise<void> {
    const terms = this.table.documentTerms(words, this.ngrams);
    if (terms.length === 0) return;
    let a = this.authorIds.get(author);
    if (a === undefined) {
      a = this.authorNames.length;
      this.authorIds.set(author, a);
      this.authorNames.push(author);
    }
    const slots = this.table.slots;
    const cap = this.cap;
    for (let j = 0; j < terms.length; j++) {
      const at = terms[j]! + PAYLOAD;
      const occurrences = slots[at]!;
      if (occurrences === 0) this.terms++;
      if (occurrences !== 0x7fffffff) slots[at] = occurrences + 1;
      const count = slots[at + 1]!;
      if (count === cap) continue;
      let seen = false;
      for (let s = count - 1; s >= 0 && !seen; s--) seen = slots[at + 2 + s] === a;
      if (seen) continue;
      slots[at + 2 + count] = a;
      slots[at + 1] = count + 1;
      this.edgeCount++;
    }
  }

  /** Trie nodes held (terms and their prefixes): what the engine's memory grows with. */
  get size(): number {
    return this.table.size;
  }

  /** Distinct words, which live in a Map and so are bound by V8's 2^24 entries. */
  get words(): number {
    return this.table.words;
  }

  private usageAt(at: number): TermUsage {
    const slots = this.table.slots;
    return { term: this.table.termAt(at), authors: slots[at + PAYLOAD + 1]!, occurrences: slots[at + PAYLOAD]! };
  }

  async forEachRareTerm(k: number, visit: RareTermVisitor): Promise<void> {
    if (k > this.cap) throw new RangeError(`this engine counts up to ${this.cap} authors per term; cannot answer k=${k}`);
    const { slots, stride } = this.table;
    // Free slots and prefixes that are not terms have 0 occurrences.
    for (let at = 0; at < slots.length; at += stride) if (slots[at + PAYLOAD]! > 0 && slots[at + PAYLOAD + 1]! < k) visit(this.table.termAt(at), slots[at + PAYLOAD + 1]!, slots[at + PAYLOAD]!);
  }

  async usage(terms: readonly string[]): Promise<Map<string, TermUsage>> {
    const slots = this.table.slots;
    return new Map(terms.map((term) => {
      const at = this.table.lookup(term);
      return [term, at >= 0 && slots[at + PAYLOAD]! > 0 ? this.usageAt(at) : { term, authors: 0, occurrences: 0 }];
    }));
  }

  async stats(): Promise<EngineStats> {
    return { authors: this.authorNames.length, terms: this.terms, edges: this.edgeCount };
  }

  /**
   * Rows that give the same rare-term answers in SQL (distinct authors up to the cap, total count on the
   * first row), for moving to DuckDB when the table outgrows memory.
   */
  *rows(): Generator<[author: string, term: string, n: number]> {
    const slots = this.table.slots;
    for (const at of this.table.occupied()) {
      const occurrences = slots[at + PAYLOAD]!;
      if (occurrences === 0) continue;
      const term = this.table.termAt(at);
      for (let s = 0; s < slots[at + PAYLOAD + 1]!; s++) yield [this.authorNames[slots[at + PAYLOAD + 2 + s]!]!, term, s === 0 ? occurrences : 0];
    }
  }

  async close(): Promise<void> {
    this.table.clear();
  }
}
