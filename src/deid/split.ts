/**
 * The split of a de-identification model's documents into train, dev and test parts: drawn from a seed and
 * shares, recorded in ppmlm.json by fingerprints, drawn again to find a part. Light on purpose: the CLI
 * reads its default without loading the trainer.
 */
import type { AnnotatedDocument } from './annotated.js';
import { Rng } from '../engine/random.js';
import { UsageError } from '../errors.js';
import { keyedFingerprint } from '../io/fingerprint.js';

/** Documents drawn into training, development and test parts. */
export interface Split<T extends { id: string } = AnnotatedDocument> {
  train: T[];
  dev: T[];
  test: T[];
}

/** A seeded split of documents by shares (e.g. 80/10/10). */
export function splitDocuments<T extends { id: string }>(docs: readonly T[], shares: SplitShares, seed: number): Split<T> {
  const total = shares[0] + shares[1] + shares[2];
  const order = new Rng(seed).shuffle([...docs].sort((a, b) => (a.id < b.id ? -1 : 1)));
  const nTrain = Math.round((order.length * shares[0]) / total);
  const nDev = Math.round((order.length * shares[1]) / total);
  return { train: order.slice(0, nTrain), dev: order.slice(nTrain, nTrain + nDev), test: order.slice(nTrain + nDev) };
}

/** The split `deid train` makes unless `--split` says otherwise. */
export const DEFAULT_SPLIT = '80/10/10';

/** Train/dev/test shares, e.g. [80, 10, 10]. */
export type SplitShares = [number, number, number];

/**
 * What ppmlm.json records of a split: how to draw it again and a fingerprint of each part's ids, never the
 * ids themselves (a judgment's id can be its case number, and the model folder is shared).
 */
export interface SplitRecord {
  seed: number;
  shares: SplitShares;
  documents: { train: number; dev: number; test: number };
  fingerprints: { train: string; dev: string; test: string };
}

const PARTS = ['train', 'dev', 'test'] as const;
const partFingerprint = (docs: readonly { id: string }[]) => keyedFingerprint(docs.map((d) => d.id).sort());

/** What ppmlm.json records of a split drawn from `seed` and `shares`. */
export function splitRecord(split: Split<{ id: string }>, shares: SplitShares, seed: number): SplitRecord {
  return {
    seed,
    shares,
    documents: { train: split.train.length, dev: split.dev.length, test: split.test.length },
    fingerprints: { train: partFingerprint(split.train), dev: partFingerprint(split.dev), test: partFingerprint(split.test) },
  };
}

/**
 * The documents of `docs` that a recorded split put in `part`, drawn again from its seed and shares; undefined
 * when `docs` are not the documents it was drawn from (the fingerprint differs).
 */
export function recordedPart<T extends { id: string }>(docs: readonly T[], record: SplitRecord, part: (typeof PARTS)[number]): T[] | undefined {
  const drawn = splitDocuments(docs, record.shares, record.seed);
  return PARTS.every((p) => partFingerprint(drawn[p]) === record.fingerprints[p]) ? drawn[part] : undefined;
}

/** Parses `--split 80/10/10`. */
export function parseSplit(value: string): SplitShares {
  const parts = value.split('/').map(Number);
  if (parts.length !== 3 || parts.some((p) => !Number.isFinite(p) || p < 0) || parts[0]! <= 0) throw new UsageError(`--split must look like ${DEFAULT_SPLIT}, got "${value}"`);
  return parts as SplitShares;
}
