import { GatherV2, util, type GatherV2Attrs, type KernelConfig, type TensorInfo } from '@tensorflow/tfjs-core';
import { wrapWasmKernel } from './wasmKernel.js';

/**
 * Row lookups (axis 0, no batch dimensions: every embedding lookup, and gathering the masked positions)
 * as one block copy per row: the backend's generic gather copies element by element, which cost ~5% of a
 * training step for the word and position embeddings alone. Other gathers go to the backend's kernel.
 */
export function fastGatherConfig(): KernelConfig | undefined {
  return wrapWasmKernel<{ x: TensorInfo; indices: TensorInfo }, GatherV2Attrs>(GatherV2, ({ inputs: { x, indices }, attrs: { axis, batchDims }, heap }) => {
    const rowsOf = x.shape[0] ?? 0;
    if ((x.dtype !== 'float32' && x.dtype !== 'int32') || util.parseAxisParam(axis, x.shape)[0] !== 0 || batchDims !== 0 || rowsOf === 0) return undefined;
    const cols = util.sizeFromShape(x.shape.slice(1));
    const out = heap.makeOutput([...indices.shape, ...x.shape.slice(1)], x.dtype);
    // Views after the allocation: the heap may have moved.
    const ids = heap.typedArrayFromHeap(indices) as unknown as Int32Array;
    const from = heap.typedArrayFromHeap(x);
    const to = heap.typedArrayFromHeap(out);
    for (let r = 0; r < ids.length; r++) {
      const i = ids[r]!;
      util.assert(i >= 0 && i < rowsOf, () => `GatherV2: the index value ${i} is not in [0, ${rowsOf - 1}]`);
      if (cols === 1) to[r] = from[i]!;
      else to.set(from.subarray(i * cols, (i + 1) * cols), r * cols);
    }
    return out;
  });
}
