import type * as tf from '@tensorflow/tfjs-core';
import { resolve } from 'node:path';
import { splitByAuthor, withoutAuthors, type Document } from '../corpus/index.js';
import { PACKAGE_VERSION } from '../version.js';
import { Rng } from '../engine/random.js';
import { lossCurve, train, type LogEntry, type TrainerState } from '../engine/trainer.js';
import { bestModelDir, checkpointDirFor, checkpointModelDir, openCheckpoint } from '../engine/checkpoint.js';
import { contentFingerprint, type RunConfig } from '../engine/runConfig.js';
import { assertCanWrite, assertOutputsApart, documentKey, PRIVATE_FILE_MODE, publicDocumentOverlap, publicDocumentsPath } from '../io/index.js';
import { assertSameAnalyzer, BlacklistMatcher, blacklistFingerprint, blacklistProvenanceProblem, englishReference, ownTextBlacklists, type Blacklist, type BlacklistEntry, type PublicReference, type Recognizer } from '../identifiers/index.js';
import { assertSeqLenFits, checkTrainingMemory, readProvenance, DROPOUT_STREAM, dropoutOf, checkVocabulary, copyModelDir, describeTrainingMemory, loadModelDir, saveModelDir, untieDecoder, writeModelFiles, type LoadedModel, type Provenance, type VocabularyCheck, type VocabularyOrigin, vocabularyProvenance, vocabularyProvenanceProblem } from '../model/index.js';
import { BlacklistedTerms, morphemesFor } from '../tokenizer/index.js';
import { isHangulWord, type MorphAnalyzer } from '../text/index.js';
import { FormatError, PpmlmError, UsageError } from '../errors.js';
import { checkPrivateInputs, describeDp, dpRecord, INSECURE_NOISE_WARNING, groupUnits, makeAccountant, makePrivate, planDp, releaseAccountant, releaseRandom, type DpOptions, type DpUnit, type PrivateInput } from '../privacy/index.js';
import { makeBatch } from './batch.js';
import { epochFolder, pruneEpochFolders } from './epochFolders.js';
import { mlmEvalLoss } from './evalLoss.js';
import { mlmBatchLoss, mlmLossSegments } from './loss.js';
import { epochOrder, maskConfigFor, trainingStride, windowRng } from './schedule.js';
import { pseudonymize, type PseudoStyle } from './pseudonymize.js';
import { assertBlacklistFor, axesName, parseAxes, type TrainingAxes } from './strategy.js';
import { buildWindows, type TrainingWindow, type WindowStats } from './windows.js';
import { DEFAULT_SEQ_LEN, FINETUNE_RANGES, inRange, rangeText } from './settingRanges.js';

