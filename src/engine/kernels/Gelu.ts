import * as tf from '@tensorflow/tfjs-core';
import { getKernel, util, type KernelConfig, type TensorInfo } from '@tensorflow/tfjs-core';
import { nativeKernels } from './native.js';
import { heapMemory, inputsOf, type WasmHeapBackend } from './wasmKernel.js';

/** ppmlm's fused exact-GELU kernels (wasm only): x · Φ(x), and dy · (Φ(x) + x · φ(x)). */
const GELU = 'PpmlmGelu';
const GELU_GRAD = 'PpmlmGeluGrad';

/** An output shaped like `like`, filled by `run(offsets of the inputs…, offset of the output, size)`. */
function elementwise(kernelName: string, names: readonly string[], run: (heap: WasmHeapBackend, offsets: number[], size: number) => void): KernelConfig {
  return {
    kernelName,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend }) => {
      const heap = backend as unknown as WasmHeapBackend;
      const tensors = inputsOf(inputs, names);
      const out = heap.makeOutput(tensors[0]!.shape, 'float32');
      const size = util.sizeFromShape(out.shape);
      if (size > 0) run(heap, [...tensors.map((t) => heap.getMemoryOffset(t.dataId)), heap.getMemoryOffset(out.dataId)], size);
      return out;
    },
  };
}

/**
 * tfjs composes exact GELU from five kernels forward (multiply, erf, add, multiply, multiply) and its
 * gradient from seven, each a pass over the feed-forward's [tokens, intermediate] activations, and the
 * forward keeps Φ(x) on the tape for the backward pass. These two run one pass each on wasm and keep
 * only x (see native/kernels.c).
 */
export const geluKernelConfigs: KernelConfig[] = [
  elementwise(GELU, ['x'], (heap, [x, out], n) => nativeKernels(heapMemory(heap)).gelu(x!, out!, n)),
  elementwise(GELU_GRAD, ['x', 'dy'], (heap, [x, dy, dx], n) => nativeKernels(heapMemory(heap)).geluGrad(x!, dy!, dx!, n)),
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
