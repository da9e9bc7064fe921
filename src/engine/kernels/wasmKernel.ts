import { getKernel, util, type KernelConfig, type KernelFunc, type NamedAttrMap, type TensorInfo } from '@tensorflow/tfjs-core';
import type { WasmMemory } from './native.js';

/** The slice of the wasm backend's interface ppmlm's kernels use: its heap, outputs and offsets in it. */
export interface WasmHeapBackend {
  makeOutput(shape: number[], dtype: string): TensorInfo;
  typedArrayFromHeap(info: TensorInfo): Float32Array;
  disposeData(dataId: unknown): boolean;
  getMemoryOffset(dataId: unknown): number;
  /** The Emscripten module: the threaded build keeps its (shared) memory here, the plain one in `asm`. */
  wasm: { wasmMemory?: WasmMemory; asm?: { memory?: WasmMemory } };
}

/** The backend's linear memory, which ppmlm's native kernels import. */
export function heapMemory(heap: WasmHeapBackend): WasmMemory {
  const memory = heap.wasm.wasmMemory ?? heap.wasm.asm?.memory;
  if (memory === undefined) throw new Error('tfjs-backend-wasm exposes no memory for ppmlm\'s native kernels (unsupported tfjs version?)');
  return memory;
}

/** What a faster path of a wasm kernel receives. */
export interface WasmKernelCall<I, A> {
  inputs: I;
  attrs: A;
  heap: WasmHeapBackend;
}

/**
 * The backend's wasm kernel `kernelName` with a faster path in front: `fast` answers the calls it
 * handles and returns undefined for the others, which go to the backend's own kernel (whose setup step
 * is kept: the backend binds its wasm functions there).
 */
export function wrapWasmKernel<I, A>(kernelName: string, fast: (call: WasmKernelCall<I, A>) => TensorInfo | undefined): KernelConfig | undefined {
  const original = getKernel(kernelName, 'wasm');
  if (original === undefined) return undefined;
  const kernelFunc: KernelFunc = (args) =>
    fast({ inputs: args.inputs as unknown as I, attrs: (args.attrs ?? {}) as NamedAttrMap as unknown as A, heap: args.backend as unknown as WasmHeapBackend }) ?? original.kernelFunc(args);
  return { kernelName, backendName: 'wasm', kernelFunc, setupFunc: original.setupFunc };
}

/** A kernel's named inputs, in the order given (kernel functions receive them as a record). */
export const inputsOf = (inputs: unknown, names: readonly string[]): TensorInfo[] => names.map((n) => (inputs as Record<string, TensorInfo>)[n]!);

/**
 * A wasm kernel with one float32 output shaped like its first input, filled by `run` given the offsets
 * of the named inputs and then of the output, the shape, and the kernel's attributes (not called when
 * the output is empty).
 */
export function shapedLikeInputKernel(kernelName: string, names: readonly string[], run: (heap: WasmHeapBackend, offsets: number[], shape: number[], attrs: NamedAttrMap) => void): KernelConfig {
  return {
    kernelName,
    backendName: 'wasm',
    kernelFunc: ({ inputs, attrs, backend }) => {
      const heap = backend as unknown as WasmHeapBackend;
      const tensors = inputsOf(inputs, names);
      const out = heap.makeOutput(tensors[0]!.shape, 'float32');
      if (util.sizeFromShape(out.shape) > 0) run(heap, [...tensors.map((t) => heap.getMemoryOffset(t.dataId)), heap.getMemoryOffset(out.dataId)], out.shape, attrs ?? {});
      return out;
    },
  };
}
