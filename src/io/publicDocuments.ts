import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE, writeFileAtomic } from './atomic.js';
import { fingerprintKey, fingerprintKeyPath } from './fingerprint.js';

/**
 * The record of the documents of a corpus declared public (`--public-corpus`), kept with the data
 * holder's key (`public-corpora/<corpus fingerprint>.docs` beside it, mode 0600), never in an artefact's
 * folder, since an artefact may be shared. One keyed hash per document: a DP run uses it to refuse a
 * "public" artefact whose corpus overlaps the training documents, which an equal-corpus check would miss.
 */
export function publicDocumentsPath(corpusFingerprint: string): string {
  return join(dirname(fingerprintKeyPath()), 'public-corpora', `${corpusFingerprint}.docs`);
}

/** A document's keyed hash: its text with runs of white space made one space and the ends trimmed. */
export function documentKey(text: string): string {
  return createHmac('sha256', fingerprintKey()).update(text.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 16);
}

/** Records the documents of a public corpus (their keyed hashes) under its fingerprint. */
export async function recordPublicDocuments(corpusFingerprint: string, keys: Iterable<string>): Promise<string> {
  const path = publicDocumentsPath(corpusFingerprint);
  await writeFileAtomic(path, `${[...new Set(keys)].sort().join('\n')}\n`, { force: true, mode: PRIVATE_FILE_MODE });
  return path;
}

/**
 * How many of `texts` are documents of the public corpus recorded under `corpusFingerprint`, or
 * undefined when no record is here (the artefact was built elsewhere, or before records were kept).
 */
export async function publicDocumentOverlap(corpusFingerprint: string, texts: Iterable<string>): Promise<number | undefined> {
  const recorded = await readFile(publicDocumentsPath(corpusFingerprint), 'utf8').catch(() => undefined);
  if (recorded === undefined) return undefined;
  const keys = new Set(recorded.split('\n'));
  let overlap = 0;
  for (const t of texts) if (keys.has(documentKey(t))) overlap++;
  return overlap;
}
