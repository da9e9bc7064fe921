import { basename } from 'node:path';
import type { Detection, Recognizer } from '../identifiers/index.js';
import { loadTokenClassifier, type EncoderModel } from '../model/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import type { Tokenizer } from '../tokenizer/index.js';
import { entitySpans } from './apply.js';
import { predictLabels, type PredictOptions } from './classifier.js';
import { recordedPiiThreshold, trainedOnMorphemes } from './train.js';

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
  ) {
    this.name = `model:${basename(dir)}`;
  }

  /**
   * `analyzer` is used only when the model was trained on morpheme pre-tokenised text. `piiThreshold`
   * replaces the one its training chose on its dev split, which maximises F1 there: a blacklist applies
   * every false alarm everywhere, so it may want more precision than F1 weighs.
   */
  static async load(dir: string, analyzer?: MorphAnalyzer, options: { piiThreshold?: number } = {}): Promise<DeidModelRecognizer> {
    const { model, tokenizer, labels, provenance } = await loadTokenClassifier(dir);
    return new DeidModelRecognizer(model, tokenizer, labels, dir, { seqLen: Math.min(128, model.config.max_position_embeddings), analyzer: trainedOnMorphemes(provenance) ? analyzer : undefined, piiThreshold: options.piiThreshold ?? recordedPiiThreshold(provenance) });
  }

  async find(text: string): Promise<Detection[]> {
    const { encoding, predicted } = await predictLabels(this.model, this.tokenizer, this.labels, text, this.options);
    return entitySpans(text, encoding, predicted).map((s) => ({ start: s.start, end: s.end, category: s.label, source: this.name }));
  }
}
