import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { bestPiiThreshold, predictLabels } from '../../src/deid/index.js';
import { selectBackend } from '../../src/engine/index.js';
import { defaultConfig, encode, initParams, parameterShapes, tokenClassifierLogits, type EncoderModel } from '../../src/model/index.js';
import { windowRanges, windowsOf, WordPieceTokenizer } from '../../src/tokenizer/index.js';

const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'alice', 'smith', 'saw', 'bob', 'jones', 'today', '.', 'in', 'seoul'];
const LABELS = ['O', 'PERSON', 'PLACE', 'DATE'];
const tokenizer = new WordPieceTokenizer(VOCAB);

/** A random tagger whose classifier is scaled up so that its argmax varies with the token and its context. */
function randomTagger(): EncoderModel {
  const config = defaultConfig({ vocab_size: VOCAB.length, hidden_size: 16, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 32 });
  const params = initParams(parameterShapes(config, { tokenClassification: LABELS.length }), config, 3);
  const w = params.get('classifier.weight')!;
  w.assign(tf.mul(w, 100));
  return { config, params, head: { tokenClassification: LABELS.length } };
}

/** The labels of each window's tokens, one window at a time (no batching, no padding). */
function perWindow(model: EncoderModel, text: string, seqLen: number, stride: number): string[][] {
  return windowsOf(tokenizer, tokenizer.tokenize(text), { maxLength: seqLen, stride }).map((w) =>
    tf.tidy(() => {
      const ids = tf.tensor2d(w.ids, [1, w.ids.length], 'int32');
      const best = tf.argMax(tokenClassifierLogits(model.params, encode(model.params, model.config, { inputIds: ids, attentionMask: tf.onesLike(ids) as tf.Tensor2D })), 1);
      return [...(best.dataSync() as Int32Array)].slice(1, -1).map((l) => LABELS[l]!);
    }),
  );
}

const words = ['alice', 'smith', 'saw', 'bob', 'jones', 'today', 'in', 'seoul', '.'];
const LONG = Array.from({ length: 45 }, (_, i) => words[(i * 7) % words.length]).join(' ');

describe('predictLabels', () => {
  it('with disjoint windows, gives each window\'s own labels, batched and padded or not', async () => {
    await selectBackend('wasm');
    const model = randomTagger();
    const { predicted, encoding } = await predictLabels(model, tokenizer, LABELS, LONG, { seqLen: 12, stride: 0 });
    expect(encoding.ids).toHaveLength(45);
    expect(predicted).toEqual(perWindow(model, LONG, 12, 0).flat());
    expect(new Set(predicted).size).toBeGreaterThan(1);
  });

  it('with overlapping windows, labels each token from a window where it has the most context on its scarcer side', async () => {
    await selectBackend('wasm');
    const model = randomTagger();
    for (const stride of [3, 5, 8]) {
      const { predicted } = await predictLabels(model, tokenizer, LABELS, LONG, { seqLen: 12, stride: stride });
      const ranges = windowRanges(45, { maxLength: 12, stride });
      const labels = perWindow(model, LONG, 12, stride);
      predicted.forEach((label, j) => {
        const seen = ranges.map(([s, e]) => (j < s || j >= e ? -1 : Math.min(s === 0 ? Infinity : j - s, e === 45 ? Infinity : e - 1 - j)));
        const most = Math.max(...seen);
        const allowed = ranges.flatMap(([s], w) => (seen[w] === most ? [labels[w]![j - s]!] : []));
        expect(allowed).toContain(label);
      });
    }
  });

  it('labels a text that fits one window the same whatever the stride, and an empty text with nothing', async () => {
    await selectBackend('wasm');
    const model = randomTagger();
    const short = 'alice smith saw bob in seoul today .';
    const a = await predictLabels(model, tokenizer, LABELS, short, { seqLen: 16, stride: 0 });
    const b = await predictLabels(model, tokenizer, LABELS, short, { seqLen: 16 });
    expect(b.predicted).toEqual(a.predicted);
    expect((await predictLabels(model, tokenizer, LABELS, '', { seqLen: 16 })).predicted).toEqual([]);
  });
});

describe('windowRanges', () => {
  it('covers every token, consecutive windows sharing `stride` tokens', () => {
    expect(windowRanges(10, { maxLength: 6, stride: 1 })).toEqual([[0, 4], [3, 7], [6, 10]]);
    expect(windowRanges(0, { maxLength: 6 })).toEqual([[0, 0]]);
    expect(() => windowRanges(10, { maxLength: 6, stride: 4 })).toThrow(/stride/);
  });
});

describe('the PII threshold', () => {
  it('labels a token PII exactly when 1 − P(O) reaches it, then with its likeliest other label', async () => {
    await selectBackend('wasm');
    const model = randomTagger();
    const free = await predictLabels(model, tokenizer, LABELS, LONG, { seqLen: 12 });
    const ps = [...free.piiProbability].sort((a, b) => a - b);
    const threshold = ps[Math.floor(ps.length / 2)]!;
    const cut = await predictLabels(model, tokenizer, LABELS, LONG, { seqLen: 12, piiThreshold: threshold });
    expect([...cut.piiProbability]).toEqual([...free.piiProbability]);
    let flagged = 0;
    cut.predicted.forEach((label, j) => {
      expect(label !== 'O', `token ${j}`).toBe(cut.piiProbability[j]! >= threshold);
      if (label === 'O') return;
      flagged++;
      // Where the free prediction already chose a PII label, it is the likeliest one too.
      if (free.predicted[j] !== 'O') expect(label).toBe(free.predicted[j]);
    });
    expect(flagged).toBeGreaterThan(0);
    expect(flagged).toBeLessThan(cut.predicted.length);
  });

  it('is chosen where binary F1 is highest, cutting only between distinct probabilities', () => {
    // Cuts at .9 .8 .7 .6 .1 give F1 2/4, 4/5, 4/6, 4/7, 6/8.
    expect(bestPiiThreshold([true, true, false, false, true], [0.9, 0.8, 0.7, 0.6, 0.1])).toEqual({ threshold: 0.8, f1: 0.8 });
    expect(bestPiiThreshold([true, false, true, false, true], [0.9, 0.8, 0.7, 0.3, 0.2])).toEqual({ threshold: 0.2, f1: 0.75 });
    // Tied probabilities fall on one side together: the only cut flags both.
    expect(bestPiiThreshold([true, false], [0.5, 0.5])).toEqual({ threshold: 0.5, f1: 2 / 3 });
    expect(() => bestPiiThreshold([true], [0.5, 0.4])).toThrow(RangeError);
  });

  it('refuses NaN probabilities, which cannot be sorted, naming where they came from', () => {
    expect(() => bestPiiThreshold([true, false], [0.5, NaN])).toThrow(/^PII probabilities of the dev split: value 2 of 2 is NaN/);
  });
});
