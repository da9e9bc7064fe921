import { basename } from 'node:path';
import { MODEL_SOURCE, type Detection, type Recognizer } from '../identifiers/index.js';
import { loadTokenClassifier, type EncoderModel } from '../model/index.js';
import { mecabReading, morphemeCursor, quantity, verbForm, type MorphAnalyzer } from '../text/index.js';
import type { Tokenizer } from '../tokenizer/index.js';
import { entitySpans } from './apply.js';
import { predictLabels, type PredictOptions } from './classifier.js';
import { modelCut } from './cut.js';
import { inferenceSeqLen, recordedPiiThreshold } from './train.js';

/**
 * A trained de-identification model as a direct-identifier recogniser (`model:<dir>` in blacklists): its
 * entities, widened to whole words, with the model's label as category.
 */
export class DeidModelRecognizer implements Recognizer {
  readonly name: string;

  private constructor(
    private readonly model: EncoderModel,
    private readonly tokenizer: Tokenizer,
    private readonly labels: string[],
    dir: string,
    private readonly options: PredictOptions,
    private readonly analyzer?: MorphAnalyzer,
  ) {
    this.name = `${MODEL_SOURCE}${basename(dir)}`;
  }

  /**
   * `analyzer` (the rules') splits the text only for a model trained on morpheme pre-tokenised text, and a
   * model trained on the rule analyser's morphemes is read with them whatever the rules use; mecab,
   * whatever the model, also reads the entities' endings to drop verb forms. `piiThreshold` replaces the
   * one its training chose on its dev split, which maximises F1 there: a blacklist applies every false
   * alarm everywhere, so it may want more precision than F1 weighs. `onWarn` hears when the text cannot be
   * cut as the model's training did ({@link modelCut}): a mecab model where mecab is not used.
   */
  static async load(dir: string, analyzer?: MorphAnalyzer, options: { piiThreshold?: number; onWarn?: (message: string) => void } = {}): Promise<DeidModelRecognizer> {
    const { model, tokenizer, labels, provenance } = await loadTokenClassifier(dir);
    const cut = modelCut(provenance, analyzer, options.onWarn);
    return new DeidModelRecognizer(model, tokenizer, labels, dir, { seqLen: inferenceSeqLen(model.config, provenance), analyzer: cut, piiThreshold: options.piiThreshold ?? recordedPiiThreshold(provenance) }, analyzer);
  }

  async find(text: string): Promise<Detection[]> {
    const { encoding, predicted } = await predictLabels(this.model, this.tokenizer, this.labels, text, this.options);
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
