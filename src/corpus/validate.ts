import { FormatError } from '../errors.js';
import type { Document } from './types.js';
import { DEFAULT_MAX_DOC_CHARS } from './types.js';

/**
 * A document from a row's cells. The one author rule of every format: a missing, null or blank author
 * makes the document its own author (author = id). An empty cell must not become the author "", one
 * "individual" holding every such row, whose DP unit, author-term graph and audit would merge strangers.
 */
export function makeDocument(id: string, author: string | null | undefined, text: string, label: string | undefined): Document {
  const who = author === null || author === undefined || author.trim() === '' ? id : author;
  return label === undefined ? { id, author: who, text } : { id, author: who, text, label };
}

/** A document candidate with where it came from, before the checks every format shares. */
export interface RawRecord {
  doc: Document;
  file: string;
  line: number;
}

/**
 * The checks every reader applies: non-empty text, bounded length, unique ids.
 * Returns the error instead of throwing so readers decide between skip and fail.
 */
export class DocumentChecker {
  /** The line of each id seen (messages name positions, never ids: an id may itself identify someone). */
  private readonly seen = new Map<string, number>();

  constructor(private readonly maxDocChars = DEFAULT_MAX_DOC_CHARS) {}

  check({ doc, file, line }: RawRecord): FormatError | undefined {
    if (doc.text.trim().length === 0) {
      return new FormatError('the document has empty text; remove the row or pass --skip-bad-rows', { file, line });
    }
    if (doc.text.length > this.maxDocChars) {
      return new FormatError(
        `the document has ${doc.text.length} characters, over the limit of ${this.maxDocChars}; split it or raise --max-doc-chars`,
        { file, line },
      );
    }
    if (this.seen.has(doc.id)) {
      return new FormatError(`duplicate id (first on line ${this.seen.get(doc.id)}); ids must be unique (fix the id column or pass --skip-bad-rows)`, { file, line });
    }
    this.seen.set(doc.id, line);
    return undefined;
  }
}
