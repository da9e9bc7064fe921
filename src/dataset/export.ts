import type { Document } from '../corpus/index.js';
import { assertSameAnalyzer, blacklistFingerprint, type Blacklist } from '../identifiers/index.js';
import { checkVocabulary, vocabularyProvenance, type VocabularyOrigin } from '../model/index.js';
import { buildWindows, eligiblePositions, epochOrder, IGNORE, mask, maskConfigFor, trainingStride, windowRng, type BatchMaskConfig, type TrainingWindow } from '../mlm/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { BlacklistedTerms, morphemesFor, type Tokenizer } from '../tokenizer/index.js';
import { PACKAGE_VERSION } from '../version.js';
import type { DatasetExample, DatasetManifest, DatasetSplit } from './types.js';
import { writeDataset } from './write.js';

export interface PremaskOptions {
  epochs: number;
  seed: number;
  maskProb: number;
  wholeWord?: boolean;
  /** Let random replacements draw blacklisted terms' tokens (`ppmlm finetune --random-blacklisted`). */
  randomBlacklisted?: boolean;
}

export interface ExportDatasetOptions {
  docs: readonly Document[];
  tokenizer: Tokenizer;
  /** The model folder the tokenizer came from, recorded in the manifest. */
  model: string;
  blacklist?: Blacklist;
  /** How the tokenizer's vocabulary was made (the model's ppmlm.json `vocabulary`); undefined when ppmlm did not train it. */
  vocabulary?: VocabularyOrigin;
  /** Export even when the vocabulary check refuses (recorded in the manifest). */
  allowVocabularyIdentifiers?: boolean;
  /** Where the vocabulary check's info line goes. */
  onInfo?: (line: string) => void;
  /** Hears when Korean text cannot be cut as the vocabulary was learnt (see `morphemesFor`). */
  onWarn?: (line: string) => void;
  seqLen: number;
  /** Tokens shared by consecutive windows (default: a quarter window, as `finetune`). */
  stride?: number;
  analyzer?: MorphAnalyzer;
  /** Also write `epoch_1` … `epoch_E` splits with ppmlm's own constrained masks. */
  premasked?: PremaskOptions;
  out: string;
  force?: boolean;
  shardRows?: number;
}

/** A window padded to `seqLen`: padding is attended to by nobody and never a target. */
function padded(values: ArrayLike<number>, seqLen: number, fill: number): number[] {
  const out = Array.from(values);
  while (out.length < seqLen) out.push(fill);
  return out;
}

/**
 * The `train` row of a window. special_tokens_mask = special ∪ protected: Hugging Face's
 * DataCollatorForLanguageModeling never selects a position where it is 1, so its fresh masks every epoch
 * obey the PPmlm constraint — exactly the positions {@link eligiblePositions} allows under `constrained`.
 */
export function collatorExample(w: TrainingWindow, seqLen: number, padId: number): DatasetExample {
  const eligible = eligiblePositions('constrained', w);
  return {
    input_ids: padded(w.ids, seqLen, padId),
    attention_mask: padded(new Uint8Array(w.ids.length).fill(1), seqLen, 0),
    special_tokens_mask: padded(eligible.map((e) => 1 - e), seqLen, 1),
  };
}

/**
 * Epoch `epoch` (0-based) of a constrained run as `finetune` draws it with `config` (mlm's maskConfigFor) — the same window order and the same
 * per-window generators — as rows with masked inputs and labels (-100 where no target). Row `slot` is the
 * window at that place of the epoch's order.
 */
export function premaskedEpoch(windows: readonly TrainingWindow[], epoch: number, seqLen: number, config: BatchMaskConfig, seed: number): DatasetSplit {
  const order = epochOrder(windows.length, seed, epoch);
  return {
    name: `epoch_${epoch + 1}`,
    rows: order.length,
    row(slot) {
      const w = windows[order[slot]!]!;
      const masked = mask(w.ids, eligiblePositions('constrained', w), config, windowRng(seed, epoch, slot), config.wholeWord ? w.words : undefined);
      return {
        input_ids: padded(masked.inputIds, seqLen, config.padId),
        attention_mask: padded(new Uint8Array(w.ids.length).fill(1), seqLen, 0),
        labels: padded(masked.labels, seqLen, IGNORE),
      };
    },
  };
}

/**
 * `ppmlm export-dataset`: tokenises a corpus into windows with ppmlm's protected positions and writes them
 * as Parquet shards for another trainer (Hugging Face Trainer, Accelerate, DeepSpeed) — see writeDataset
 * for the layout and its privacy (0600 files, atomic, `force`).
 *
 * @example
 * await exportDataset({ docs, tokenizer, model: 'models/base', blacklist, seqLen: 128, out: 'ds' });
 */
export async function exportDataset(options: ExportDatasetOptions): Promise<DatasetManifest> {
  const { tokenizer, seqLen, blacklist } = options;
  if (blacklist) assertSameAnalyzer(blacklist, options.analyzer, options.docs.map((d) => d.text));
  const check = { ...(blacklist && { blacklisted: new BlacklistedTerms(blacklist.entries.map((e) => e.term)) }), allowIdentifiers: options.allowVocabularyIdentifiers };
  const vocabulary = vocabularyProvenance(options.vocabulary, checkVocabulary(tokenizer, options.vocabulary, check, options.onInfo));
  const stride = trainingStride(seqLen, options.stride);
  // The windows finetune trains on: cut at morphemes where the vocabulary was learnt on them.
  const { morphemes, warning } = morphemesFor(options.vocabulary?.morphemes, options.analyzer, options.docs.map((d) => d.text));
  if (warning) options.onWarn?.(warning);
  const { windows, stats } = await buildWindows(options.docs, tokenizer, { seqLen, stride, blacklist: blacklist?.entries ?? [], analyzer: options.analyzer, morphemes });
  const padId = tokenizer.idOf(tokenizer.specials.pad)!;
  const splits: DatasetSplit[] = [{ name: 'train', rows: windows.length, row: (i) => collatorExample(windows[i]!, seqLen, padId) }];
  const premasked = options.premasked;
  if (premasked) {
    // Once for all epochs: with random replacements kept off blacklisted tokens it tokenises every term.
    const config = await maskConfigFor(tokenizer, blacklist?.entries ?? [], { maskProb: premasked.maskProb, wholeWord: premasked.wholeWord, randomBlacklisted: premasked.randomBlacklisted }, morphemes);
    for (let e = 0; e < premasked.epochs; e++) splits.push(premaskedEpoch(windows, e, seqLen, config, premasked.seed));
  }
  const manifest = {
    ppmlm: PACKAGE_VERSION,
    createdAt: new Date().toISOString(),
    model: options.model,
    seqLen,
    stride,
    documents: stats.documents,
    windows: stats.windows,
    tokens: stats.tokens,
    protectedTokens: stats.protectedTokens,
    ...(morphemes && { morphemes: morphemes.name }),
    ...(blacklist && { blacklistFingerprint: blacklistFingerprint(blacklist), blacklistTerms: blacklist.entries.length }),
    ...(premasked && { premasked: { epochs: premasked.epochs, seed: premasked.seed, maskProb: premasked.maskProb, wholeWord: premasked.wholeWord === true, randomBlacklisted: premasked.randomBlacklisted === true } }),
    ...vocabulary,
  };
  return writeDataset(options.out, splits, manifest, { force: options.force, shardRows: options.shardRows });
}
