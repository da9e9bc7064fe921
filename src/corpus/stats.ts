import type { Document } from './types.js';

export interface CorpusStats {
  documents: number;
  authors: number;
  characters: number;
  /** Histogram of documents per author: bucket label ("1", "2", "3-5", ...) → number of authors. */
  documentsPerAuthor: Record<string, number>;
  labels: Record<string, number>;
  /** Rows skipped with --skip-bad-rows. */
  skipped: number;
}

const BUCKETS: [number, number, string][] = [
  [1, 1, '1'],
  [2, 2, '2'],
  [3, 5, '3-5'],
  [6, 10, '6-10'],
  [11, 20, '11-20'],
  [21, 50, '21-50'],
  [51, 100, '51-100'],
  [101, Infinity, '>100'],
];

/** One pass over a corpus; memory grows with the number of authors, not documents. */
export async function corpusStats(docs: AsyncIterable<Document> | Iterable<Document>, skipped: () => number = () => 0): Promise<CorpusStats> {
  const perAuthor = new Map<string, number>();
  const labels: Record<string, number> = {};
  let documents = 0;
  let characters = 0;
  for await (const doc of docs) {
    documents++;
    characters += doc.text.length;
    perAuthor.set(doc.author, (perAuthor.get(doc.author) ?? 0) + 1);
    if (doc.label !== undefined) labels[doc.label] = (labels[doc.label] ?? 0) + 1;
  }
  const documentsPerAuthor: Record<string, number> = {};
  for (const [, , name] of BUCKETS) documentsPerAuthor[name] = 0;
  for (const n of perAuthor.values()) {
    const bucket = BUCKETS.find(([lo, hi]) => n >= lo && n <= hi)!;
    documentsPerAuthor[bucket[2]]!++;
  }
  return { documents, authors: perAuthor.size, characters, documentsPerAuthor, labels, skipped: skipped() };
}
