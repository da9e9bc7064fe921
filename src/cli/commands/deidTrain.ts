import { openTrainingAnalyzer, parseSplit, splitDocuments, trainDeid, type DeidSource, type LabelLevel, type ReplacementMode } from '../../deid/index.js';
import { selectBackend, type BackendRequest } from '../../engine/index.js';
import { assertCanWrite, assertOutputsApart } from '../../io/index.js';
import type { AnalyzerChoice } from '../../text/index.js';
import { deidInputPaths, readDeidSource, type DeidSourceFlags } from '../deidInputs.js';
import { FINETUNE_RANGES } from '../../mlm/settingRanges.js';
import { parseEncoderShape, parseIntFlag, parseNumberFlag, parseRangedFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';
import { parseTrainingFlags, type TrainingFlags } from '../trainingFlags.js';
import { vocabularyCheckOf, type VocabularyFlags } from '../vocabularyOptions.js';
import { parseDpFlags, type DpFlags } from '../dpFlags.js';
import { UsageError } from '../../errors.js';
import { epsilonUnitLabel, INSECURE_NOISE_WARNING } from '../../privacy/index.js';

export interface DeidTrainCommandOptions extends DeidSourceFlags, TrainingFlags, VocabularyFlags, DpFlags {
  privacy?: string;
  publicCorpus?: boolean;
  split: string;
  seed: string;
  replacement: ReplacementMode;
  labelLevel: string;
  model?: string;
  hidden: string;
  layers: string;
  heads: string;
  intermediate: string;
  vocabSize: string;
  dropout?: string;
  outsideNoise: string;
  surrogateMentions: string;
  analyzer: AnalyzerChoice;
  /** False with --no-morphemes: tokenise without morpheme pre-tokenisation. */
  morphemes?: boolean;
  out: string;
  force?: boolean;
  json?: boolean;
  backend: BackendRequest;
}

/** `ppmlm deid train`: a token classifier on surrogate-filled annotated judgments or span-annotated documents. */
export async function deidTrain(options: DeidTrainCommandOptions, out: Reporter): Promise<void> {
  const level = parseIntFlag(options.labelLevel, '--label-level', { min: 1, max: 3 }) as LabelLevel;
  const seed = parseIntFlag(options.seed, '--seed');
  const shares = parseSplit(options.split);
  const training = parseTrainingFlags(options);
  // Before the judgments are read and the model trained: an odd head count failed only when it was saved.
  const shape = parseEncoderShape(options);
  const vocabSize = parseIntFlag(options.vocabSize, '--vocab-size', { min: 50 });
  const vocabulary = await vocabularyCheckOf(options);
  if (options.privacy !== undefined && options.privacy !== 'none' && options.privacy !== 'dp') throw new UsageError(`unknown --privacy "${options.privacy}"; use one of none, dp`);
  const dp = parseDpFlags(options, options.privacy === 'dp' ? 'dp' : 'none');
  if (dp?.insecureSeededNoise) out.warn(INSECURE_NOISE_WARNING);
  await assertOutputsApart({ ...deidInputPaths(options), '--model': options.model, '--blacklist': options.blacklist }, { '--out': options.out });
  if (!options.resume) await assertCanWrite(options.out, options.force);
  const backend = await selectBackend(options.backend, { runsOnWebgpu: true });
  out.info(`backend: ${backend.name}`);
  const input = await readDeidSource(options, out);
  if (input.kind === 'spans' && input.docs.every((d) => d.spans.length === 0)) throw new UsageError(`${options.spans}: none of its ${input.docs.length} documents has a span, so there is no label to learn; give span-annotated documents`);
  const surrogateMentions = parseIntFlag(options.surrogateMentions, '--surrogate-mentions', { min: 0, max: 20 });
  if (surrogateMentions && input.kind !== 'spans') throw new UsageError('--surrogate-mentions works on --spans documents; annotated judgments get surrogates already (--replacement)');
  const source: DeidSource =
    input.kind === 'spans'
      ? { kind: 'spans', shares, split: splitDocuments(input.docs, shares, seed), surrogateMentions }
      : { kind: 'annotated', shares, split: splitDocuments(input.docs, shares, seed), lists: input.lists, resolver: input.resolver, level, replacement: options.replacement };
  const split = source.split;
  const { analyzer, close } = await openTrainingAnalyzer(source, { model: options.model, choice: options.analyzer, morphemes: options.morphemes, onWarn: out.messages.onWarn });
  const t0 = Date.now();
  try {
    const result = await trainDeid({
      source,
      model: options.model,
      init: { ...shape, vocabSize },
      ...training,
      outsideNoise: parseNumberFlag(options.outsideNoise, '--outside-noise', { min: 0, max: 0.5 }),
      ...(options.dropout !== undefined && { dropout: parseRangedFlag(options.dropout, '--dropout', FINETUNE_RANGES.dropout) }),
      seed,
      vocabulary,
      out: options.out,
      force: options.force,
      resume: options.resume,
      analyzer,
      dp,
      publicCorpus: options.publicCorpus === true,
      onInfo: (m) => out.info(m),
      onLog: (e, s) => out.progress(`deid train: epoch ${e.epoch + 1} step ${e.step}/${s.totalSteps} loss ${e.loss.toFixed(4)} ${Math.round(e.tokensPerSecond)} tokens/s`),
    });
    out.progressDone();
    const summary = { out: options.out, labels: result.labels.length - 1, level, epochs: result.state.epoch, steps: result.state.step, finalLoss: result.state.lastLoss, lossByEpoch: result.provenance.lossByEpoch, split: { train: split.train.length, dev: split.dev.length, test: split.test.length }, seconds: (Date.now() - t0) / 1000, ...(result.provenance.dp && { dp: result.provenance.dp }) };
    out.summary(options.json, summary, () => `wrote ${options.out}: ${summary.labels} labels at level ${level}, ${summary.steps} steps, final loss ${summary.finalLoss.toFixed(4)} (train ${split.train.length} / dev ${split.dev.length} / test ${split.test.length} ${input.unit})${result.provenance.dp ? `; DP-SGD epsilon ${result.provenance.dp.epsilon.toFixed(2)} at delta ${result.provenance.dp.delta.toExponential(1)} ${epsilonUnitLabel(result.provenance.dp)}` : ''}`);
  } finally {
    await close();
  }
}
