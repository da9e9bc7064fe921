import { Sum, util, type KernelConfig, type SumAttrs, type TensorInfo } from '@tensorflow/tfjs-core';
import { nativeKernels } from './native.js';
import { heapMemory, wrapWasmKernel } from './wasmKernel.js';

/**
 * tfjs-backend-wasm reduces only innermost axes: a sum over the leading axes (the gradient of every bias,
 * of LayerNorm's gain and shift) first transposes its input, which made these sums ~10% of a training
 * step. This kernel sums float32 tensors over leading axes in one pass with ppmlm's native column sum
 * and leaves every other reduction to the backend's own kernel.
 */
export function fastSumConfig(): KernelConfig | undefined {
  return wrapWasmKernel<{ x: TensorInfo }, SumAttrs>(Sum, ({ inputs: { x }, attrs: { axis, keepDims }, heap }) => {
    const axes = util.parseAxisParam(axis, x.shape).sort((p, q) => p - q);
    const leading = axes.length > 0 && axes.length < x.shape.length && axes.every((a, i) => a === i);
    if (x.dtype !== 'float32' || !leading) return undefined;
    const kept = x.shape.slice(axes.length);
    const out = heap.makeOutput(keepDims ? [...axes.map(() => 1), ...kept] : kept, 'float32');
    const rows = util.sizeFromShape(x.shape.slice(0, axes.length));
    const cols = util.sizeFromShape(kept);
    if (cols > 0) nativeKernels(heapMemory(heap)).columnSum(heap.getMemoryOffset(x.dataId), heap.getMemoryOffset(out.dataId), rows, cols);
    return out;
  });
}
