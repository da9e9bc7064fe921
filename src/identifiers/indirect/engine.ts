import type { ContentWord } from '../../text/index.js';

/** A term with the number of distinct individuals who used it and its total count. */
export interface TermUsage {
  term: string;
  authors: number;
  occurrences: number;
}

/** Receives one rare term with its number of distinct authors and its total count. */
export type RareTermVisitor = (term: string, authors: number, occurrences: number) => void;

/** `counting` (fast, in memory), `graph` (graphology, for inspection and export), `duckdb` (out of core). */
export type EngineName = 'counting' | 'graph' | 'duckdb';

export interface EngineStats {
  /** Individuals who used at least one term. */
  authors: number;
  terms: number;
  /** Distinct (author, term) pairs: the edges of the bipartite graph. */
  edges: number;
}

/**
 * Holds the bipartite author–term relation and answers which terms fewer than k individuals used.
 * Implemented by the in-memory graphology graph and by DuckDB for corpora that outgrow memory.
 */
export interface AuthorTermEngine {
  readonly name: EngineName;
  /** Adds the terms (n-grams under the engine's options) of one document's content words for its author. */
  add(author: string, words: readonly ContentWord[]): Promise<void>;
  /**
   * Visits the terms whose number of distinct authors is below k, in no particular order (writers sort).
   * A visitor rather than a list: a corpus yields about as many rare terms as tokens, and an object per
   * term only to be copied into a blacklist entry cost ~8% of building and a fifth of its peak memory.
   */
  forEachRareTerm(k: number, visit: RareTermVisitor): Promise<void>;
  /** Usage of specific terms (authors 0 when unseen). */
  usage(terms: readonly string[]): Promise<Map<string, TermUsage>>;
  stats(): Promise<EngineStats>;
  close(): Promise<void>;
}

/** Occurrences per term of one document. */
export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