export interface FinetuneOptions {
  /** Model folder to start from (Hugging Face layout). */
  model: string;
  docs: readonly Document[];
  /**
   * The run's three axes (masking, input, privacy), or a strategy naming them: a preset (`standard`,
   * `constrained`, `pseudonymized`, `dp`) or a combination such as `constrained+dp` (see {@link parseAxes}).
   */
  strategy: string | TrainingAxes;
  /** Constrained masking and pseudonymized input need it or `protectOwnText`; otherwise only used to count identifier targets. */
  blacklist?: Blacklist;
  /**
   * Protect, in each unit's documents, what the default recognisers find in that unit's own text and its
   * words the public reference does not know (`--protect-own-text`; see `ownTextBlacklists`): computed
   * from no one else's records, so DP's sensitivity holds. The unit is the individual, or the document
   * under `--dp-unit document`.
   */
  protectOwnText?: OwnTextProtection;
  /**
   * What a review of the blacklist estimated (`blacklist review --import`), for the model card of a run
   * without DP; a DP run never records it (it is a statistic of the reviewed corpus).
   */
  blacklistReview?: { sample: string; reviewed: number; missRate: number; interval: [number, number]; identifiers: number };
  out: string;
  epochs?: number;
  batchSize?: number;
  seqLen?: number;
  stride?: number;
  lr?: number;
  maskProb?: number;
  wholeWord?: boolean;
  /** pseudonymized: replace direct identifiers by `[CATEGORY]` placeholders (default) or format-preserving surrogates. */
  pseudo?: PseudoStyle;
  /** Export even when the vocabulary check refuses (model/vocabularyCheck.ts; recorded in ppmlm.json); default: refuse. */
  allowVocabularyIdentifiers?: boolean;
  /**
   * Hidden and attention dropout while training (`--dropout`); default: the model config's
   * hidden_dropout_prob and attention_probs_dropout_prob (0.1 for BERT and RoBERTa), as Hugging Face's
   * Trainer applies them. 0 turns it off.
   */
  dropout?: number;
  /** Let random replacements draw tokens of blacklisted terms (`--random-blacklisted`); default: never. */
  randomBlacklisted?: boolean;
  /**
   * Constrained masking only: no gradient into the input word embeddings at protected positions. The
   * identifiers stay context, but a row of the (decoder-tied) embedding matrix cannot learn from where
   * they are read: one candidate path by which never-targeted secrets leak (issue #19's ablation C).
   */
  freezeProtectedEmbeddings?: boolean;
  /**
   * Start from a copy of the word embeddings as a decoder of its own (`tie_word_embeddings: false` in the
   * exported config): the input embeddings no longer learn from the output side (#19's ablation B).
   */
  untieDecoder?: boolean;
  /**
   * Constrained masking only: protected positions are hidden as attention keys, so identifiers are no
   * longer context at all. This changes the method (PPmlm keeps them visible); it bounds what hiding them
   * buys (#19's ablation E), it is not offered as a fix.
   */
  hideProtectedContext?: boolean;
  seed?: number;
  /** Batches (of `batchSize` windows) whose gradients make one optimizer step (default 1). */
  accumulate?: number;
  /** Stop after this many optimizer steps, mid-epoch if need be; replaces `epochs` (Hugging Face's max_steps). */
  maxSteps?: number;
  /** Share of optimizer steps spent warming up (default 0.1). */
  warmupRatio?: number;
  /** AdamW decoupled weight decay (default 0.01). */
  weightDecay?: number;
  /** Documents of other individuals to compute an evaluation loss on at every epoch end. */
  evalDocs?: readonly Document[];
  /** Or: hold out this share (0 < share < 1) of the individuals of `docs` for evaluation (seeded by `seed`). */
  evalSplit?: number;
  /** With evaluation: `out` gets the weights of the epoch with the lowest evaluation loss, not the last. */
  loadBestModelAtEnd?: boolean;
  /** Where checkpoints go (default `<out>.checkpoint`). */
  checkpointDir?: string;
  saveSteps?: number;
  /**
   * Continue the run in `checkpointDir`; refused (UsageError) when there is no checkpoint or it was written
   * with other settings (flags, corpus, blacklist).
   */
  resume?: boolean;
  /** Also write `<out>.epoch-N` after every epoch. */
  saveEveryEpoch?: boolean;
  /** With saveEveryEpoch: keep only the N most recent `<out>.epoch-N` folders (and the best one). */
  saveTotalLimit?: number;
  /** Replace an existing `out`; without `resume`, also delete the checkpoint folder of an earlier run (refused without). */
  force?: boolean;
  /** DP-SGD settings, with privacy `dp` only (per individual by default; see {@link DpOptions}). */
  dp?: DpOptions;
  analyzer?: MorphAnalyzer;
  onLog?: (entry: LogEntry, state: TrainerState) => void;
  onInfo?: (message: string) => void;
  /** What the user must not miss (insecure DP noise), for stderr. */
  onWarn?: (message: string) => void;
}

export interface OwnTextProtection {
  /** Default: the bundled English word list ({@link englishReference}). */
  reference?: PublicReference & { /** A reference corpus's document keys, checked against the training documents under DP. */ documentKeys?: readonly string[] };
  /** Default: the default recognisers. */
  recognizers?: readonly Recognizer[];
}

export interface FinetuneResult {
  out: string;
  state: TrainerState;
  windows: WindowStats;
  provenance: Provenance;
}

/**
 * Refuses evaluation and checkpoint-keeping options that contradict each other, before any data is read
 * (the CLI calls it too, before loading corpora).
 */
export function checkFinetuneOptions(options: Pick<FinetuneOptions, 'evalDocs' | 'evalSplit' | 'loadBestModelAtEnd' | 'saveTotalLimit' | 'saveEveryEpoch'> & { /** The CLI's evaluation corpus path, before it is read. */ evalCorpus?: string }): void {
  const evalDocs = options.evalDocs ?? options.evalCorpus;
  if (evalDocs !== undefined && options.evalSplit !== undefined) throw new UsageError('give either --eval-corpus or --eval-split, not both');
  if (options.loadBestModelAtEnd && evalDocs === undefined && options.evalSplit === undefined) throw new UsageError('--load-best-model-at-end needs an evaluation: --eval-corpus PATH or --eval-split P');
  if (options.saveTotalLimit !== undefined && !options.saveEveryEpoch) throw new UsageError('--save-total-limit limits the <out>.epoch-N folders of --save-every-epoch; pass that too');
}

