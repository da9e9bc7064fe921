import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { LabelResolver, TAXONOMY, goldSource, readAnnotatedFolder, readDatasetLabels, readReplacementLists, readSpanCorpus, withStandIns, inferenceSeqLen, recordedPiiThreshold, type PredictOptions, type SpanFormat, type UnknownLabelPolicy } from '../deid/index.js';
import { assertSeqLenFits, type EncoderConfig, type Provenance } from '../model/index.js';
import { FINETUNE_RANGES } from '../mlm/settingRanges.js';
import { parseIntFlag, parseNumberFlag, parseRangedFlag } from './parseFlags.js';
import type { Reporter } from './reporter.js';

export interface DeidInputFlags {
  judgments: string;
  replacements: string;
  replaceMap?: string;
  unknownLabel: UnknownLabelPolicy;
  skipBadDocs?: boolean;
}

/** The paths a deid command reads its training data from, by flag, for the outputs to be kept apart from. */
export function deidInputPaths(flags: Partial<DeidInputFlags> & { spans?: string }): Record<string, string | undefined> {
  return { '--judgments': flags.judgments, '--replacements': flags.replacements, '--replace-map': flags.replaceMap, '--spans': flags.spans };
}

/** Judgments, replacement lists and the label resolver, as every deid command reads them. */
export async function readDeidInputs(flags: DeidInputFlags, out: Reporter) {
  // The Thunder-DeID layout keeps replace_map.json beside the judgments folder.
  const replaceMap = flags.replaceMap ?? [join(dirname(flags.judgments), 'replace_map.json')].find((p) => existsSync(p));
  const dataset = await readDatasetLabels(flags.replacements, replaceMap);
  const resolver = new LabelResolver(TAXONOMY, dataset, flags.unknownLabel);
  const own = await readReplacementLists(flags.replacements);
  const lists = withStandIns(own, dataset.treePaths);
  let skipped = 0;
  const docs = await readAnnotatedFolder(flags.judgments, flags.skipBadDocs ? (err) => (skipped++, out.warn(`skipped ${err.located}`)) : undefined);
  out.info(`${docs.length} judgments, ${own.size} replacement lists${replaceMap ? `, synonyms from ${replaceMap}` : ''}${skipped ? `, ${skipped} malformed skipped` : ''}`);
  return { resolver, lists, docs, skipped };
}

export interface DeidSourceFlags extends Partial<DeidInputFlags> {
  spans?: string;
  spansFormat?: SpanFormat;
  unknownLabel: DeidInputFlags['unknownLabel'];
}

/**
 * Either annotated judgments (with their replacement lists) or span-annotated documents: exactly one. `unit`
 * names what was read, for the commands' summaries.
 */
export async function readDeidSource(flags: DeidSourceFlags, out: Reporter) {
  if ((flags.judgments === undefined) === (flags.spans === undefined)) throw new UsageError('give either --judgments DIR (with --replacements DIR) or --spans FILE');
  if (flags.spans !== undefined) {
    // Read as blacklist eval reads --gold: a PhysioNet folder from either of its files too.
    const source = await goldSource(flags.spans, flags.spansFormat ?? 'jsonl');
    const docs = await readSpanCorpus(source.path, source.format);
    // Trained or measured on nothing, a run would write a model of no label and a loss of NaN, or an F1 of 0.
    if (docs.length === 0) throw new UsageError(`${flags.spans}: no documents; check --spans and --spans-format`);
    out.info(`${docs.length} span-annotated documents, ${docs.reduce((a, d) => a + d.spans.length, 0)} spans`);
    return { kind: 'spans' as const, unit: 'documents', docs };
  }
  if (flags.replacements === undefined) throw new UsageError('--judgments needs --replacements DIR (the replacement lists)');
  return { kind: 'annotated' as const, unit: 'judgments', ...(await readDeidInputs(flags as DeidInputFlags, out)) };
}

/** How a model labels text, as given on the command line: `--seq-len`, `--stride`, `--pii-threshold`. */
export interface PredictionFlags {
  /** Undefined for the windows the model was trained on ({@link inferenceSeqLen}). */
  seqLen: number | undefined;
  stride: number | undefined;
  /** A probability, "argmax", or undefined for the threshold recorded in the model. */
  piiThreshold: number | 'argmax' | undefined;
}

/**
 * Parses the flags of the commands that label texts with a model, before anything is loaded: the stride is
 * undefined (half a window, predictLabels' default) unless given; the threshold is a probability in (0, 1]
 * or "argmax". The window and the stride are checked against the model once it is loaded
 * ({@link predictOptionsFor}).
 */
export function predictionFlags(options: { seqLen?: string; stride?: string; piiThreshold?: string }): PredictionFlags {
  const seqLen = options.seqLen === undefined ? undefined : parseRangedFlag(options.seqLen, '--seq-len', FINETUNE_RANGES.seqLen);
  const stride = options.stride === undefined ? undefined : parseIntFlag(options.stride, '--stride', { min: 0 });
  const t = options.piiThreshold;
  const piiThreshold = t === undefined || t === 'argmax' ? t : parseNumberFlag(t, '--pii-threshold', { min: 0, max: 1 });
  if (piiThreshold === 0) throw new UsageError('--pii-threshold 0 would label every token PII; give a probability in (0, 1] or "argmax"');
  return { seqLen, stride, piiThreshold };
}

/**
 * The prediction options for a loaded model, checked against it as soon as it is loaded, before any input
 * is read: the flags, else the windows it was trained on and the PII threshold its training chose on dev.
 * A window must fit the model's positions, and the stride must leave each window a token of its own. The
 * analyser, started only once the input is read, joins them after.
 */
export function predictOptionsFor(flags: PredictionFlags, model: { config: EncoderConfig }, modelDir: string, provenance: Provenance | undefined): Omit<PredictOptions, 'analyzer'> {
  const piiThreshold = flags.piiThreshold === 'argmax' ? undefined : (flags.piiThreshold ?? recordedPiiThreshold(provenance, modelDir));
  const seqLen = flags.seqLen ?? inferenceSeqLen(model.config, provenance);
  assertSeqLenFits(model.config, seqLen, '--seq-len', modelDir);
  if (flags.stride !== undefined && flags.stride > seqLen - 3) throw new UsageError(`--stride ${flags.stride} leaves no token of its own in windows of ${seqLen} tokens; give at most ${seqLen - 3}${flags.seqLen === undefined ? ' (the model reads the windows it was trained on), or a longer --seq-len' : ''}`);
  return { seqLen, stride: flags.stride, piiThreshold };
}
