import { assertOutputsApart } from '../../io/index.js';
import { loadCorpus } from '../../corpus/index.js';
import { nativeKernelUsage, selectBackend, type BackendRequest } from '../../engine/index.js';
import { UsageError } from '../../errors.js';
import { blacklistFingerprint, readBlacklist, readCorpusReference } from '../../identifiers/index.js';
import { latestReview } from '../../review/index.js';
import { assertBlacklistFor, axesName, checkFinetuneOptions, finetune, FINETUNE_RANGES, finetuneNeedsAnalyzer, resolveAxes, type TrainingAxes } from '../../mlm/index.js';
import { parseDpFlags, type DpFlags } from '../dpFlags.js';
import { epsilonUnitLabel } from '../../privacy/index.js';
import { corpusReadOptions, type CorpusFlags } from '../corpusOptions.js';
import { parseIntFlag, parseNumberFlag, parseRangedFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';
import { parseTrainingFlags, type TrainingFlags } from '../trainingFlags.js';
import type { AnalyzerChoice, Language } from '../../text/index.js';
import { analyzerFor } from './blacklist.js';

export interface FinetuneCommandOptions extends CorpusFlags, TrainingFlags, DpFlags {
  model: string;
  strategy: string;
  masking?: TrainingAxes['masking'];
  input?: TrainingAxes['input'];
  privacy?: TrainingAxes['privacy'];
  blacklist?: string;
  protectOwnText?: boolean;
  referenceCorpus?: string;
  referenceTextCol?: string;
  referenceK: string;
  out: string;
  maskProb: string;
  wholeWord?: boolean;
  freezeProtectedEmbeddings?: boolean;
  untieDecoder?: boolean;
  hideProtectedContext?: boolean;
  randomBlacklisted: boolean;
  dropout?: string;
  allowVocabularyIdentifiers?: boolean;
  seed: string;
  saveSteps?: string;
  pseudo: 'placeholder' | 'surrogate';
  saveEveryEpoch?: boolean;
  saveTotalLimit?: string;
  evalCorpus?: string;
  evalSplit?: string;
  loadBestModelAtEnd?: boolean;
  force?: boolean;
  json?: boolean;
  lang: Language;
  analyzer: AnalyzerChoice;
  backend: BackendRequest;
}

/**
 * `ppmlm finetune`: masked-LM fine-tuning on the three axes (a --strategy preset, each axis overridable);
 * reports how many targets fell on blacklisted positions and, with DP, epsilon and its unit.
 */
export async function finetuneCommand(options: FinetuneCommandOptions, out: Reporter): Promise<void> {
  const axes = resolveAxes(options.strategy, { masking: options.masking, input: options.input, privacy: options.privacy });
  const strategy = axesName(axes);
  // Checked again by finetune(); here before the corpus is read.
  assertBlacklistFor(axes, options.blacklist !== undefined || options.protectOwnText === true);
  if (options.referenceCorpus !== undefined && !options.protectOwnText) throw new UsageError('--reference-corpus is the public reference of --protect-own-text; add it or drop --reference-corpus');
  const referenceK = parseIntFlag(options.referenceK, '--reference-k', { min: 1 });
  const dp = parseDpFlags(options, axes.privacy);
  const training = parseTrainingFlags(options);
  const maskProb = parseRangedFlag(options.maskProb, '--mask-prob', FINETUNE_RANGES.maskProb);
  const seed = parseIntFlag(options.seed, '--seed');
  const saveSteps = options.saveSteps === undefined ? undefined : parseIntFlag(options.saveSteps, '--save-steps', { min: 1 });
  const evaluation = {
    evalSplit: options.evalSplit === undefined ? undefined : parseNumberFlag(options.evalSplit, '--eval-split', { min: 0, max: 1, exclusive: true }),
    loadBestModelAtEnd: options.loadBestModelAtEnd === true,
    saveEveryEpoch: options.saveEveryEpoch === true,
    saveTotalLimit: options.saveTotalLimit === undefined ? undefined : parseIntFlag(options.saveTotalLimit, '--save-total-limit', { min: 1 }),
  };
  checkFinetuneOptions({ ...evaluation, evalCorpus: options.evalCorpus });
  await assertOutputsApart({ '--model': options.model, '--corpus': options.corpus, '--eval-corpus': options.evalCorpus, '--blacklist': options.blacklist, '--reference-corpus': options.referenceCorpus }, { '--out': options.out });
  const blacklist = options.blacklist ? await readBlacklist(options.blacklist) : undefined;
  // A review recorded beside the blacklist goes into the card of a model without DP.
  const review = blacklist && axes.privacy !== 'dp' ? await latestReview(options.blacklist!, blacklistFingerprint(blacklist)) : undefined;
  if (review) out.info(`blacklist review ${review.sample}: the model card will say so`);
  const backend = await selectBackend(options.backend, { runsOnWebgpu: true });
  out.info(`backend: ${backend.name}`);
  const readOptions = corpusReadOptions(options, (err) => out.warn(`skipped ${err.located}`));
  const docs = await loadCorpus(options.corpus, readOptions);
  const evalDocs = options.evalCorpus === undefined ? undefined : await loadCorpus(options.evalCorpus, readOptions);
  const needed = await finetuneNeedsAnalyzer({ model: options.model, docs: [...docs, ...(evalDocs ?? [])], blacklist: blacklist !== undefined, protectOwnText: options.protectOwnText === true });
  const analyzer = needed ? analyzerFor(options.lang, options.analyzer, out) : undefined;
  const t0 = Date.now();
  try {
    const reference = options.referenceCorpus === undefined ? undefined : await readCorpusReference(options.referenceCorpus, { textCol: options.referenceTextCol, k: referenceK, analyzer });
    if (reference) out.info(`public reference ${options.referenceCorpus}: ${reference.words} words used by at least ${referenceK} of its individuals`);
    const result = await finetune({
      model: options.model,
      docs,
      strategy: axes,
      blacklist,
      ...(options.protectOwnText && { protectOwnText: { reference } }),
      ...(review && { blacklistReview: { sample: review.sample, reviewed: review.estimate.reviewed, missRate: review.estimate.missRate.value, interval: review.estimate.missRate.interval, identifiers: review.estimate.identifiers } }),
      out: options.out,
      ...training,
      maskProb,
      wholeWord: options.wholeWord === true,
      ...(options.freezeProtectedEmbeddings && { freezeProtectedEmbeddings: true }),
      ...(options.untieDecoder && { untieDecoder: true }),
      ...(options.hideProtectedContext && { hideProtectedContext: true }),
      randomBlacklisted: options.randomBlacklisted,
      ...(options.dropout !== undefined && { dropout: parseRangedFlag(options.dropout, '--dropout', FINETUNE_RANGES.dropout) }),
      allowVocabularyIdentifiers: options.allowVocabularyIdentifiers === true,
      seed,
      saveSteps,
      resume: options.resume === true,
      ...evaluation,
      evalDocs,
      pseudo: options.pseudo,
      dp,
      force: options.force === true,
      analyzer,
      ...out.messages,
      onLog: (e, s) => {
        const done = s.step / s.totalSteps;
        const eta = done > 0 ? ((Date.now() - t0) / 1000) * (1 / done - 1) : 0;
        out.progress(`finetune ${strategy}: epoch ${e.epoch + 1}${training.maxSteps === undefined ? `/${training.epochs}` : ''} step ${e.step}/${s.totalSteps} loss ${e.loss.toFixed(4)} ${Math.round(e.tokensPerSecond)} tokens/s ETA ${Math.round(eta)}s`);
      },
    });
    out.progressDone();
    const summary = {
      out: result.out,
      strategy,
      axes,
      epochs: result.provenance.epochs,
      steps: result.state.step,
      finalLoss: result.state.lastLoss,
      lossByEpoch: result.provenance.lossByEpoch,
      ...(result.provenance.evalLossByEpoch !== undefined && { evalLossByEpoch: result.provenance.evalLossByEpoch }),
      ...(result.provenance.bestEpoch !== undefined && { bestEpoch: result.provenance.bestEpoch, bestEvalLoss: result.provenance.bestEvalLoss }),
      targets: result.state.targets,
      protectedTargets: result.state.protectedTargets,
      protectedTokens: result.windows.protectedTokens,
      tokens: result.windows.tokens,
      seconds: (Date.now() - t0) / 1000,
      ...(result.provenance.dp && { dp: result.provenance.dp }),
    };
    const products = nativeKernelUsage();
    out.debug(`native matmul: ${products.products} products, ${products.split} split over ${products.threads} threads, ${products.blas} through the BLAS`);
    if (options.json) out.json(summary);
    else
      out.result(
        `wrote ${result.out}: ${strategy}, ${summary.epochs} epochs, ${summary.steps} steps, final loss ${summary.finalLoss.toFixed(4)}; ` +
          (summary.bestEpoch !== undefined ? `weights of epoch ${summary.bestEpoch} (lowest evaluation loss, ${summary.bestEvalLoss}); ` : '') +
          `${summary.protectedTargets} of ${summary.targets} MLM targets fell on blacklisted positions` +
          (result.provenance.dp ? `; DP-SGD epsilon ${result.provenance.dp.epsilon.toFixed(2)} at delta ${result.provenance.dp.delta.toExponential(1)} ${epsilonUnitLabel(result.provenance.dp)}` : ''),
      );
  } finally {
    await analyzer?.close();
  }
}