/**
 * The inputs of a fine-tuning run that came from a corpus not declared public (blacklist, tokenizer), as
 * {@link checkPrivateInputs} takes them under DP; `names` says how the caller's user knows them. With the
 * training `texts`, an input declared public is checked against the record of its corpus's documents
 * (`--public-corpus` keeps one with the key): a "public" corpus that holds training documents is private
 * input too, and one without a record here cannot be shown not to.
 */
export async function privateInputsOf(inputs: { blacklist?: Blacklist; vocabulary?: VocabularyOrigin }, names: { blacklist?: string; vocabulary?: string } = {}, texts?: readonly string[]): Promise<PrivateInput[]> {
  const blacklistName = names.blacklist ?? 'the blacklist';
  const vocabularyName = names.vocabulary ?? 'the tokenizer';
  const problems: [string, string | undefined][] = [
    [blacklistName, inputs.blacklist && blacklistProvenanceProblem(inputs.blacklist)],
    [vocabularyName, vocabularyProvenanceProblem(inputs.vocabulary)],
  ];
  if (texts !== undefined) {
    const publicBlacklist = inputs.blacklist && blacklistProvenanceProblem(inputs.blacklist) === undefined ? inputs.blacklist.header : undefined;
    const declared: [string, string | undefined, string][] = [
      [blacklistName, publicBlacklist?.corpus, 'the corpus it was built from'],
      ...(publicBlacklist?.extra['recognizer-documents']?.split(',') ?? []).map((fp): [string, string, string] => [blacklistName, fp, 'the documents its de-identification model was trained on']),
      [vocabularyName, inputs.vocabulary?.publicCorpus ? inputs.vocabulary.corpus : undefined, 'the corpus it was built from'],
    ];
    for (const [name, corpus, what] of declared) {
      if (corpus === undefined) continue;
      const overlap = await publicDocumentOverlap(corpus, texts);
      if (overlap === undefined) problems.push([name, `declared public, but no record of ${what} is kept here (${publicDocumentsPath(corpus)}), so an overlap with the training documents cannot be ruled out; rebuild it here with --public-corpus`]);
      else if (overlap > 0) problems.push([name, `declared public, but ${overlap} of the ${texts.length} training documents are in ${what}`]);
    }
  }
  return problems.flatMap(([name, why]) => (why === undefined ? [] : [{ name, why }]));
}

/**
 * A public reference corpus is an input to every person's protection: one that holds training documents
 * makes it depend on them, as a "public" blacklist's corpus would.
 */
function referenceOverlap(reference: OwnTextProtection['reference'], docs: readonly Document[]): PrivateInput[] {
  if (reference?.documentKeys === undefined) return [];
  const keys = new Set(reference.documentKeys);
  const overlap = docs.filter((d) => keys.has(documentKey(d.text))).length;
  return overlap === 0 ? [] : [{ name: 'the reference corpus', why: `declared public, but ${overlap} of the ${docs.length} training documents are in it` }];
}

/** The documents of a corpus as a run configuration records them (see {@link contentFingerprint}). */
const docsFingerprint = (docs: readonly Document[]) => contentFingerprint(docs.flatMap((d) => [d.id, d.author, d.text, d.label ?? '']));

/**
 * What makes a fine-tuning run what it is, named by the CLI's flags (`null`: not given, the default): the
 * options that change what the model learns or how ppmlm.json labels it. Checkpointing, logging and output
 * options are left out, so a resume may change them.
 */
