import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { fusedGelu, fusedGeluGrad } from '../../src/engine/kernels/Gelu.js';
import { setNativeKernelThreads } from '../../src/engine/kernels/native.js';
import { activation } from '../../src/model/index.js';
import { profiledOn } from '../helpers/profiled.js';

/** Values across GELU's range, the extremes included, in a length off the 4-lane tile. */
const xs = [...Array.from({ length: 1001 }, (_, i) => -10 + (20 * i) / 1000), -100, 100, 0, -0.3];
const dys = xs.map((_, i) => Math.cos(i));

/** GELU's value and its gradient against dy through the model's activation. */
function gelu(): { value: number[]; grad: number[] } {
  return tf.tidy(() => {
    const x = tf.tensor2d(xs, [1, xs.length]);
    const dy = tf.tensor2d(dys, [1, xs.length]);
    const grad = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(activation('gelu', t as tf.Tensor2D), dy)))(x);
    return { value: Array.from(activation('gelu', x).dataSync()), grad: Array.from(grad.dataSync()) };
  });
}

describe("ppmlm's fused GELU kernels", () => {
  it('give the value and gradient of the tfjs ops composition on cpu, within float32 rounding, and run on wasm', async () => {
    const { result: wasm, kernels } = await profiledOn('wasm', gelu);
    const { result: cpu, kernels: cpuKernels } = await profiledOn('cpu', gelu);
    expect(kernels).toContain('PpmlmGelu');
    expect(kernels).toContain('PpmlmGeluGrad');
    expect(kernels).not.toContain('Erf');
    expect(cpuKernels).not.toContain('PpmlmGelu');
    wasm.value.forEach((v, i) => expect(Math.abs(v - cpu.value[i]!)).toBeLessThan(1e-6 * (1 + Math.abs(v))));
    wasm.grad.forEach((g, i) => expect(Math.abs(g - cpu.grad[i]!)).toBeLessThan(1e-6));
    // The extremes: GELU(-100) = 0 and GELU(100) = 100, with gradients 0 and 1.
    expect(wasm.value.slice(1001, 1003)).toEqual([-0, 100]);
    expect(wasm.grad[1001]).toBeCloseTo(0, 12);
    expect(wasm.grad[1002]).toBeCloseTo(Math.fround(dys[1002]!), 12);
  });

  it('split a large tensor over the helper threads without changing a value', async () => {
    const n = 70_007;
    const run = () =>
      tf.tidy(() => {
        const x = tf.tensor1d(Array.from({ length: n }, (_, i) => 6 * Math.sin(i * 0.77)));
        const dy = tf.tensor1d(Array.from({ length: n }, (_, i) => Math.cos(i)));
        const value = activation('gelu', x.reshape([7, n / 7]) as tf.Tensor2D);
        const grad = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(activation('gelu', t as tf.Tensor2D), dy.reshape([7, n / 7]))))(x.reshape([7, n / 7]));
        return [Array.from(value.dataSync()), Array.from(grad.dataSync())];
      });
    await selectBackend('wasm');
    setNativeKernelThreads(2);
    const [wasmValue, wasmGrad] = run();
    await selectBackend('cpu');
    const [cpuValue, cpuGrad] = run();
    wasmValue!.forEach((v, i) => expect(Math.abs(v - cpuValue![i]!)).toBeLessThan(1e-6 * (1 + Math.abs(v))));
    wasmGrad!.forEach((g, i) => expect(Math.abs(g - cpuGrad![i]!)).toBeLessThan(1e-6));
  });

  it('are absent on cpu: the caller composes from tfjs ops there', async () => {
    await selectBackend('cpu');
    const x = tf.tensor1d([1, 2]);
    expect(fusedGelu(x)).toBeUndefined();
    expect(fusedGeluGrad(x, x)).toBeUndefined();
    x.dispose();
  });
});
