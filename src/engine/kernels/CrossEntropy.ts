import * as tf from '@tensorflow/tfjs-core';
import { getKernel, type KernelConfig, type TensorInfo } from '@tensorflow/tfjs-core';
import { nativeKernels } from './native.js';
import { heapMemory, inputsOf, type WasmHeapBackend } from './wasmKernel.js';

/** ppmlm's fused softmax cross-entropy kernels (wasm only): each row's max, Σ e^(x - max) and shifted label logit, and the gradient. */
const CROSS_ENTROPY = 'PpmlmCrossEntropy';
const CROSS_ENTROPY_GRAD = 'PpmlmCrossEntropyGrad';

/**
 * The MLM loss over [targets, vocabulary] logits: tfjs runs about seven kernels forward and four backward,
 * each a pass over the whole logits, keeps the exponentials on the tape and builds a one-hot as large.
 * These make two passes over a row forward and one backward, and keep three floats per row (see
 * native/kernels.c).
 */
export const crossEntropyKernelConfigs: KernelConfig[] = [
  {
    kernelName: CROSS_ENTROPY,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend }) => {
      const heap = backend as unknown as WasmHeapBackend;
      const [logits, labels] = inputsOf(inputs, ['logits', 'labels']) as [TensorInfo, TensorInfo];
      const [rows, cols] = logits.shape as [number, number];
      const stats = heap.makeOutput([rows, 3], 'float32');
      const at = (t: TensorInfo) => heap.getMemoryOffset(t.dataId);
      if (rows > 0 && cols > 0) nativeKernels(heapMemory(heap)).crossEntropy(at(logits), at(labels), at(stats), rows, cols);
      return stats;
    },
  },
  {
    kernelName: CROSS_ENTROPY_GRAD,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend }) => {
      const heap = backend as unknown as WasmHeapBackend;
      const [logits, labels, stats, scale] = inputsOf(inputs, ['logits', 'labels', 'stats', 'scale']) as [TensorInfo, TensorInfo, TensorInfo, TensorInfo];
      const [rows, cols] = logits.shape as [number, number];
      const dx = heap.makeOutput(logits.shape, 'float32');
      const at = (t: TensorInfo) => heap.getMemoryOffset(t.dataId);
      if (rows > 0 && cols > 0) nativeKernels(heapMemory(heap)).crossEntropyGrad(at(logits), at(labels), at(stats), at(scale), at(dx), rows, cols);
      return dx;
    },
  },
];

const fusedOn = (x: tf.Tensor) => x.dtype === 'float32' && getKernel(CROSS_ENTROPY, tf.getBackend()) !== undefined;

/** Per row of `logits`: [max, Σ e^(x - max), x[label] - max]; undefined where the backend has no fused kernel. */
export function fusedCrossEntropy(logits: tf.Tensor2D, labels: tf.Tensor1D): tf.Tensor2D | undefined {
  return fusedOn(logits) ? (tf.engine().runKernel(CROSS_ENTROPY, { logits, labels }) as tf.Tensor2D) : undefined;
}

/** The loss's gradient with respect to the logits, (softmax - one-hot) · scale, from the forward pass's stats. */
export function fusedCrossEntropyGrad(logits: tf.Tensor, labels: tf.Tensor, stats: tf.Tensor, scale: tf.Tensor): tf.Tensor | undefined {
  return fusedOn(logits) ? (tf.engine().runKernel(CROSS_ENTROPY_GRAD, { logits, labels, stats, scale }) as tf.Tensor) : undefined;
}
