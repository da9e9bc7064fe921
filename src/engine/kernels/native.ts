import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { blasLayout, productBlas } from './blas.js';
import { UsageError } from '../../errors.js';

/**
 * ppmlm's own wasm SIMD kernels (C source and build script in `native/` at the package root; the built
 * modules are committed, so users need no compiler). They import the tfjs wasm backend's memory and work
 * on its tensors in place: pointers are byte offsets into that memory, strides are in floats.
 */
export interface NativeKernels {
  /** Floats of scratch `bmm` needs for an [m, k] · [k, n] product with these strides (0 when a BLAS runs it). */
  bmmScratch(m: number, n: number, k: number, aRs: number, aCs: number, bRs: number, bCs: number): number;
  /**
   * C[t] = op(A[t]) · op(B[t]) for t < batch into dense C [batch, m, n]; element (r, c) of op(X[t]) is
   * x[t * bs + r * rs + c * cs] (bs 0 broadcasts). Large products are split over the helper threads.
   */
  bmm(a: number, b: number, c: number, scratch: number, batch: number, m: number, n: number, k: number, aRs: number, aCs: number, aBs: number, bRs: number, bCs: number, bBs: number): void;
  /** out[c] = Σ_r x[r * cols + c]. */
  columnSum(x: number, out: number, rows: number, cols: number): void;
  /** out[i] = x[i] · Φ(x[i]) for i < n (exact GELU). */
  gelu(x: number, out: number, n: number): void;
  /** dx[i] = dy[i] · (Φ(x[i]) + x[i] · φ(x[i])) for i < n (GELU's gradient). */
  geluGrad(x: number, dy: number, dx: number, n: number): void;
  /** LayerNorm of `rows` rows of `cols` floats with gain and shift; each row's mean and rstd into stats [rows, 2]. */
  layerNorm(x: number, gain: number, shift: number, out: number, stats: number, rows: number, cols: number, eps: number): void;
  /** LayerNorm's gradient: dx [rows, cols], and dgain and dshift [cols] summed over the rows. */
  layerNormGrad(x: number, gain: number, dy: number, stats: number, dx: number, dgain: number, dshift: number, rows: number, cols: number): void;
  /** Softmax cross-entropy per row of logits against int32 labels: [max, Σ e^(x - max), x[label] - max] into stats [rows, 3]. */
  crossEntropy(logits: number, labels: number, stats: number, rows: number, cols: number): void;
  /** Its gradient (softmax - one-hot) · scale[0] into dx [rows, cols]. */
  crossEntropyGrad(logits: number, labels: number, stats: number, scale: number, dx: number, rows: number, cols: number): void;
  /** out[r, c] = x[r, c] + bias[c] over `rows` rows of `cols` (a dense layer's bias). */
  addRows(x: number, bias: number, out: number, rows: number, cols: number): void;
  /**
   * Softmax over each row of x · scale + bias, where bias [batch, cols] is broadcast over the
   * `rowsPerBias` rows of a window (attention's scores [batch, heads, queries, keys] and its padding mask).
   */
  attentionSoftmax(x: number, bias: number, out: number, rows: number, cols: number, rowsPerBias: number, scale: number): void;
  /** Its gradient with respect to x from the output y: scale · y · (dy − Σ dy · y) per row. */
  attentionSoftmaxGrad(y: number, dy: number, dx: number, rows: number, cols: number, scale: number): void;
}

/** A WebAssembly.Memory (Node has the global; the ES lib this project compiles against does not type it). */
export interface WasmMemory {
  readonly buffer: ArrayBufferLike;
}
const { WebAssembly } = globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object, imports: object) => { exports: object }; validate(bytes: Uint8Array): boolean };
};

interface Exports {
  bmm_scratch: (m: number, n: number, k: number) => number;
  bmm: (...args: number[]) => void;
  column_sum: NativeKernels['columnSum'];
  gelu: NativeKernels['gelu'];
  gelu_grad: NativeKernels['geluGrad'];
  layer_norm: NativeKernels['layerNorm'];
  layer_norm_grad: NativeKernels['layerNormGrad'];
  cross_entropy: NativeKernels['crossEntropy'];
  cross_entropy_grad: NativeKernels['crossEntropyGrad'];
  add_rows: (...args: number[]) => void;
  attention_softmax: (...args: number[]) => void;
  attention_softmax_grad: (...args: number[]) => void;
}

