import { FormatError } from '../errors.js';
import type { Document } from './types.js';
import { DEFAULT_MAX_DOC_CHARS } from './types.js';

export function makeDocument(id: string, author: string, text: string, label: string | undefined): Document {
  return label === undefined ? { id, author, text } : { id, author, text, label };
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
