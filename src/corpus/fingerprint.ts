import { createHash } from 'node:crypto';
import type { Document } from './types.js';

/**
 * A short fingerprint of a corpus, fed one document at a time as it streams (id, author and text, in order):
 * what blacklists and tokenizers record of the corpus they were made from.
 *
 * @example
 * const fp = corpusFingerprinter();
 * for await (const doc of readCorpus('notes.csv')) fp.add(doc);
 * fp.digest(); // e.g. '3f9a0c2d41b7e865'
 */
export function corpusFingerprinter(): { add(doc: Document): void; digest(): string } {
  const hash = createHash('sha256');
  return {
    add: (doc) => void hash.update(`${doc.id}\0${doc.author}\0${doc.text}\0`),
    digest: () => hash.digest('hex').slice(0, 16),
  };
}
