import { createHash } from 'node:crypto';
import { UsageError } from '../errors.js';
import type { Document } from './types.js';

/** A corpus cut in two along individuals: no author has documents on both sides. */
export interface AuthorSplit {
  train: Document[];
  heldOut: Document[];
}

/**
 * Holds out a share of the **individuals** (the author column) with all their documents, so an evaluation
 * never scores text of someone the model was trained on. Which authors go is decided by a seeded hash of
 * each author name, not by document order: the same seed picks the same people however the corpus is
 * sorted. At least one author lands on each side; fewer than two authors is a UsageError.
 *
 * @example
 * const { train, heldOut } = splitByAuthor(docs, 0.1, 42);
 */
export function splitByAuthor(docs: readonly Document[], share: number, seed: number): AuthorSplit {
  if (!(share > 0 && share < 1)) throw new UsageError(`the held-out share must be between 0 and 1 (exclusive), got ${share}`);
  const authors = [...new Set(docs.map((d) => d.author))];
  if (authors.length < 2) throw new UsageError(`holding out individuals needs at least 2 authors, the corpus has ${authors.length}; pass --author-col or give a separate evaluation corpus`);
  const rank = (author: string) => createHash('sha256').update(`${seed}\u0000${author}`).digest('hex');
  const ranked = authors.map((a) => [rank(a), a] as const).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const count = Math.min(authors.length - 1, Math.max(1, Math.round(share * authors.length)));
  const held = new Set(ranked.slice(0, count).map(([, a]) => a));
  return { train: docs.filter((d) => !held.has(d.author)), heldOut: docs.filter((d) => held.has(d.author)) };
}

/**
 * Whether a corpus of several documents was read without authors: each document its own author, as a
 * corpus read without an author column is. "Per individual" would then mean per document.
 */
export function withoutAuthors(docs: readonly Document[]): boolean {
  return docs.length > 1 && docs.every((d) => d.author === d.id);
}