function finetuneRunConfig(options: FinetuneOptions, resolved: { axes: TrainingAxes; seed: number; epochs: number; batchSize: number; seqLen: number; lr: number; maskProb: number; morphemes?: MorphAnalyzer }): RunConfig {
  const { axes } = resolved;
  const dp = options.dp ?? {};
  return {
    '--model': resolve(options.model),
    '--corpus': docsFingerprint(options.docs),
    '--blacklist': options.blacklist ? blacklistFingerprint(options.blacklist) : null,
    // Only when given, so that checkpoints written before the option existed still resume.
    ...(options.protectOwnText && { '--protect-own-text': options.protectOwnText.reference?.name ?? 'default' }),
    // A preset's name as before the axes existed, so checkpoints of preset runs still resume.
    '--strategy': axesName(axes),
    '--epochs': resolved.epochs,
    '--max-steps': options.maxSteps ?? null,
    '--batch-size': resolved.batchSize,
    '--grad-accum': options.accumulate ?? null,
    '--seq-len': resolved.seqLen,
    stride: options.stride ?? null,
    '--lr': resolved.lr,
    '--warmup-ratio': options.warmupRatio ?? null,
    '--weight-decay': options.weightDecay ?? null,
    '--mask-prob': resolved.maskProb,
    '--whole-word': options.wholeWord === true,
    '--random-blacklisted': options.randomBlacklisted === true,
    // Absent at 0, as in checkpoints written before dropout existed (they trained without it).
    ...(options.dropout !== 0 && { '--dropout': options.dropout ?? 'config' }),
    // Only when given, so that checkpoints written before the option existed still resume.
    ...(options.freezeProtectedEmbeddings && { '--freeze-protected-embeddings': true }),
    ...(options.untieDecoder && { '--untie-decoder': true }),
    ...(options.hideProtectedContext && { '--hide-protected-context': true }),
    '--seed': resolved.seed,
    '--analyzer': options.analyzer?.name ?? null,
    // Where text is cut: a resume cannot mix cut and whole windows.
    ...(resolved.morphemes && { morphemes: resolved.morphemes.name }),
    '--eval-corpus': options.evalDocs ? docsFingerprint(options.evalDocs) : null,
    '--eval-split': options.evalSplit ?? null,
    '--load-best-model-at-end': options.loadBestModelAtEnd === true,
    ...(axes.input === 'pseudonymized' && { '--pseudo': options.pseudo ?? null }),
    ...(axes.privacy === 'dp' && {
      '--dp-unit': dp.unit ?? null,
      '--dp-clip': dp.clip ?? null,
      '--dp-noise': dp.noiseMultiplier ?? null,
      '--target-epsilon': dp.targetEpsilon ?? null,
      '--delta': dp.delta ?? null,
      '--dp-max-windows': dp.maxWindows ?? null,
      '--accountant': dp.accountant ?? null,
      '--dp-insecure-seeded-noise': dp.insecureSeededNoise === true,
    }),
  };
}

/**
 * The privacy units of the training windows: one per author (all of that individual's windows), per
 * document, or per window. A corpus read without an author column makes every document its own author,
 * which would silently turn "per individual" into "per document": refused.
 */
function privacyUnits(docs: readonly Document[], windows: readonly TrainingWindow[], unit: DpUnit): number[][] {
  if (unit === 'window') return windows.map((_, i) => [i]);
  if (unit === 'document') return groupUnits(windows.map((w) => String(w.doc)));
  if (withoutAuthors(docs)) {
    throw new UsageError(`--dp-unit author needs the corpus's author column: each of its ${docs.length} documents is its own author; pass --author-col NAME (or --dp-unit window, a guarantee per window, not per person)`);
  }
  return groupUnits(windows.map((w) => docs[w.doc]!.author));
}

/**
 * Whether a fine-tuning run needs a Korean analyser started (`finetune`'s `analyzer`): a blacklist's terms
 * and each individual's own terms are matched in Korean words it cuts, and a vocabulary learnt on mecab's
 * morphemes reads Korean cut as it was learnt (one learnt on the rule analyser's gets its own,
 * `morphemesFor`); text without Korean needs none for the vocabulary.
 */
export async function finetuneNeedsAnalyzer(options: { model: string; docs: readonly Pick<Document, 'text'>[]; blacklist?: boolean; protectOwnText?: boolean }): Promise<boolean> {
  if (options.blacklist || options.protectOwnText) return true;
  return (await readProvenance(options.model))?.vocabulary?.morphemes === 'mecab' && options.docs.some((d) => isHangulWord(d.text));
}

/** The `dp` option each DP key of {@link FINETUNE_RANGES} names. */
const DP_OPTION_OF: Readonly<Record<string, keyof DpOptions>> = { dpClip: 'clip', dpNoise: 'noiseMultiplier', targetEpsilon: 'targetEpsilon', delta: 'delta', dpMaxWindows: 'maxWindows' };

/**
 * Refuses, before anything is read, a numeric option out of its range ({@link FINETUNE_RANGES}, the ranges
 * the CLI's flags and an experiment config take) and a corpus with no document: from code no flag parser
 * stands in front (a batch size of 0 looped for ever, a negative rate climbed the loss).
 */
