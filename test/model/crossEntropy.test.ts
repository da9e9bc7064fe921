import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { crossEntropy } from '../../src/model/index.js';
import { Rng } from '../../src/engine/random.js';
import { profiledOn } from '../helpers/profiled.js';

/** Loss and gradient by the textbook formulas, in float64. */
function reference(logits: number[][], labels: number[]): { loss: number; grad: number[][] } {
  let loss = 0;
  const grad = logits.map((row, i) => {
    const max = Math.max(...row);
    const z = row.reduce((a, v) => a + Math.exp(v - max), 0);
    loss += Math.log(z) + max - row[labels[i]!]!;
    return row.map((v, j) => (Math.exp(v - max) / z - (j === labels[i] ? 1 : 0)) / logits.length);
  });
  return { loss: loss / logits.length, grad };
}

describe('crossEntropy (fused forward and gradient)', () => {
  it('gives the textbook loss and gradient (softmax − one-hot) / n, also for huge logits, without leaking tensors', async () => {
    await selectBackend('wasm');
    const rng = new Rng(5);
    for (const scale of [1, 30, 1e4]) {
      const logits = Array.from({ length: 6 }, () => Array.from({ length: 9 }, () => (rng.next() - 0.5) * scale));
      const labels = [0, 8, 3, 3, 5, 1];
      const want = reference(logits, labels);
      const before = tf.memory().numTensors;
      const x = tf.tensor2d(logits);
      const y = tf.tensor1d(labels, 'int32');
      const { value, grad } = tf.valueAndGrad((t: tf.Tensor) => crossEntropy(t as tf.Tensor2D, y))(x);
      expect(value.dataSync()[0]).toBeCloseTo(want.loss, scale > 100 ? 0 : 4);
      const g = grad.arraySync() as number[][];
      for (let i = 0; i < 6; i++) for (let j = 0; j < 9; j++) expect(g[i]![j]).toBeCloseTo(want.grad[i]![j]!, 5);
      tf.dispose([x, y, value, grad]);
      expect(tf.memory().numTensors).toBe(before);
    }
  });

  it('differentiates when the labels are made inside the loss, as the trainers do (they are gone by the backward pass)', async () => {
    await selectBackend('wasm');
    const v = tf.variable(tf.tensor2d([[1, 2, 3], [0, 0, 5]]));
    const before = tf.memory().numTensors;
    const { value, grads } = tf.variableGrads(() => crossEntropy(v as unknown as tf.Tensor2D, tf.tensor1d([2, 0], 'int32')), [v]);
    const want = reference([[1, 2, 3], [0, 0, 5]], [2, 0]);
    expect(value.dataSync()[0]).toBeCloseTo(want.loss, 5);
    expect((grads[v.name]!.arraySync() as number[][])[1]![0]).toBeCloseTo(want.grad[1]![0]!, 6);
    tf.dispose([value, grads[v.name]!]);
    expect(tf.memory().numTensors).toBe(before);
    v.dispose();
  });

  it("runs as ppmlm's fused kernels on wasm, matching the cpu backend's composition on rows off the SIMD tile, and gives NaN for a label outside the vocabulary", async () => {
    const rng = new Rng(9);
    const logits = Array.from({ length: 5 }, () => Array.from({ length: 1001 }, () => (rng.next() - 0.5) * 8));
    const labels = [0, 1000, 17, 500, 999];
    const loss = () =>
      tf.tidy(() => {
        const { value, grad } = tf.valueAndGrad((t: tf.Tensor) => crossEntropy(t as tf.Tensor2D, tf.tensor1d(labels, 'int32')))(tf.tensor2d(logits));
        return { loss: value.dataSync()[0]!, grad: Array.from(grad.dataSync()) };
      });
    const { result: wasm, kernels } = await profiledOn('wasm', loss);
    const { result: cpu, kernels: cpuKernels } = await profiledOn('cpu', loss);
    expect(kernels).toEqual(expect.arrayContaining(['PpmlmCrossEntropy', 'PpmlmCrossEntropyGrad']));
    expect(kernels).not.toContain('OneHot');
    expect(cpuKernels).not.toContain('PpmlmCrossEntropy');
    expect(wasm.loss).toBeCloseTo(cpu.loss, 5);
    wasm.grad.forEach((g, i) => expect(Math.abs(g - cpu.grad[i]!)).toBeLessThan(1e-7));
    await selectBackend('wasm');
    const bad = tf.tidy(() => crossEntropy(tf.tensor2d([[1, 2, 3]]), tf.tensor1d([3], 'int32')).dataSync()[0]);
    expect(bad).toBeNaN();
  });
});
