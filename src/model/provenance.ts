import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeUtf8Strict, parseJson } from '../io/index.js';
import type { VocabularyCheckRecord, VocabularyOrigin } from './vocabularyCheck.js';

/**
 * ppmlm.json: how a model was made. It names the blacklist only by fingerprint: a model export never
 * contains identifiers.
 */
export interface Provenance {
  ppmlm: string;
  createdAt: string;
  strategy?: string;
  blacklistFingerprint?: string;
  epochs?: number;
  seed?: number;
  /** Mean training loss of each epoch of the run that wrote the folder. */
  lossByEpoch?: number[];
  /** How the vocabulary was made, when ppmlm trained it; carried on to every model made from it. */
  vocabulary?: VocabularyOrigin;
  /** How this folder's export checked its vocabulary (model/vocabularyCheck.ts). */
  vocabularyCheck?: VocabularyCheckRecord;
  /** A DP run's guarantee (privacy/plan.ts DpRecord): epsilon per `unit` (author = individual, or window). */
  dp?: { unit: string; epsilon: number; delta: number; individuals: number; noiseMultiplier: number; clip: number; sampleRate: number; releases: number; accountant: string; secureNoise: boolean; privatePreprocessing?: string[] };
  [key: string]: unknown;
}

/** Writes ppmlm.json; it names the blacklist only by fingerprint (see {@link Provenance}). */
export const writeProvenance = (dir: string, provenance: Provenance) => writeFile(join(dir, 'ppmlm.json'), `${JSON.stringify(provenance, null, 2)}\n`);

/**
 * A folder's ppmlm.json (a model's, or a tokenizer's from `tokenizer train`), or undefined when it has none:
 * a folder ppmlm did not write.
 */
export async function readProvenance(dir: string): Promise<Provenance | undefined> {
  const path = join(dir, 'ppmlm.json');
  const bytes = await readFile(path).catch(() => undefined);
  if (bytes === undefined) return undefined;
  return parseJson(decodeUtf8Strict(bytes, path), path, 'ppmlm.json is damaged; delete it to treat the folder as made elsewhere') as Provenance;
}