function assertFinetuneRanges(options: FinetuneOptions): void {
  for (const [key, range] of Object.entries(FINETUNE_RANGES)) {
    // The DP settings live under `dp`, by other names than the flags' keys.
    const dpKey = DP_OPTION_OF[key];
    const value = dpKey ? options.dp?.[dpKey] : (options as unknown as Record<string, unknown>)[key];
    if (value !== undefined && !inRange(value, range)) throw new UsageError(`finetune: ${dpKey ? `dp.${dpKey}` : key} must be ${rangeText(range)}, got ${JSON.stringify(value)}`);
  }
  const seqLen = options.seqLen ?? DEFAULT_SEQ_LEN;
  if (options.stride !== undefined && options.stride > seqLen - 3) throw new UsageError(`finetune: stride must be below the window's ${seqLen - 2} tokens between [CLS] and [SEP], got ${options.stride}`);
  if (options.docs.length === 0) throw new UsageError('finetune: docs holds no document to fine-tune on');
}

/**
 * Fine-tunes a masked LM with one strategy (see mlm/README.md) and writes a Hugging Face model folder with
 * ppmlm.json provenance. Checkpoints every epoch (and every `saveSteps`), resumable with `resume` under the
 * same settings (see {@link openCheckpoint}: an earlier run's checkpoint is replaced only with `force`). With
 * `evalDocs` or `evalSplit`, a held-out masked-LM loss at every epoch end; with `loadBestModelAtEnd`,
 * `out` holds the weights of the epoch where it was lowest (the returned state is still the last step's).
 */
