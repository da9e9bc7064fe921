import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { MODEL_SOURCE, type Detection, type Recognizer } from '../identifiers/index.js';
import { UsageError } from '../errors.js';
import { disposeParams, loadTokenClassifier, type EncoderModel } from '../model/index.js';
import { mecabReading, morphemeCursor, quantity, verbForm, type MorphAnalyzer } from '../text/index.js';
import { firstDifferentToken, type Tokenizer } from '../tokenizer/index.js';
import { entitySpans } from './apply.js';
import { predictLabels, type PredictOptions } from './classifier.js';
import { modelCut, recordedAnalyzer, trainedOnMorphemes } from './cut.js';
import { inferenceSeqLen, recordedPiiThreshold } from './train.js';

/**
 * A trained de-identification model, or an ensemble of them, as a direct-identifier recogniser
 * (`model:<dir>`, `model:<dir>+<dir>` in blacklists): its entities, widened to whole words, with the
 * model's label as category.
 */
export class DeidModelRecognizer implements Recognizer {
  readonly name: string;
  /** The PII probability a token needs (see `PredictOptions.piiThreshold`); undefined: its likeliest label. */
  readonly piiThreshold: number | undefined;
  private closed = false;

  private constructor(
    private readonly models: readonly EncoderModel[],
    private readonly tokenizer: Tokenizer,
    private readonly labels: string[],
    dirs: readonly string[],
    private readonly options: PredictOptions,
    private readonly analyzer?: MorphAnalyzer,
  ) {
    this.name = `${MODEL_SOURCE}${dirs.map((d) => basename(d)).join('+')}`;
    this.piiThreshold = options.piiThreshold;
  }

  /**
   * `analyzer` (the rules') splits the text only for a model trained on morpheme pre-tokenised text, and a
   * model trained on the rule analyser's morphemes is read with them whatever the rules use; mecab,
   * whatever the model, also reads the entities' endings to drop verb forms. `piiThreshold` replaces the
   * one its training chose on its dev split, which maximises F1 there: a blacklist applies every false
   * alarm everywhere, so it may want more precision than F1 weighs. `onWarn` hears when the text cannot be
   * cut as the model's training did ({@link modelCut}): a mecab model where mecab is not used.
   *
   * Several folders make an ensemble: each token takes the mean of the models' label probabilities (so that
   * a blacklist rests on more than one training run of a small tagger), and the
   * threshold is the mean of the ones they recorded (all or none must record one). They must share what
   * the mean is taken over: the tokenizer, the labels, the window and the cut.
   */
  static async load(dirs: string | readonly string[], analyzer?: MorphAnalyzer, options: { piiThreshold?: number; onWarn?: (message: string) => void } = {}): Promise<DeidModelRecognizer> {
    const folders = typeof dirs === 'string' ? [dirs] : dirs;
    if (folders.length === 0) throw new UsageError('--deid-model: give at least one model folder');
    // The same folder however written: a trailing slash, a relative path, a link to it.
    const real = await Promise.all(folders.map((d) => realpath(d).catch(() => resolve(d))));
    const twice = folders.find((_, i) => real.indexOf(real[i]!) !== i);
    if (twice !== undefined) throw new UsageError(`--deid-model ${twice} is given twice; an ensemble's models are trained apart (deid train --model BASE --seed N)`);
    const loaded: LoadedTagger[] = [];
    let threshold = options.piiThreshold;
    try {
      for (const dir of folders) {
        const member = await loadTokenClassifier(dir);
        loaded.push(member);
        if (loaded.length > 1) assertSameTagger(loaded[0]!, member, folders[0]!, dir);
      }
      if (threshold === undefined) {
        const recorded = loaded.map((m, i) => recordedPiiThreshold(m.provenance, folders[i]!));
        const without = recorded.findIndex((t) => t === undefined);
        // A model without a threshold decides by its likeliest label, another rule than a threshold: no mean of the two.
        if (without >= 0 && recorded.some((t) => t !== undefined)) throw new UsageError(`--deid-model ${folders[without]}: its ppmlm.json records no PII threshold and the others do, so theirs cannot be averaged with it; give one with --deid-threshold`);
        if (without < 0) threshold = (recorded as number[]).reduce((sum, t) => sum + t, 0) / recorded.length;
      }
      const { tokenizer, labels, provenance, model } = loaded[0]!;
      const cut = modelCut(provenance, analyzer, options.onWarn);
      return new DeidModelRecognizer(loaded.map((m) => m.model), tokenizer, labels, folders, { seqLen: inferenceSeqLen(model.config, provenance), analyzer: cut, piiThreshold: threshold }, analyzer);
    } catch (err) {
      for (const m of loaded) disposeParams(m.model.params);
      throw err;
    }
  }

  /** Frees the models' weights (a library user may build with N models, then go on in the same process). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const model of this.models) disposeParams(model.params);
  }

  async find(text: string): Promise<Detection[]> {
    if (this.closed) throw new Error(`${this.name} is closed: its weights were freed`);
    const { encoding, predicted } = await predictLabels(this.models, this.tokenizer, this.labels, text, this.options);
    const spans = entitySpans(text, encoding, predicted);
    // A model trained on one kind of document takes words of another for entities; a verb's form is never
    // one (see verbForm), nor a quantity (27일, 643억: see quantity), and a blacklist would protect it
    // everywhere. A verb's form is read to the end of the entity's last word, where its ending is even when
    // the entity stops at the stem (송금하|였다); a quantity only inside the entity, since what follows it in
    // the word would hide it (3162만1000달러|(약)). Entities come in text order.
    const analysis = spans.length > 0 ? await mecabReading(this.analyzer, text) : [];
    const inside = analysis.length > 0 ? morphemeCursor(analysis) : undefined;
    const wordEnd = (end: number) => {
      while (end < text.length && !/\s/.test(text[end]!)) end++;
      return end;
    };
    const kept = spans.filter((s) => {
      if (inside === undefined) return true;
      const word = inside(s.start, wordEnd(s.end));
      return !verbForm(word) && !quantity(word.filter((m) => m.end <= s.end));
    });
    return kept.map((s) => ({ start: s.start, end: s.end, category: s.label, source: this.name }));
  }
}

type LoadedTagger = Awaited<ReturnType<typeof loadTokenClassifier>>;

/** Refuses an ensemble member whose probabilities cannot be averaged with the first's, naming what differs. */
function assertSameTagger(first: LoadedTagger, other: LoadedTagger, firstDir: string, dir: string): void {
  const differs = (what: string) => new UsageError(`--deid-model ${dir}: ${what} than ${firstDir}, so their label probabilities cannot be averaged; give models trained from one base encoder with the same labels (deid train --model BASE --seed N for each)`);
  if (other.labels.join('\n') !== first.labels.join('\n')) throw differs('other labels');
  const [a, b] = [first.tokenizer, other.tokenizer];
  if (a.type !== b.type || a.vocabSize !== b.vocabSize || firstDifferentToken(a, b) !== undefined) throw differs('another tokenizer');
  if (inferenceSeqLen(other.model.config, other.provenance) !== inferenceSeqLen(first.model.config, first.provenance)) throw differs('another window');
  if (trainedOnMorphemes(other.provenance) !== trainedOnMorphemes(first.provenance) || recordedAnalyzer(other.provenance) !== recordedAnalyzer(first.provenance)) throw differs('another morpheme cut');
}
