import * as tf from '@tensorflow/tfjs-core';
import { getKernel, util, type KernelConfig, type TensorInfo } from '@tensorflow/tfjs-core';
import { nativeKernels } from './native.js';
import { heapMemory, inputsOf, type WasmHeapBackend } from './wasmKernel.js';

/** ppmlm's fused LayerNorm kernels (wasm only): the normalised output with each row's mean and rstd, and its gradient. */
const LAYER_NORM = 'PpmlmLayerNorm';
const LAYER_NORM_GRAD = 'PpmlmLayerNormGrad';

/**
 * tfjs runs LayerNorm as about eight kernels forward (moments, a subtraction, rsqrt, products, the shift)
 * and ten backward, each a pass over the whole [tokens, hidden] tensor, and the forward keeps x̂ on the
 * tape. These run a row at a time in cache, keep two floats per row (mean, rstd) instead of x̂, and sum
 * the gain's and shift's gradients in the same pass (see native/kernels.c).
 */
export const layerNormKernelConfigs: KernelConfig[] = [
  {
    kernelName: LAYER_NORM,
    backendName: 'wasm',
    kernelFunc: ({ inputs, attrs, backend }) => {
      const heap = backend as unknown as WasmHeapBackend;
      const [x, gain, shift] = inputsOf(inputs, ['x', 'gain', 'shift']) as [TensorInfo, TensorInfo, TensorInfo];
      const cols = x.shape.at(-1)!;
      const rows = cols === 0 ? 0 : util.sizeFromShape(x.shape) / cols;
      const out = heap.makeOutput(x.shape, 'float32');
      const stats = heap.makeOutput([rows, 2], 'float32');
      const at = (t: TensorInfo) => heap.getMemoryOffset(t.dataId);
      if (rows > 0) nativeKernels(heapMemory(heap)).layerNorm(at(x), at(gain), at(shift), at(out), at(stats), rows, cols, (attrs as { eps: number }).eps);
      return [out, stats];
    },
  },
  {
    kernelName: LAYER_NORM_GRAD,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend }) => {
      const heap = backend as unknown as WasmHeapBackend;
      const [x, gain, dy, stats] = inputsOf(inputs, ['x', 'gain', 'dy', 'stats']) as [TensorInfo, TensorInfo, TensorInfo, TensorInfo];
      const cols = x.shape.at(-1)!;
      const rows = cols === 0 ? 0 : util.sizeFromShape(x.shape) / cols;
      const dx = heap.makeOutput(x.shape, 'float32');
      const dgain = heap.makeOutput([cols], 'float32');
      const dshift = heap.makeOutput([cols], 'float32');
      const at = (t: TensorInfo) => heap.getMemoryOffset(t.dataId);
      if (rows > 0) nativeKernels(heapMemory(heap)).layerNormGrad(at(x), at(gain), at(dy), at(stats), at(dx), at(dgain), at(dshift), rows, cols);
      return [dx, dgain, dshift];
    },
  },
];

const fusedOn = (x: tf.Tensor) => x.dtype === 'float32' && getKernel(LAYER_NORM, tf.getBackend()) !== undefined;

/** LayerNorm over the last axis with gain and shift, and each row's [mean, rstd]; undefined where the backend has no fused kernel. */
export function fusedLayerNorm(x: tf.Tensor, gain: tf.Tensor, shift: tf.Tensor, eps: number): [tf.Tensor, tf.Tensor] | undefined {
  return fusedOn(x) ? (tf.engine().runKernel(LAYER_NORM, { x, gain, shift }, { eps }) as unknown as [tf.Tensor, tf.Tensor]) : undefined;
}

/** LayerNorm's gradients [dx, dgain, dshift] from the forward pass's stats; undefined where the backend has no fused kernel. */
export function fusedLayerNormGrad(x: tf.Tensor, gain: tf.Tensor, dy: tf.Tensor, stats: tf.Tensor): [tf.Tensor, tf.Tensor, tf.Tensor] | undefined {
  return fusedOn(x) ? (tf.engine().runKernel(LAYER_NORM_GRAD, { x, gain, dy, stats }) as unknown as [tf.Tensor, tf.Tensor, tf.Tensor]) : undefined;
}
