import type { VocabularyCheckRecord, VocabularyOrigin } from '../model/index.js';

/**
 * One row of an exported dataset: a tokenised window padded to the sequence length, in the columns
 * Hugging Face's data collators read. Plain number arrays so that what is written reads back equal.
 */
export interface DatasetExample {
  input_ids: number[];
  /** 1 at real tokens, 0 at padding. */
  attention_mask: number[];
  /**
   * 1 where a masked-LM collator must never select a target: special tokens, padding and the protected
   * positions (tokens overlapping a blacklisted term). Present in the `train` split.
   */
  special_tokens_mask?: number[];
  /** Premasked splits only: the original id at ppmlm's targets, -100 (ignored) elsewhere. */
  labels?: number[];
}

/**
 * A split of the dataset: `train`, or `epoch_N` for ppmlm's own masks of epoch N (1-based). Rows are made
 * when their shard is written, so only one shard's rows exist at a time beside the windows.
 */
export interface DatasetSplit {
  name: string;
  rows: number;
  row(index: number): DatasetExample;
}

/** ppmlm_dataset.json: how the dataset was made. Like a model's ppmlm.json it names the blacklist only by fingerprint. */
export interface DatasetManifest {
  ppmlm: string;
  createdAt: string;
  /** The model folder whose tokenizer cut the windows. */
  model: string;
  seqLen: number;
  stride: number;
  documents: number;
  windows: number;
  tokens: number;
  protectedTokens: number;
  /** The Korean analyser the text was cut with before WordPiece or BPE, for a vocabulary learnt on its morphemes. */
  morphemes?: string;
  blacklistFingerprint?: string;
  blacklistTerms?: number;
  /** How the tokenizer's vocabulary was made, and how the export checked it (model/vocabularyCheck.ts). */
  vocabulary?: VocabularyOrigin;
  vocabularyCheck?: VocabularyCheckRecord;
  /** With --premasked: the masking of the `epoch_N` splits, as `ppmlm finetune --strategy constrained` draws it. */
  premasked?: { epochs: number; seed: number; maskProb: number; wholeWord: boolean; randomBlacklisted: boolean };
  /** Split name → its shard files, relative to the dataset folder. */
  splits: Record<string, string[]>;
}

/** The file the manifest is written to, beside data/. */
export const MANIFEST_FILE = 'ppmlm_dataset.json';

/** Shard file name in the layout `datasets.load_dataset(dir)` maps to splits: data/train-00000-of-00003.parquet. */
export const shardName = (split: string, index: number, count: number): string =>
  `data/${split}-${String(index).padStart(5, '0')}-of-${String(count).padStart(5, '0')}.parquet`;
