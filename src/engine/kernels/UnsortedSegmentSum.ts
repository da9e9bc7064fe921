import { UnsortedSegmentSum, util, type KernelConfig, type KernelFunc, type TensorInfo, type UnsortedSegmentSumAttrs, type UnsortedSegmentSumInputs } from '@tensorflow/tfjs-core';

/** The slice of the wasm backend's interface a JavaScript kernel needs: read inputs, allocate an output on the heap. */
interface HeapBackend {
  readSync(dataId: unknown): unknown;
  makeOutput(shape: number[], dtype: string): TensorInfo;
  typedArrayFromHeap(info: TensorInfo): Float32Array | Int32Array;
}

/**
 * out[s, ...] = sum of x[i, ...] over the i with segmentIds[i] = s. The wasm backend has no such kernel,
 * and the gradient of `gather` (every embedding lookup) needs it. One pass in JavaScript over heap memory:
 * O(x.size), no copies beyond the output.
 */
const unsortedSegmentSum: KernelFunc = ({ inputs, backend, attrs }) => {
  const { x, segmentIds } = inputs as unknown as UnsortedSegmentSumInputs;
  const { numSegments } = attrs as unknown as UnsortedSegmentSumAttrs;
  const heap = backend as unknown as HeapBackend;
  const xInfo = x as unknown as TensorInfo;
  const idInfo = segmentIds as unknown as TensorInfo;
  const rows = util.sizeFromShape(idInfo.shape);
  const inner = util.sizeFromShape(xInfo.shape) / Math.max(rows, 1);
  const out = heap.makeOutput([numSegments, ...xInfo.shape.slice(idInfo.shape.length)], xInfo.dtype);
  const values = heap.typedArrayFromHeap(out);
  values.fill(0);
  const xs = heap.readSync(xInfo.dataId) as Float32Array | Int32Array;
  const ids = heap.readSync(idInfo.dataId) as Int32Array;
  for (let i = 0; i < rows; i++) {
    const s = ids[i]!;
    if (s < 0 || s >= numSegments) continue;
    const src = i * inner;
    const dst = s * inner;
    for (let j = 0; j < inner; j++) values[dst + j]! += xs[src + j]!;
  }
  return out;
};

export const unsortedSegmentSumConfig: KernelConfig = {
  kernelName: UnsortedSegmentSum,
  backendName: 'wasm',
  kernelFunc: unsortedSegmentSum,
};