/** Which build of the kernels runs, and why (`ppmlm info` prints it). */
export interface WasmKernelBuild {
  /** Relaxed SIMD's fused multiply-add in the product's inner loop, or plain SIMD128 multiply then add. */
  fma: boolean;
  reason: string;
}

let build: WasmKernelBuild | undefined;

/**
 * The relaxed-SIMD build where the engine has relaxed SIMD, else the plain one; `PPMLM_WASM_FMA=off`
 * keeps the plain one. Node 20's V8 implements relaxed SIMD behind a flag, which is set here before any
 * of ppmlm's modules compiles, and then checked by validating the relaxed module itself.
 */
export function wasmKernelBuild(): WasmKernelBuild {
  if (build !== undefined) return build;
  const requested = process.env.PPMLM_WASM_FMA?.trim();
  if (requested === 'off') return (build = { fma: false, reason: 'PPMLM_WASM_FMA=off' });
  if (requested && requested !== 'on' && requested !== 'auto') throw new UsageError(`PPMLM_WASM_FMA=${requested}: expected off, on or auto; unset it to use relaxed SIMD where the engine has it`);
  const bytes = moduleBytes('plain-relaxed');
  if (!WebAssembly.validate(bytes)) setFlagsFromString('--experimental-wasm-relaxed-simd');
  if (WebAssembly.validate(bytes)) return (build = { fma: true, reason: `relaxed SIMD in V8 ${process.versions.v8}` });
  if (requested === 'on') throw new UsageError(`PPMLM_WASM_FMA=on: V8 ${process.versions.v8} has no relaxed SIMD; unset it to run the plain SIMD kernel`);
  return (build = { fma: false, reason: `V8 ${process.versions.v8} has no relaxed SIMD` });
}

/** A committed kernel module (`native/kernels-<variant>.wasm`). */
function moduleBytes(variant: string): Buffer {
  const file = new URL(`../../../native/kernels-${variant}.wasm`, import.meta.url);
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`${file.pathname}: ppmlm's native kernels are missing (${(err as NodeJS.ErrnoException).code ?? 'unreadable'}); reinstall ppmlm, or rebuild them with bash native/build.sh`);
  }
}

const modules = new Map<string, object>();
const instances = new WeakMap<WasmMemory, NativeKernels>();
let threads = 1;
/** Products run, and those split over more than one thread: what says that threads did work. */
const usage = { products: 0, split: 0, blas: 0 };

/**
 * How many products the native matmul ran in this process, and how many it split over `threads` threads
 * (a product below {@link PARALLEL_FLOPS} runs on one).
 */
export function nativeKernelUsage(): { products: number; split: number; blas: number; threads: number } {
  return { ...usage, threads };
}

/**
 * Threads the native matmul may use (the wasm backend's thread count): with a shared heap, products of
 * at least {@link PARALLEL_FLOPS} are split over this thread and threads − 1 helper workers.
 */
export function setNativeKernelThreads(count: number): void {
  threads = Math.max(1, Math.floor(count));
  // The BLAS runs while the wasm threads wait for it: the same cores, never both at once.
  productBlas()?.setThreads(threads);
}

/** Below this many flops a product runs on one thread: waking a helper costs tens of microseconds. */
const PARALLEL_FLOPS = 4e6;
/** Int32 slots per helper: requested job, finished job, failure flag, the kernel to run ({@link POOLED}), then its arguments (bmm's 14 at most). */
const SLOTS = 18;
/** The kernels a helper runs, by the index a job names. */
const POOLED = ['bmm', 'gelu', 'gelu_grad', 'add_rows', 'attention_softmax', 'attention_softmax_grad'] as const;
/** Below this many elements an elementwise or row kernel runs on one thread. */
const PARALLEL_ELEMENTS = 1 << 16;

