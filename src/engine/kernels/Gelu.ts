import * as tf from '@tensorflow/tfjs-core';
import { getKernel, util, type KernelConfig } from '@tensorflow/tfjs-core';
import { nativeKernels } from './native.js';
import { heapMemory, shapedLikeInputKernel } from './wasmKernel.js';

/** ppmlm's fused exact-GELU kernels (wasm only): x · Φ(x), and dy · (Φ(x) + x · φ(x)). */
const GELU = 'PpmlmGelu';
const GELU_GRAD = 'PpmlmGeluGrad';

/**
 * tfjs composes exact GELU from five kernels forward (multiply, erf, add, multiply, multiply) and its
 * gradient from seven, each a pass over the feed-forward's [tokens, intermediate] activations, and the
 * forward keeps Φ(x) on the tape for the backward pass. These two run one pass each on wasm and keep
 * only x (see native/kernels.c).
 */
export const geluKernelConfigs: KernelConfig[] = [
  shapedLikeInputKernel(GELU, ['x'], (heap, [x, out], shape) => nativeKernels(heapMemory(heap)).gelu(x!, out!, util.sizeFromShape(shape))),
  shapedLikeInputKernel(GELU_GRAD, ['x', 'dy'], (heap, [x, dy, dx], shape) => nativeKernels(heapMemory(heap)).geluGrad(x!, dy!, dx!, util.sizeFromShape(shape))),
];

const fusedOn = (x: tf.Tensor) => x.dtype === 'float32' && getKernel(GELU, tf.getBackend()) !== undefined;

/** x · Φ(x) in one pass of ppmlm's wasm kernel; undefined where the backend has none (compose it from tfjs ops there). */
export function fusedGelu(x: tf.Tensor): tf.Tensor | undefined {
  return fusedOn(x) ? (tf.engine().runKernel(GELU, { x }) as tf.Tensor) : undefined;
}

/** GELU's gradient dy · (Φ(x) + x · φ(x)) in one pass; undefined where the backend has no fused kernel. */
export function fusedGeluGrad(x: tf.Tensor, dy: tf.Tensor): tf.Tensor | undefined {
  return fusedOn(x) ? (tf.engine().runKernel(GELU_GRAD, { x, dy }) as tf.Tensor) : undefined;
}
