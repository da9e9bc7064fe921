import { BatchMatMul, getKernel, util, type BatchMatMulAttrs, type KernelConfig, type KernelFunc, type TensorInfo } from '@tensorflow/tfjs-core';

interface HeapBackend {
  makeOutput(shape: number[], dtype: string): TensorInfo;
  typedArrayFromHeap(info: TensorInfo): Float32Array;
  disposeData(dataId: unknown): boolean;
}

/**
 * tfjs-backend-wasm runs a matMul through XNNPACK only for one unbatched, untransposed product; batched or
 * transposed products take a generic path about ten times slower (bench: 2.4 vs 28 GFLOP/s). Attention
 * and every gradient of a dense layer hit that path. This kernel wraps the backend's own: it copies each
 * batch slice into a fresh buffer (transposing on the way when asked), runs the fast single product on
 * it, and copies the result into place.
 */
export function fastBatchMatMulConfig(): KernelConfig | undefined {
  const original = getKernel(BatchMatMul, 'wasm');
  if (original === undefined) return undefined;
  const inner = original.kernelFunc;

  const kernelFunc: KernelFunc = ({ inputs, backend, attrs }) => {
    const { a, b } = inputs as unknown as { a: TensorInfo; b: TensorInfo };
    const { transposeA, transposeB } = attrs as unknown as BatchMatMulAttrs;
    const heap = backend as unknown as HeapBackend;
    const batchA = util.sizeFromShape(a.shape.slice(0, -2));
    const batchB = util.sizeFromShape(b.shape.slice(0, -2));
    if (batchA <= 1 && batchB <= 1 && !transposeA && !transposeB) return inner({ inputs, backend, attrs });
    if (a.dtype !== 'float32' || b.dtype !== 'float32' || (batchA !== batchB && batchA !== 1 && batchB !== 1)) return inner({ inputs, backend, attrs });

    const [ra, ca] = a.shape.slice(-2) as [number, number];
    const [rb, cb] = b.shape.slice(-2) as [number, number];
    const m = transposeA ? ca : ra;
    const n = transposeB ? rb : cb;
    const batch = Math.max(batchA, batchB);
    const outBatchShape = (batchA >= batchB ? a.shape : b.shape).slice(0, -2);
    const out = heap.makeOutput([...outBatchShape, m, n], 'float32');
    const k = transposeA ? ra : ca;
    // XNNPACK rejects empty operands; an empty product is all zeros.
    if (batch * m * n === 0 || k === 0) {
      heap.typedArrayFromHeap(out).fill(0);
      return out;
    }

    const slice = (x: TensorInfo, i: number, rows: number, cols: number, transpose: boolean): TensorInfo => {
      const t = heap.makeOutput([1, transpose ? cols : rows, transpose ? rows : cols], 'float32');
      const src = heap.typedArrayFromHeap(x);
      const dst = heap.typedArrayFromHeap(t);
      const base = i * rows * cols;
      if (!transpose) dst.set(src.subarray(base, base + rows * cols));
      else for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) dst[c * rows + r] = src[base + r * cols + c]!;
      return t;
    };
    const shared = { a: batchA === 1 ? slice(a, 0, ra, ca, transposeA) : undefined, b: batchB === 1 ? slice(b, 0, rb, cb, transposeB) : undefined };
    for (let i = 0; i < batch; i++) {
      const ai = shared.a ?? slice(a, i, ra, ca, transposeA);
      const bi = shared.b ?? slice(b, i, rb, cb, transposeB);
      const product = inner({ inputs: { a: ai, b: bi }, backend, attrs: { transposeA: false, transposeB: false } }) as TensorInfo;
      // The heap may have grown (and moved) during the product: take fresh views.
      heap.typedArrayFromHeap(out).set(heap.typedArrayFromHeap(product), i * m * n);
      heap.disposeData(product.dataId);
      if (ai !== shared.a) heap.disposeData(ai.dataId);
      if (bi !== shared.b) heap.disposeData(bi.dataId);
    }
    if (shared.a) heap.disposeData(shared.a.dataId);
    if (shared.b) heap.disposeData(shared.b.dataId);
    return out;
  };
  // The backend binds its wasm function in setupFunc when it initialises; keep that step.
  return { kernelName: BatchMatMul, backendName: 'wasm', kernelFunc, setupFunc: original.setupFunc };
}