export async function finetune(options: FinetuneOptions): Promise<FinetuneResult> {
  assertFinetuneRanges(options);
  // From code too: with force, an output over the base model, or inside it, would replace what is read.
  await assertOutputsApart({ '--model': options.model }, { '--out': options.out });
  const { seed = 42, epochs = 3, batchSize = 16, seqLen = DEFAULT_SEQ_LEN, lr = 5e-5, maskProb = 0.15 } = options;
  const axes = typeof options.strategy === 'string' ? parseAxes(options.strategy) : options.strategy;
  const strategy = axesName(axes);
  const private_ = axes.privacy === 'dp';
  assertBlacklistFor(axes, options.blacklist !== undefined || options.protectOwnText !== undefined);
  if (private_ && options.protectOwnText && options.dp?.unit === 'window') throw new UsageError('--protect-own-text protects each individual (or document) from their own text; a window is no such unit: use --dp-unit author or document');
  if (options.blacklist) assertSameAnalyzer(options.blacklist, options.analyzer, [...options.docs, ...(options.evalDocs ?? [])].map((d) => d.text));
  if (private_ && (options.loadBestModelAtEnd || options.evalSplit !== undefined)) {
    throw new UsageError(`under --privacy dp, ${options.loadBestModelAtEnd ? '--load-best-model-at-end' : '--eval-split'} is refused: choosing the weights by held-out people's loss, or holding out a share of the corpus's people, is not in the accountant; fix the epochs in advance (--eval-corpus alone only reports a loss)`);
  }
  if (!private_ && options.dp !== undefined) throw new UsageError(`DP settings were given to a run without DP (${strategy}); add --privacy dp or drop the --dp-* flags`);
  checkFinetuneOptions(options);
  for (const [flag, given] of [['--freeze-protected-embeddings', options.freezeProtectedEmbeddings], ['--hide-protected-context', options.hideProtectedContext]] as const) {
    if (given && axes.masking !== 'constrained') throw new UsageError(`${flag} is an option of constrained masking (this run masks ${axes.masking}); add --masking constrained or drop it`);
  }
  const checkpointDir = options.checkpointDir ?? checkpointDirFor(options.out);
  await assertCanWrite(options.out, options.force);
  // A vocabulary learnt on Korean morphemes reads training text cut the same way, or it meets pieces it never learnt.
  const { morphemes, warning: morphemeWarning } = morphemesFor((await readProvenance(options.model))?.vocabulary?.morphemes, options.analyzer, [...options.docs, ...(options.evalDocs ?? [])].map((d) => d.text));
  if (morphemeWarning) options.onWarn?.(morphemeWarning);
  const runConfig = finetuneRunConfig(options, { axes, seed, epochs, batchSize, seqLen, lr, maskProb, morphemes });
  const resumeFrom = options.resume ? await openCheckpoint(checkpointDir, { resume: true, runConfig }) : undefined;
  const loaded: LoadedModel = resumeFrom
    ? await loadModelDir(checkpointModelDir(checkpointDir), 'mlm', seed).catch((err: unknown) => {
        throw damagedCheckpoint(err, checkpointDir);
      })
    : await loadModelDir(options.model, 'mlm', seed);
  if (resumeFrom) options.onInfo?.(`resuming from ${checkpointDir} at epoch ${resumeFrom.epoch + 1}, batch ${resumeFrom.batch}`);
  if (loaded.initialized.length > 0) options.onInfo?.(`initialised ${loaded.initialized.length} MLM head tensors missing from ${options.model}`);
  const { model, tokenizer } = loaded;
  // Under DP, what shapes one person's gradient besides their own text must not come from the private corpus.
  const privatePreprocessing = private_
    ? checkPrivateInputs([...(await privateInputsOf({ blacklist: options.blacklist, vocabulary: loaded.provenance?.vocabulary }, {}, options.docs.map((d) => d.text))), ...referenceOverlap(options.protectOwnText?.reference, options.docs)], options.dp?.allowPrivatePreprocessing)
    : undefined;
  // Each unit's own terms: per individual, or per document when that is the unit of the guarantee.
  const ownUnit = private_ && options.dp?.unit === 'document' ? 'document' : 'author';
  const unitOf = (d: Document) => (ownUnit === 'document' ? `${d.id}` : d.author);
  const reference = options.protectOwnText?.reference ?? (options.protectOwnText && englishReference());
  const ownTermsOf = async (docs: readonly Document[]) => (options.protectOwnText ? await ownTextBlacklists(docs, unitOf, { reference, recognizers: options.protectOwnText.recognizers, analyzer: options.analyzer }) : undefined);
  // A resumed run's checkpoint is untied already.
  if (options.untieDecoder) model.config = untieDecoder(model.config, model.params);
  // Written into the config the run exports, as Hugging Face's Trainer reads it.
  if (options.dropout !== undefined) model.config = { ...model.config, hidden_dropout_prob: options.dropout, attention_probs_dropout_prob: options.dropout };
  // Dropout masks come from their own stream, per (epoch, window's slot in the epoch's order) as the masks
  // do: a resume, and accumulated micro-batches, draw the same ones.
  const dropoutAt = (epoch: number, slots: readonly number[]) => dropoutOf(model.config, slots.map((slot) => new Rng(seed ^ DROPOUT_STREAM).fork(epoch).fork(slot)));
  assertSeqLenFits(model.config, seqLen, '--seq-len', options.model);
  const ownTerms = await ownTermsOf(options.docs);
  // Every unit's own terms together: what the exported vocabulary is checked against and, without DP, what
  // random replacements never draw (under DP that union would make one person's masks depend on everyone).
  const allOwnTerms: BlacklistEntry[] = ownTerms ? [...ownTerms.values()].flat() : [];
  const checkedTerms = [...(options.blacklist?.entries ?? []), ...allOwnTerms];
  const check: VocabularyCheck = { ...(checkedTerms.length > 0 && { blacklisted: new BlacklistedTerms(checkedTerms.map((e) => e.term)) }), allowIdentifiers: options.allowVocabularyIdentifiers };
  // The tokenizer is fixed for the run: checked once, before training, and the outcome recorded in the
  // provenance every export of the run writes (checkpoints, epoch folders, the best model's copy).
  const vocabulary = vocabularyProvenance(loaded.provenance?.vocabulary, checkVocabulary(tokenizer, loaded.provenance?.vocabulary, check, resumeFrom ? undefined : options.onInfo));
  // DP-SGD differentiates one window at a time.
  const memory = checkTrainingMemory(model.config, { batchSize: private_ ? 1 : batchSize, seqLen, targetShare: maskProb, outputs: model.config.vocab_size, perExampleGradients: private_ });
  options.onInfo?.(describeTrainingMemory(memory));
  // Only now, every check passed, may a fresh run (with --force) delete an earlier run's checkpoint.
  if (!options.resume) await openCheckpoint(checkpointDir, { resume: false, force: options.force, runConfig });

  const entries = options.blacklist?.entries ?? [];
  /** Training and evaluation text alike: rewritten as the input axis says, then cut into windows. */
  const windowsOf = async (docs: readonly Document[]) => {
    const own = docs === options.docs ? ownTerms : await ownTermsOf(docs);
    if (axes.input === 'pseudonymized') {
      const style = options.pseudo ?? 'placeholder';
      const matchers = new Map<string, { matcher: BlacklistMatcher; entries: readonly BlacklistEntry[] }>();
      const forDoc = (d: Document) => {
        const key = own ? unitOf(d) : '';
        let m = matchers.get(key);
        if (m === undefined) {
          const all = [...entries, ...(own?.get(key) ?? [])];
          matchers.set(key, (m = { matcher: new BlacklistMatcher(all), entries: all }));
        }
        return m;
      };
      docs = await Promise.all(docs.map(async (d, i) => {
        const { matcher, entries: terms } = forDoc(d);
        return { ...d, text: await pseudonymize(d.text, matcher, terms, { analyzer: options.analyzer, style, rng: new Rng(seed).fork(i) }) };
      }));
    }
    return buildWindows(docs, tokenizer, { seqLen, stride: trainingStride(seqLen, options.stride), blacklist: entries, analyzer: options.analyzer, morphemes, ...(own && { ownTerms: (d: Document) => own.get(unitOf(d)) }) });
  };
  const split = options.evalSplit === undefined ? undefined : splitByAuthor(options.docs, options.evalSplit, seed);
  const evalDocs = split?.heldOut ?? options.evalDocs;
  const trainDocs = split?.train ?? options.docs;
  const { windows, stats } = await windowsOf(trainDocs);
  options.onInfo?.(`${stats.windows} windows of ${stats.documents} documents, ${stats.tokens} tokens, ${stats.protectedTokens} protected`);

  const maskConfig = await maskConfigFor(tokenizer, private_ ? entries : [...entries, ...allOwnTerms], { maskProb, wholeWord: options.wholeWord, randomBlacklisted: options.randomBlacklisted, freezeProtectedInputs: options.freezeProtectedEmbeddings, hideProtectedKeys: options.hideProtectedContext }, morphemes);
  const orders = new Map<number, number[]>();
  const units = private_ ? privacyUnits(trainDocs, windows, options.dp?.unit ?? 'author') : undefined;
  // With DP, --batch-size is the expected number of units (individuals or windows) per release.
  const dp = units && planDp(options.dp ?? {}, units.length, batchSize, { epochs, maxSteps: options.maxSteps, accumulate: options.accumulate });
  const accountant = dp && makeAccountant(dp.accountant);
  if (dp) options.onInfo?.(describeDp(dp));
  if (dp && !dp.secureNoise) options.onWarn?.(INSECURE_NOISE_WARNING);
  let evaluate: (() => Promise<number>) | undefined;
  if (evalDocs !== undefined) {
    const held = await windowsOf(evalDocs);
    options.onInfo?.(`evaluating on ${held.stats.windows} windows of ${held.stats.documents} held-out documents`);
    evaluate = mlmEvalLoss(model, held.windows, { masking: axes.masking, mask: maskConfig, batchSize, seed });
  }
  const dpTask =
    dp &&
    makePrivate(
      {
        units: units!.length,
        examplesOf: (u) => units![u]!,
        example(i, epoch) {
          // Masks stay seeded per (epoch, window): the guarantee rests on the sampling and noise, not on them.
          const b = makeBatch([windows[i]!], axes.masking, maskConfig, () => windowRng(seed, epoch, i));
          return b.labels.length === 0 ? undefined : { tokens: b.tokens, targets: b.labels.length, protectedTargets: b.protectedTargets, segments: mlmLossSegments(model, b, dropoutAt(epoch, [i])) };
        },
      },
      { clip: dp.clip, noiseMultiplier: dp.noiseMultiplier, sampleRate: dp.sampleRate, maxExamples: dp.maxWindows, releasesPerEpoch: dp.releasesPerEpoch, recompute: memory.recompute, random: releaseRandom(dp, seed) },
    );
  const task = dpTask || {
    batchesPerEpoch: Math.ceil(windows.length / batchSize),
    batch(epoch: number, index: number) {
      let order = orders.get(epoch);
      if (order === undefined) {
        orders.clear();
        orders.set(epoch, (order = epochOrder(windows.length, seed, epoch)));
      }
      const picked: TrainingWindow[] = order.slice(index * batchSize, (index + 1) * batchSize).map((i) => windows[i]!);
      const b = makeBatch(picked, axes.masking, maskConfig, (j) => windowRng(seed, epoch, index * batchSize + j));
      const slots = picked.map((_, j) => index * batchSize + j);
      return { tokens: b.tokens, targets: b.labels.length, protectedTargets: b.protectedTargets, ...mlmBatchLoss(model, b, memory.microBatch, (from, to) => dropoutAt(epoch, slots.slice(from, to))) };
    },
  };

  // A DP run's model folder carries no statistic of its members (loss curves, target counts) unless asked.
  const releaseStats = !dp || options.dp?.releaseStats === true;
  const provenance = (state?: TrainerState): Provenance => ({
    ppmlm: PACKAGE_VERSION,
    createdAt: new Date().toISOString(),
    base: loaded.provenance?.base ?? options.model,
    strategy,
    axes,
    ...(options.blacklist && { blacklistFingerprint: blacklistFingerprint(options.blacklist), blacklistTerms: entries.length }),
    ...(reference && { ownTextProtection: { unit: ownUnit, reference: reference.name } }),
    ...(options.blacklistReview && !private_ && { blacklistReview: options.blacklistReview }),
    // What was trained: a maxSteps run may stop mid-epoch, so whole epochs plus the share of the last one.
    epochs: state ? Math.round((state.epoch + state.batch / task.batchesPerEpoch) * 1e4) / 1e4 : epochs,
    ...(state && { steps: state.step }),
    seed,
    maskProb,
    dropout: { hidden: model.config.hidden_dropout_prob ?? 0, attention: model.config.attention_probs_dropout_prob ?? 0 },
    wholeWord: options.wholeWord === true,
    ...(options.freezeProtectedEmbeddings && { freezeProtectedEmbeddings: true }),
    ...(options.untieDecoder && { untiedDecoder: true }),
    ...(options.hideProtectedContext && { hideProtectedContext: true }),
    ...(releaseStats && {
      targets: state?.targets ?? 0,
      protectedTargets: state?.protectedTargets ?? 0,
      ...(state && { lossByEpoch: lossCurve(state) }),
      ...(state && evaluate && { evalLossByEpoch: lossCurve(state, 'evalLosses') }),
      // 1-based, as the <out>.epoch-N folders are numbered.
      ...(state?.bestEpoch !== undefined && { bestEpoch: state.bestEpoch + 1, bestEvalLoss: lossCurve(state, 'evalLosses')[state.bestEpoch] }),
    }),
    ...(dp && accountant && { dp: { ...dpRecord(dp, accountant), ...(privatePreprocessing && { privatePreprocessing }) }, ...(releaseStats && { dpReleasedStats: true }) }),
    ...vocabulary,
  });

  const state = await train(model.params, task, {
    epochs,
    maxSteps: options.maxSteps,
    lr,
    seed,
    accumulate: options.accumulate,
    warmupRatio: options.warmupRatio,
    weightDecay: options.weightDecay,
    // DP-SGD clips each example's gradient itself; clipping the noisy mean again would change the mechanism.
    maxGradNorm: dp ? 0 : 1.0,
    recompute: memory.recompute,
    checkpointDir,
    saveSteps: options.saveSteps,
    resume: options.resume,
    runConfig,
    writeModel: (dir) => writeModelFiles(dir, model, tokenizer, provenance()),
    evaluate,
    keepBest: options.loadBestModelAtEnd === true,
    onLog: options.onLog,
    accountant: dp && accountant && releaseAccountant(accountant, dp.noiseMultiplier, dp.sampleRate),
    // The log's losses and counts are not privatised: readable by the owner only, and never exported.
    logMode: dp ? PRIVATE_FILE_MODE : undefined,
    onEpochEnd: options.saveEveryEpoch
      ? async (epoch, s) => {
          await saveModelDir(epochFolder(options.out, epoch + 1), model, tokenizer, provenance(s), { force: true });
          if (options.saveTotalLimit !== undefined) await pruneEpochFolders(options.out, epoch + 1, options.saveTotalLimit, s.bestEpoch === undefined ? undefined : s.bestEpoch + 1);
        }
      : undefined,
  });
  const final = provenance(state);
  if (state.bestEpoch !== undefined) await copyModelDir(bestModelDir(checkpointDir), options.out, final, { force: options.force });
  else await saveModelDir(options.out, model, tokenizer, final, { force: options.force });
  return { out: options.out, state, windows: stats, provenance: final };
}

/**
 * A checkpoint's model that does not load, said as what it is: the model folder's own fix (download it
 * again, make one with model init) does not apply to a folder the run wrote; deleting it or --force does.
 * The error names the damaged file; its own message is not repeated, as it ends in the downloaded folder's fix.
 */
function damagedCheckpoint(err: unknown, checkpointDir: string): unknown {
  if (!(err instanceof PpmlmError)) return err;
  return new FormatError(`does not load, so the checkpoint is damaged and cannot be resumed; delete ${checkpointDir} or run with --force instead of --resume to start over`, { file: err.file ?? checkpointDir, line: err.line, cause: err });
}
