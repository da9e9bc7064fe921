import { keyedFingerprinter } from '../io/index.js';
import type { Document } from './types.js';

/**
 * A short keyed fingerprint of a corpus (see keyedFingerprinter: HMAC under the data holder's key), fed
 * one document at a time as it streams (id, author and text, in order): what blacklists and tokenizers
 * record of the corpus they were made from.
 *
 * @example
 * const fp = corpusFingerprinter();
 * for await (const doc of readCorpus('notes.csv')) fp.add(doc);
 * fp.digest(); // e.g. '3f9a0c2d41b7e865'
 */
export function corpusFingerprinter(): { add(doc: Document): void; digest(): string } {
  const fp = keyedFingerprinter();
  return {
    add: (doc) => fp.update(`${doc.id}\0${doc.author}\0${doc.text}\0`),
    digest: () => fp.digest(),
  };
}
