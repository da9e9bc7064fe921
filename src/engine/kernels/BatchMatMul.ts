import { BatchMatMul, util, type BatchMatMulAttrs, type KernelConfig, type TensorInfo } from '@tensorflow/tfjs-core';
import { nativeKernels } from './native.js';
import { heapMemory, wrapWasmKernel } from './wasmKernel.js';

/**
 * tfjs-backend-wasm runs a matMul through XNNPACK only for one unbatched, untransposed product; batched or
 * transposed products take a generic path about ten times slower. Attention and every gradient of a dense
 * layer hit that path. This kernel sends every float32 product to ppmlm's own wasm SIMD matmul
 * (native/kernels.c), which reads transposed and broadcast operands through strides in place, with no
 * copies. The plain product goes there too: XNNPACK keeps a packed copy of every weight matrix it
 * multiplies by for as long as that matrix lives (for RoBERTa-large, 1.2 GB of a 4 GiB heap), and the
 * native kernel is as fast at encoder shapes (`npm run bench` matmul rows).
 */
export function fastBatchMatMulConfig(): KernelConfig | undefined {
  return wrapWasmKernel<{ a: TensorInfo; b: TensorInfo }, BatchMatMulAttrs>(BatchMatMul, ({ inputs: { a, b }, attrs: { transposeA, transposeB }, heap }) => {
    const batchA = util.sizeFromShape(a.shape.slice(0, -2));
    const batchB = util.sizeFromShape(b.shape.slice(0, -2));
    if (a.dtype !== 'float32' || b.dtype !== 'float32' || (batchA !== batchB && batchA !== 1 && batchB !== 1)) return undefined;

    const [ra, ca] = a.shape.slice(-2) as [number, number];
    const [rb, cb] = b.shape.slice(-2) as [number, number];
    const m = transposeA ? ca : ra;
    const n = transposeB ? rb : cb;
    const k = transposeA ? ra : ca;
    const batch = Math.max(batchA, batchB);
    const out = heap.makeOutput([...(batchA >= batchB ? a.shape : b.shape).slice(0, -2), m, n], 'float32');
    if (batch * m * n === 0) return out;
    if (k === 0) {
      heap.typedArrayFromHeap(out).fill(0);
      return out;
    }
    const native = nativeKernels(heapMemory(heap));
    const [aRs, aCs, bRs, bCs] = [transposeA ? 1 : ca, transposeA ? ca : 1, transposeB ? 1 : cb, transposeB ? cb : 1];
    // A product the BLAS runs needs no packing scratch: none is allocated for it.
    const floats = native.bmmScratch(m, n, k, aRs, aCs, bRs, bCs);
    const scratch = floats > 0 ? heap.makeOutput([floats], 'float32') : undefined;
    // Offsets are taken after every allocation: they do not move when the heap grows.
    native.bmm(
      heap.getMemoryOffset(a.dataId), heap.getMemoryOffset(b.dataId), heap.getMemoryOffset(out.dataId), scratch ? heap.getMemoryOffset(scratch.dataId) : 0,
      batch, m, n, k,
      aRs, aCs, batchA > 1 ? ra * ca : 0,
      bRs, bCs, batchB > 1 ? rb * cb : 0,
    );
    if (scratch) heap.disposeData(scratch.dataId);
    return out;
  });
}
