import { Add, util, type KernelConfig, type TensorInfo } from '@tensorflow/tfjs-core';
import { nativeKernels } from './native.js';
import { heapMemory, wrapWasmKernel } from './wasmKernel.js';

/**
 * tfjs-backend-wasm adds a broadcast operand element by element through index arithmetic: a dense
 * layer's bias add ([tokens, out] + [out]) ran about ten times slower than an add of equal shapes, and
 * took a quarter of a small encoder's forward pass. This kernel adds a float32 row vector (a shape of
 * ones and then the last axis) to every row of the other operand with ppmlm's native kernel, either way
 * round, and leaves every other add to the backend's own kernel. The gradient is tfjs's Add gradient.
 */
export function fastAddConfig(): KernelConfig | undefined {
  return wrapWasmKernel<{ a: TensorInfo; b: TensorInfo }, object>(Add, ({ inputs: { a, b }, heap }) => {
    const isRow = (v: TensorInfo, x: TensorInfo) => v.shape.length <= x.shape.length && v.shape.length > 0 && v.shape.at(-1) === x.shape.at(-1) && v.shape.slice(0, -1).every((d) => d === 1);
    const [x, bias] = isRow(b, a) && util.sizeFromShape(a.shape) > util.sizeFromShape(b.shape) ? [a, b] : isRow(a, b) && util.sizeFromShape(b.shape) > util.sizeFromShape(a.shape) ? [b, a] : [];
    if (x === undefined || bias === undefined || x.dtype !== 'float32' || bias.dtype !== 'float32') return undefined;
    const out = heap.makeOutput(x.shape, 'float32');
    const cols = x.shape.at(-1)!;
    const rows = cols === 0 ? 0 : util.sizeFromShape(x.shape) / cols;
    if (rows > 0) nativeKernels(heapMemory(heap)).addRows(heap.getMemoryOffset(x.dataId), heap.getMemoryOffset(bias.dataId), heap.getMemoryOffset(out.dataId), rows, cols);
    return out;
  });
}
