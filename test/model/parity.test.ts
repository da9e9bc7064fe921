import * as tf from '@tensorflow/tfjs-core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { encode, loadModelDir, mlmLogits } from '../../src/model/index.js';
import { FIXTURES } from '../helpers/tmp.js';
import { webgpuUnavailable } from '../helpers/webgpu.js';

interface Expected {
  input_ids: number[][];
  attention_mask: number[][];
  hidden: number[][][];
  logits: number[][][];
}

function maxAbsDiff(a: number[], b: number[]): number {
  return a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]!)), 0);
}

// webgpu where Dawn finds an adapter (lavapipe, a software one, in CI); the suite's name says why it is skipped otherwise.
const webgpuMissing = await webgpuUnavailable();
const BACKENDS = [
  ['wasm', ''],
  ['cpu', ''],
  ['webgpu', webgpuMissing === undefined ? '' : ` (SKIPPED: ${webgpuMissing})`],
] as const;

describe.each(BACKENDS)('encoder parity with a PyTorch reference (%s)%s', (backend, skipped) => {
  it.skipIf(skipped !== '').each(['bert', 'roberta'])('%s: hidden states and MLM logits match within 1e-4', async (type) => {
    await selectBackend(backend);
    const dir = join(FIXTURES, 'parity', type);
    const expected = JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8')) as Expected;
    const { model } = await loadModelDir(dir, 'mlm');
    const [B, S] = [expected.input_ids.length, expected.input_ids[0]!.length];
    const outputs = tf.tidy(() => {
      const inputIds = tf.tensor2d(expected.input_ids, [B, S], 'int32');
      const attentionMask = tf.tensor2d(expected.attention_mask, [B, S], 'int32');
      const h = encode(model.params, model.config, { inputIds, attentionMask });
      const all = tf.range(0, B * S, 1, 'int32') as tf.Tensor1D;
      return [h, mlmLogits(model.params, model.config, h, all)];
    });
    // Read asynchronously: Node reads a WebGPU buffer no other way.
    const [hidden, logits] = await Promise.all(outputs.map(async (t) => Array.from(await t.data())));
    tf.dispose(outputs);
    expect(maxAbsDiff(hidden!, expected.hidden.flat(2))).toBeLessThan(1e-4);
    expect(maxAbsDiff(logits!, expected.logits.flat(2))).toBeLessThan(1e-4);
    for (const v of model.params.values()) v.dispose();
  });
});
