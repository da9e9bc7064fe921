import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { activation, layerNorm } from '../../src/model/index.js';

const data = (n: number, seed: number) => Array.from({ length: n }, (_, i) => 2 * Math.sin(i * 0.73 + seed));
const close = (a: tf.Tensor, b: tf.Tensor) => {
  const [x, y] = [a.dataSync(), b.dataSync()];
  expect(x.length).toBe(y.length);
  x.forEach((v, i) => expect(v).toBeCloseTo(y[i]!, 4));
};

describe('hand-written gradients match autodiff of the textbook formulas', () => {
  it('LayerNorm: value and gradients for input, gain and shift', async () => {
    await selectBackend('wasm');
    const [rows, h, eps] = [5, 12, 1e-12];
    const x = tf.tensor2d(data(rows * h, 1), [rows, h]);
    const upstream = tf.tensor2d(data(rows * h, 2), [rows, h]);
    const params = new Map([
      ['ln.weight', tf.variable(tf.tensor1d(data(h, 3)))],
      ['ln.bias', tf.variable(tf.tensor1d(data(h, 4)))],
    ]);
    const textbook = (input: tf.Tensor2D, gain: tf.Tensor, shift: tf.Tensor) => {
      const { mean, variance } = tf.moments(input, -1, true);
      return tf.add(tf.mul(tf.div(tf.sub(input, mean), tf.sqrt(tf.add(variance, eps))), gain), shift);
    };
    const reference = tf.grads((input: tf.Tensor, gain: tf.Tensor, shift: tf.Tensor) => tf.sum(tf.mul(textbook(input as tf.Tensor2D, gain, shift), upstream)));
    const gain = params.get('ln.weight')!.clone();
    const shift = params.get('ln.bias')!.clone();
    close(layerNorm(params, 'ln', x, eps), textbook(x, gain, shift));
    const b = reference([x, gain, shift]);
    close(tf.grad((input: tf.Tensor) => tf.sum(tf.mul(layerNorm(params, 'ln', input as tf.Tensor2D, eps), upstream)))(x), b[0]!);
    // Through the parameters as variables, as training takes them.
    const { grads } = tf.variableGrads(() => tf.sum(tf.mul(layerNorm(params, 'ln', x, eps), upstream)), [...params.values()]);
    close(grads[params.get('ln.weight')!.name]!, b[1]!);
    close(grads[params.get('ln.bias')!.name]!, b[2]!);
  });

  it('exact GELU: value and gradient', async () => {
    await selectBackend('wasm');
    const x = tf.tensor2d(data(40, 5), [4, 10]);
    const textbook = (v: tf.Tensor) => tf.mul(tf.mul(0.5, v), tf.add(1, tf.erf(tf.mul(v, Math.SQRT1_2))));
    close(activation('gelu', x), textbook(x));
    close(tf.grad((v: tf.Tensor) => tf.sum(tf.mul(activation('gelu', v as tf.Tensor2D), x)))(x), tf.grad((v: tf.Tensor) => tf.sum(tf.mul(textbook(v), x)))(x));
  });
});