/** The kernels bound to `memory` (instantiated once per memory; shared memory takes the threaded build). */
export function nativeKernels(memory: WasmMemory): NativeKernels {
  let kernels = instances.get(memory);
  if (kernels !== undefined) return kernels;
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  const variant = `${shared ? 'shared' : 'plain'}${wasmKernelBuild().fma ? '-relaxed' : ''}`;
  let module = modules.get(variant);
  if (module === undefined) modules.set(variant, (module = new WebAssembly.Module(moduleBytes(variant))));
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as Exports;
  const pool = shared ? new HelperPool(module, memory) : undefined;
  const parts = () => (pool === undefined ? 1 : threads);
  kernels = {
    bmmScratch: (m, n, k, aRs, aCs, bRs, bCs) => (onBlas(m, n, k, aRs, aCs, bRs, bCs) ? 0 : parts() * exports.bmm_scratch(m, n, k)),
    bmm(a, b, c, scratch, batch, m, n, k, aRs, aCs, aBs, bRs, bCs, bBs) {
      const blas = productBlas();
      const la = blasLayout(m, k, aRs, aCs);
      const lb = blasLayout(k, n, bRs, bCs);
      if (blas && la && lb) {
        // In place on the heap (a SharedArrayBuffer under threads): koffi passes each view's address.
        const heap = new Float32Array(memory.buffer);
        for (let t = 0; t < batch; t++) blas.sgemm(la.trans, lb.trans, m, n, k, heap.subarray(a / 4 + t * aBs), la.ld, heap.subarray(b / 4 + t * bBs), lb.ld, heap.subarray(c / 4 + t * m * n), n);
        usage.products++;
        usage.blas++;
        return;
      }
      const per = exports.bmm_scratch(m, n, k) * 4;
      const jobs = splitProduct(parts(), batch, m, n, k).map(({ t0, t1, i0, i1 }, p) => [
        a + 4 * (t0 * aBs + i0 * aRs), b + 4 * t0 * bBs, c + 4 * (t0 * m * n + i0 * n), scratch + p * per,
        t1 - t0, i1 - i0, n, k, aRs, aCs, aBs, bRs, bCs, bBs,
      ]);
      usage.products++;
      if (jobs.length === 1) return exports.bmm(...jobs[0]!);
      usage.split++;
      pool!.run(POOLED.indexOf('bmm'), jobs.slice(1), () => exports.bmm(...jobs[0]!));
    },
    columnSum: exports.column_sum,
    gelu: (x, out, n) => elementwise('gelu', [x, out], n),
    geluGrad: (x, dy, dx, n) => elementwise('gelu_grad', [x, dy, dx], n),
    // One thread: a row stays in cache, and LayerNorm's gradient sums columns over all rows.
    layerNorm: exports.layer_norm,
    layerNormGrad: exports.layer_norm_grad,
    crossEntropy: exports.cross_entropy,
    crossEntropyGrad: exports.cross_entropy_grad,
    addRows: (x, bias, out, rows, cols) => rowwise('add_rows', rows, cols, (first, count) => [x + 4 * first * cols, bias, out + 4 * first * cols, count, cols]),
    attentionSoftmax: (x, bias, out, rows, cols, rowsPerBias, scale) =>
      rowwise('attention_softmax', rows, cols, (first, count) => [x + 4 * first * cols, bias, out + 4 * first * cols, count, cols, rowsPerBias, first, floatBits(scale)]),
    attentionSoftmaxGrad: (y, dy, dx, rows, cols, scale) =>
      rowwise('attention_softmax_grad', rows, cols, (first, count) => [y + 4 * first * cols, dy + 4 * first * cols, dx + 4 * first * cols, count, cols, floatBits(scale)]),
  };
  /** An elementwise kernel over n floats at `pointers`, split into contiguous ranges over the threads. */
  function elementwise(kernel: 'gelu' | 'gelu_grad', pointers: number[], n: number): void {
    const count = n < PARALLEL_ELEMENTS ? 1 : parts();
    const jobs = Array.from({ length: count }, (_, p) => {
      const from = 4 * Math.floor((p * n) / count / 4);
      const to = p === count - 1 ? n : 4 * Math.floor(((p + 1) * n) / count / 4);
      return [...pointers.map((ptr) => ptr + 4 * from), to - from];
    });
    runJobs(kernel, jobs);
  }
  /** A kernel over `rows` rows of `cols` floats, split into ranges of whole rows over the threads; `job` gives a range's arguments. */
  function rowwise(kernel: 'add_rows' | 'attention_softmax' | 'attention_softmax_grad', rows: number, cols: number, job: (first: number, count: number) => number[]): void {
    const count = rows * cols < PARALLEL_ELEMENTS ? 1 : Math.min(parts(), rows);
    runJobs(kernel, Array.from({ length: count }, (_, p) => Math.floor((p * rows) / count)).map((first, p, starts) => job(first, (starts[p + 1] ?? rows) - first)));
  }
  /** Runs the first job on this thread and the others on the helpers. */
  function runJobs(kernel: (typeof POOLED)[number], jobs: number[][]): void {
    const run = exports[kernel] as (...args: number[]) => void;
    if (jobs.length === 1) return run(...jobs[0]!);
    pool!.run(POOLED.indexOf(kernel), jobs.slice(1), () => run(...jobs[0]!));
  }
  instances.set(memory, kernels);
  return kernels;
}

