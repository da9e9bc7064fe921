import * as tf from '@tensorflow/tfjs-core';
import { getKernel, util, type KernelConfig } from '@tensorflow/tfjs-core';
import { nativeKernels } from './native.js';
import { heapMemory, shapedLikeInputKernel } from './wasmKernel.js';

/** ppmlm's fused attention-softmax kernels (wasm only): softmax(scores · scale + mask), and its gradient. */
const ATTENTION_SOFTMAX = 'PpmlmAttentionSoftmax';
const ATTENTION_SOFTMAX_GRAD = 'PpmlmAttentionSoftmaxGrad';

/**
 * tfjs runs attention's scaling, its padding mask and softmax as three kernels over the [batch, heads,
 * queries, keys] scores (the mask add through the slow broadcast path), and softmax's gradient as four
 * more. These run a row at a time in cache, one pass each way (see native/kernels.c).
 */
export const attentionSoftmaxKernelConfigs: KernelConfig[] = [
  shapedLikeInputKernel(ATTENTION_SOFTMAX, ['scores', 'bias'], (heap, [scores, bias, out], shape, attrs) => {
    const rows = util.sizeFromShape(shape) / shape.at(-1)!;
    // bias [windows, 1, 1, keys]: a window's rows are its heads' queries.
    nativeKernels(heapMemory(heap)).attentionSoftmax(scores!, bias!, out!, rows, shape.at(-1)!, rows / shape[0]!, (attrs as { scale: number }).scale);
  }),
  shapedLikeInputKernel(ATTENTION_SOFTMAX_GRAD, ['y', 'dy'], (heap, [y, dy, dx], shape, attrs) =>
    nativeKernels(heapMemory(heap)).attentionSoftmaxGrad(y!, dy!, dx!, util.sizeFromShape(shape) / shape.at(-1)!, shape.at(-1)!, (attrs as { scale: number }).scale),
  ),
];

/** Whether the fused kernels run attention's softmax here (float32 scores on a backend that has them). */
export function attentionSoftmaxFused(scores: tf.Tensor): boolean {
  return scores.dtype === 'float32' && getKernel(ATTENTION_SOFTMAX, tf.getBackend()) !== undefined;
}

/**
 * softmax(scores · scale + bias) over the last axis, for scores [batch, heads, queries, keys] and an
 * additive mask bias [batch, 1, 1, keys]; call only where {@link attentionSoftmaxFused}.
 */
export function fusedAttentionSoftmax(scores: tf.Tensor, bias: tf.Tensor, scale: number): tf.Tensor {
  return tf.engine().runKernel(ATTENTION_SOFTMAX, { scores, bias }, { scale }) as tf.Tensor;
}

/** Its gradient with respect to the scores, from its output y. */
export function fusedAttentionSoftmaxGrad(y: tf.Tensor, dy: tf.Tensor, scale: number): tf.Tensor {
  return tf.engine().runKernel(ATTENTION_SOFTMAX_GRAD, { y, dy }, { scale }) as tf.Tensor;
}
