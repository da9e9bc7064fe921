/**
 * How a de-identification model's text is cut into Korean morphemes before its tokenizer reads it: decided
 * once when it is trained, recorded in its ppmlm.json (`morphemes`, `analyzer`), and read back by every
 * command and recogniser that labels text with it.
 */
import { readProvenance, type Provenance } from '../model/index.js';
import { createKoreanAnalyzer, isHangulWord, type AnalyzerChoice, type MorphAnalyzer } from '../text/index.js';
import { cuttingAnalyzer, morphemesFor } from '../tokenizer/index.js';
import type { Split } from './split.js';
import type { DeidSource } from './train.js';

/**
 * Whether a de-identification model expects morpheme pre-tokenised text: recorded in its ppmlm.json since
 * the record exists; before that, models trained on annotated judgments did and span-trained ones did not.
 */
export function trainedOnMorphemes(provenance: Provenance | undefined): boolean {
  return typeof provenance?.morphemes === 'boolean' ? provenance.morphemes : provenance?.data !== 'spans';
}

/** The analyser a model's text was cut with (ppmlm.json `analyzer`), where its training recorded one. */
export function recordedAnalyzer(provenance: Provenance | undefined): 'mecab' | 'rule' | undefined {
  return provenance?.analyzer === 'mecab' || provenance?.analyzer === 'rule' ? provenance.analyzer : undefined;
}

/** Why text read with `analyzer` (none: read whole) is not cut as a model's training cut it, if it is not. */
export function analyzerMismatch(provenance: Provenance | undefined, analyzer: { name: string } | undefined): string | undefined {
  // A folder without ppmlm.json records nothing to compare with.
  if (provenance === undefined || !trainedOnMorphemes(provenance)) return undefined;
  const recorded = recordedAnalyzer(provenance);
  if (analyzer === undefined) return `the model was trained on ${recorded ?? 'Korean'} morphemes but reads text whole here (no Korean analyser): it will find fewer Korean entities`;
  if (recorded !== undefined && analyzer.name !== recorded) return `the model was trained on ${recorded} morphemes but text is cut by the ${analyzer.name} analyser here: it may find fewer entities`;
  return undefined;
}

/** Where the deid commands' and recognisers' decisions about the cut are said: what was decided, and what may cost entities. */
export interface CutMessages {
  onInfo?: (message: string) => void;
  onWarn?: (message: string) => void;
}

/**
 * The analyser that cuts text for a trained model as its training cut it, given the run's analyser (none
 * for a model trained on whole text): the rule analyser is a function, so a model trained on its morphemes
 * gets one of its own whatever the run uses (`cuttingAnalyzer`). `onWarn` hears where the text cannot be
 * cut as in training ({@link analyzerMismatch}): a mecab model where mecab is not used.
 */
export function modelCut(provenance: Provenance | undefined, run: MorphAnalyzer | undefined, onWarn?: (message: string) => void): MorphAnalyzer | undefined {
  if (!trainedOnMorphemes(provenance)) return undefined;
  const cut = cuttingAnalyzer(recordedAnalyzer(provenance), run);
  const mismatch = analyzerMismatch(provenance, cut);
  if (mismatch) onWarn?.(mismatch);
  return cut;
}

/**
 * The analyser a trained model's text needs, started here (close it): its record decides whether and how
 * text is cut ({@link modelCut}); `choice` (`--analyzer`) chooses the analyser only for a model trained on
 * mecab's cut, whose text another analyser cuts otherwise, with a warning.
 *
 * @example
 * const analyzer = openModelAnalyzer(await readProvenance(dir), 'auto', { onWarn: console.warn });
 * try { ... } finally { await analyzer?.close(); }
 */
export function openModelAnalyzer(provenance: Provenance | undefined, choice: AnalyzerChoice, messages: CutMessages = {}): MorphAnalyzer | undefined {
  if (!trainedOnMorphemes(provenance)) {
    messages.onInfo?.('the model was trained without morpheme pre-tokenisation; text is tokenised as is');
    return undefined;
  }
  const recorded = recordedAnalyzer(provenance);
  const cut = modelCut(provenance, recorded === 'rule' ? undefined : createKoreanAnalyzer(choice, messages.onWarn, recorded), messages.onWarn)!;
  messages.onInfo?.(`the model was trained on morphemes; text is cut by the ${cut.name} analyser first`);
  return cut;
}

export interface TrainingCutOptions extends CutMessages {
  /** The encoder fine-tuned (its ppmlm.json `vocabulary.morphemes` says how its vocabulary was learnt); none for a fresh one. */
  model?: string;
  /** `--analyzer`: auto, mecab or rule. */
  choice: AnalyzerChoice;
  /** False with `--no-morphemes`: text is tokenised as it is. */
  morphemes?: boolean;
}

const everyPart = <T extends { id: string }>({ train, dev, test }: Split<T>): T[] => [...train, ...dev, ...test];

/** The texts of a training source, all its parts: what a Korean analyser would cut. */
function sourceTexts(source: DeidSource): string[] {
  if (source.kind === 'spans') return everyPart(source.split).map((d) => d.text);
  return everyPart(source.split).flatMap((d) => d.segments.filter((s): s is string => typeof s === 'string'));
}

/**
 * The analyser that cuts a de-identification model's training text (none: read whole), started here;
 * `close` ends what was started. Annotated judgments are Korean and always cut. Span data is most often
 * English (public NER, PHI notes): it is cut only where `--analyzer` names an analyser or Korean spans meet
 * an encoder whose vocabulary was learnt on morphemes, which reads Korean cut as it was learnt
 * (`morphemesFor`). Korean spans read whole without being asked are warned about.
 *
 * @example
 * const { analyzer, close } = await openTrainingAnalyzer(source, { model, choice: 'auto', onWarn: console.warn });
 * try { await trainDeid({ source, model, analyzer, ... }); } finally { await close(); }
 */
export async function openTrainingAnalyzer(source: DeidSource, options: TrainingCutOptions): Promise<{ analyzer?: MorphAnalyzer; close: () => Promise<void> }> {
  const learnt = options.model === undefined ? undefined : (await readProvenance(options.model))?.vocabulary?.morphemes;
  const texts = sourceTexts(source);
  const korean = texts.some(isHangulWord);
  const cutAsked = options.morphemes !== false;
  const spansLeftWhole = source.kind === 'spans' && options.choice === 'auto' && !(learnt !== undefined && korean);
  const run = cutAsked && !spansLeftWhole ? createKoreanAnalyzer(options.choice, options.onWarn, learnt) : undefined;
  const cut = learnt === undefined || !cutAsked ? { morphemes: run } : morphemesFor(learnt, run, texts);
  if (cut.warning) options.onWarn?.(cut.warning);
  if (spansLeftWhole && cutAsked && korean) {
    options.onWarn?.("the span data holds Korean, read whole; pass --analyzer mecab (or rule) to cut it into morphemes as a Korean encoder's vocabulary was, or --no-morphemes to keep it whole");
  }
  return { ...(cut.morphemes && { analyzer: cut.morphemes }), close: async () => run?.close() };
}