/** A float32's bits as an int32: the helper threads receive their arguments in an Int32Array. */
function floatBits(x: number): number {
  return new Int32Array(Float32Array.of(x).buffer)[0]!;
}

/** Whether a product of these strides goes to the BLAS (found, and both operands in a BLAS layout). */
function onBlas(m: number, n: number, k: number, aRs: number, aCs: number, bRs: number, bCs: number): boolean {
  return productBlas() !== undefined && blasLayout(m, k, aRs, aCs) !== undefined && blasLayout(k, n, bRs, bCs) !== undefined;
}

/** Batches [t0, t1) and rows [i0, i1) of one part of a product. */
interface ProductPart {
  t0: number;
  t1: number;
  i0: number;
  i1: number;
}

/**
 * Splits a product into at most `parts` parts of equal work: by batch when there are enough, else (one
 * product) by rows of C in multiples of the kernel's 4-row tile.
 */
export function splitProduct(parts: number, batch: number, m: number, n: number, k: number): ProductPart[] {
  if (parts <= 1 || 2 * batch * m * n * k < PARALLEL_FLOPS) return [{ t0: 0, t1: batch, i0: 0, i1: m }];
  if (batch > 1) {
    const p = Math.min(parts, batch);
    return Array.from({ length: p }, (_, i) => ({ t0: Math.floor((i * batch) / p), t1: Math.floor(((i + 1) * batch) / p), i0: 0, i1: m }));
  }
  const tiles = Math.ceil(m / 4);
  const p = Math.min(parts, tiles);
  return Array.from({ length: p }, (_, i) => ({ t0: 0, t1: 1, i0: 4 * Math.floor((i * tiles) / p), i1: Math.min(m, 4 * Math.floor(((i + 1) * tiles) / p)) }));
}

/**
 * Helper threads that run bmm jobs on the same shared heap. Each waits on its own slots with
 * Atomics.wait; the caller hands out jobs, runs its own share, and blocks until every helper is done.
 */
class HelperPool {
  private readonly control: Int32Array[] = [];
  private job = 0;

  constructor(
    private readonly module: object,
    private readonly memory: WasmMemory,
  ) {}

  run(kernel: number, jobs: number[][], own: () => void): void {
    while (this.control.length < jobs.length) this.control.push(this.spawn());
    const job = ++this.job;
    jobs.forEach((args, h) => {
      const slots = this.control[h]!;
      slots[3] = kernel;
      slots.set(args, 4);
      Atomics.store(slots, 0, job);
      Atomics.notify(slots, 0);
    });
    own();
    for (let h = 0; h < jobs.length; h++) {
      const slots = this.control[h]!;
      for (let done = Atomics.load(slots, 1); done !== job; done = Atomics.load(slots, 1)) Atomics.wait(slots, 1, done, 1000);
      if (Atomics.load(slots, 2) !== 0) throw new Error('native kernel helper thread failed (out of bounds access in native/kernels.c)');
    }
  }

  private spawn(): Int32Array {
    const slots = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
    const worker = new Worker(HELPER_SOURCE, { eval: true, workerData: { module: this.module, memory: this.memory, slots } });
    // An idle helper must not keep the process alive.
    worker.unref();
    return slots;
  }
}

/** The helper thread: instantiate the kernels on the shared heap, then run each job it is handed. */
const HELPER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { module, memory, slots } = workerData;
const exports = new WebAssembly.Instance(module, { env: { memory } }).exports;
const kernels = ${JSON.stringify(POOLED)}.map((name) => exports[name]);
for (let seen = 0; ; ) {
  Atomics.wait(slots, 0, seen);
  seen = Atomics.load(slots, 0);
  try {
    kernels[slots[3]](...slots.subarray(4, ${SLOTS}));
  } catch {
    Atomics.store(slots, 2, 1);
  }
  Atomics.store(slots, 1, seen);
  Atomics.notify(slots, 1);
}
`;
