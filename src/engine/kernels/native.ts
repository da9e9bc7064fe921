import { readFileSync } from 'node:fs';

/**
 * ppmlm's own wasm SIMD kernels (C source and build script in `native/` at the package root; the built
 * modules are committed, so users need no compiler). They import the tfjs wasm backend's memory and work
 * on its tensors in place: pointers are byte offsets into that memory.
 */
export interface NativeKernels {
  /** Floats of scratch `bmm` needs for an [m, k] · [k, n] product. */
  bmmScratch(m: number, n: number, k: number): number;
  /**
   * C[t] = op(A[t]) · op(B[t]) for t < batch into dense C [batch, m, n]; element (r, c) of op(X[t]) is
   * x[t * bs + r * rs + c * cs] (in floats; bs 0 broadcasts).
   */
  bmm(a: number, b: number, c: number, scratch: number, batch: number, m: number, n: number, k: number, aRs: number, aCs: number, aBs: number, bRs: number, bCs: number, bBs: number): void;
  /** out[c] = Σ_r x[r * cols + c]. */
  columnSum(x: number, out: number, rows: number, cols: number): void;
}

/** A WebAssembly.Memory (Node has the global; the ES lib this project compiles against does not type it). */
export interface WasmMemory {
  readonly buffer: ArrayBufferLike;
}
const { WebAssembly } = globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object, imports: object) => { exports: object } };
};

const modules = new Map<boolean, object>();
const instances = new WeakMap<WasmMemory, NativeKernels>();

/** The kernels bound to `memory` (instantiated once per memory; shared memory takes the threaded build). */
export function nativeKernels(memory: WasmMemory): NativeKernels {
  let kernels = instances.get(memory);
  if (kernels !== undefined) return kernels;
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  let module = modules.get(shared);
  if (module === undefined) {
    const file = new URL(`../../../native/kernels-${shared ? 'shared' : 'plain'}.wasm`, import.meta.url);
    modules.set(shared, (module = new WebAssembly.Module(readFileSync(file))));
  }
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as {
    bmm_scratch: NativeKernels['bmmScratch'];
    bmm: NativeKernels['bmm'];
    column_sum: NativeKernels['columnSum'];
  };
  kernels = { bmmScratch: exports.bmm_scratch, bmm: exports.bmm, columnSum: exports.column_sum };
  instances.set(memory, kernels);
  return kernels;
}
