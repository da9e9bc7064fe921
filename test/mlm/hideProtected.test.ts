import { describe, expect, it } from 'vitest';
import { Rng, selectBackend } from '../../src/engine/index.js';
import { defaultConfig, initParams, parameterShapes } from '../../src/model/index.js';
import { makeBatch, mlmLoss, randomPool, type TrainingWindow } from '../../src/mlm/index.js';

const CONFIG = defaultConfig({ vocab_size: 60, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 32 });
const MASK = { probability: 0.3, maskId: 4, randomPool: randomPool(60, new Set([0, 1, 2, 3, 4])), padId: 0 };

/** Windows of [CLS] tokens [SEP] with every fourth token protected; `protectedId` fills the protected positions. */
function windows(protectedId: (i: number) => number): TrainingWindow[] {
  return [20, 14].map((n, w) => {
    const protectedMask = Uint8Array.from({ length: n }, (_, i) => (i > 0 && i < n - 1 && i % 4 === 2 ? 1 : 0));
    const ids = Int32Array.from({ length: n }, (_, i) => (i === 0 ? 2 : i === n - 1 ? 3 : protectedMask[i] ? protectedId(i + w) : 5 + ((i * 7 + w) % 50)));
    return { doc: w, ids, special: Uint8Array.from({ length: n }, (_, i) => (i === 0 || i === n - 1 ? 1 : 0)), protectedMask, words: Int32Array.from({ length: n }, (_, i) => (i === 0 || i === n - 1 ? -1 : i - 1)) };
  });
}

describe('--hide-protected-context (protected positions hidden as attention keys)', () => {
  it('masks the protected positions out of the attention mask, and nothing else', () => {
    const ws = windows(() => 40);
    const shown = makeBatch(ws, 'constrained', MASK, () => new Rng(1));
    const hidden = makeBatch(ws, 'constrained', { ...MASK, hideProtectedKeys: true }, () => new Rng(1));
    const expected = ws.flatMap((w) => [...Array.from(w.protectedMask, (p) => 1 - p), ...new Array(20 - w.ids.length).fill(0)]);
    expect(Array.from(hidden.attentionMask)).toEqual(expected);
    expect(hidden.inputIds).toEqual(shown.inputIds);
    expect(hidden.positions).toEqual(shown.positions);
  });

  it('makes the constrained loss blind to what the protected tokens are (and only then)', async () => {
    await selectBackend('cpu');
    const model = { config: CONFIG, params: initParams(parameterShapes(CONFIG), CONFIG, 4) };
    const loss = (protectedId: (i: number) => number, hide: boolean) =>
      mlmLoss(model, makeBatch(windows(protectedId), 'constrained', { ...MASK, hideProtectedKeys: hide }, () => new Rng(7))).dataSync()[0]!;
    expect(loss(() => 41, true)).toBe(loss((i) => 42 + (i % 9), true));
    expect(loss(() => 41, false)).not.toBe(loss((i) => 42 + (i % 9), false));
  });
});
