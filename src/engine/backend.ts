import * as tf from '@tensorflow/tfjs-core';
import { availableParallelism } from 'node:os';
import { UsageError } from '../errors.js';
import { registerKernels } from './register.js';
import { wasmKernelBuild } from './kernels/native.js';
import { MAX_WASM_THREADS, setWasmBackend } from './wasmThreads.js';
import { guardSyncReads, loadWebGpu, type GpuAdapter } from './webgpu.js';
import { withNativeStderrSilenced } from './nativeStderr.js';

export type BackendRequest = 'auto' | 'tensorflow' | 'webgpu' | 'wasm' | 'cpu';
export const BACKEND_REQUESTS: readonly BackendRequest[] = ['auto', 'tensorflow', 'webgpu', 'wasm', 'cpu'];
export type BackendName = 'tensorflow' | 'webgpu' | 'wasm' | 'cpu';

export interface BackendAttempt {
  backend: BackendName;
  usable: boolean;
  /** Why it was (not) usable, e.g. "tfjs-node-gpu: not installed". */
  reason: string;
}

export interface BackendChoice {
  name: BackendName;
  attempts: BackendAttempt[];
  /** Threads the backend computes with. */
  threads: number;
  simd: boolean;
  /** The WebGPU adapter, when the backend is webgpu. */
  adapter?: GpuAdapter;
}

/** Imports a backend package; returns a short description, or throws. `auto` says whether the user named it. */
type Loader = (auto: boolean) => Promise<string>;

/** The threads the wasm backend starts with unless told otherwise: every core, up to tfjs's 8 workers. */
let wasmThreads = Math.min(availableParallelism(), MAX_WASM_THREADS);
/** The threads the initialised wasm backend runs with. */
let wasmThreadsInUse = 1;

/**
 * Sets the threads the wasm backend will start with (the CLI's `--threads`); takes effect at the first
 * {@link selectBackend} that initialises wasm.
 */
export function setWasmThreads(threads: number): void {
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_WASM_THREADS) throw new UsageError(`--threads must be an integer from 1 to ${MAX_WASM_THREADS}, not ${threads}`);
  wasmThreads = threads;
}

/** Whether native libraries' own messages (Dawn's) reach stderr; `--verbose` turns them on. */
let nativeLogs = false;

/**
 * Lets Dawn's own messages through to stderr (`--verbose`): by default its adapter probe is silenced unless
 * the user asked for the webgpu backend by name.
 */
export function setNativeLogs(show: boolean): void {
  nativeLogs = show;
}

const LOADERS: Record<BackendName, Loader> = {
  async tensorflow() {
    // Optional dependency: its install needs libtensorflow from the network, so it is often absent.
    const name = '@tensorflow/tfjs-node-gpu';
    try {
      await import(name);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const missing = e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(name);
      throw new Error(missing ? 'tfjs-node-gpu: not installed' : `tfjs-node-gpu: failed to load (${firstLine(e.message)})`);
    }
    return 'tfjs-node-gpu (libtensorflow, CUDA when a GPU is visible)';
  },
  async webgpu(auto) {
    const adapter = await loadWebGpu();
    // A software renderer computes correctly but slower than wasm: auto passes it by, a user may name it.
    if (auto && adapter.software) throw new Error(`only a software renderer (${adapter.description}), slower than wasm; ask for it with --backend webgpu`);
    webgpuAdapter = adapter;
    // The backend's own kernels are registered now; ppmlm's fill in only what it lacks.
    registerKernels();
    return `tfjs-backend-webgpu on ${adapter.description}${adapter.software ? ' (software renderer: for correctness, not speed)' : ''}`;
  },
  async wasm() {
    let threads: number;
    let note = '';
    try {
      threads = await setWasmBackend(wasmThreads);
    } catch (err) {
      if (wasmThreads === 1) throw err;
      // A platform without SharedArrayBuffer workers still runs the single-threaded build.
      tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
      threads = await setWasmBackend(1);
      note = `; threads unavailable: ${firstLine((err as Error).message)}`;
    }
    wasmThreadsInUse = threads;
    return `tfjs-backend-wasm (XNNPACK, ${threads} thread${threads === 1 ? '' : 's'}${note})`;
  },
  async cpu() {
    await import('@tensorflow/tfjs-backend-cpu');
    // The backend prints a banner recommending tfjs-node on first use; `ppmlm info` already says why.
    tf.env().set('PROD', true);
    return 'tfjs-backend-cpu (pure JavaScript, ~50x slower than wasm; for tiny tests)';
  },
};

function firstLine(s: string): string {
  return String(s).split('\n')[0] ?? '';
}

/** The adapter the webgpu loader found. */
let webgpuAdapter: GpuAdapter | undefined;

async function tryBackend(name: BackendName, auto: boolean): Promise<BackendAttempt> {
  try {
    const what = await LOADERS[name](auto);
    // The wasm loader initialises its backend itself (threads need setup around the initialisation).
    const ok = name === 'wasm' || (await tf.setBackend(name));
    if (!ok) return { backend: name, usable: false, reason: `${what}: failed to initialise` };
    await tf.ready();
    if (name === 'webgpu') guardSyncReads(tf.backend());
    return { backend: name, usable: true, reason: what };
  } catch (err) {
    return { backend: name, usable: false, reason: (err as Error).message };
  }
}

let current: BackendChoice | undefined;

export interface SelectOptions {
  /**
   * Whether the caller's work runs on webgpu: training does (fine-tuning and de-identification training,
   * DP-SGD included), and so do de-identification's eval and apply, fill-mask and the audit; other
   * commands (export-onnx reads tensors synchronously) do not, and `auto` then passes webgpu by, saying why.
   */
  runsOnWebgpu?: boolean;
}

const NOT_ON_WEBGPU = 'not for this command: it reads tensors synchronously, which Node cannot do on webgpu (ppmlm finetune, fill-mask, audit and deid train, eval and apply can)';

/**
 * Selects and initialises the tfjs backend. `auto` tries tfjs-node-gpu, then webgpu (a hardware adapter
 * only, and only for work that runs there: see {@link SelectOptions}), then wasm; it never falls back to
 * the pure-JS `cpu` backend, which must be asked for by name.
 *
 * @example
 * const { name, attempts } = await selectBackend('auto');
 */
export async function selectBackend(request: BackendRequest = 'auto', options: SelectOptions = {}): Promise<BackendChoice> {
  if (!BACKEND_REQUESTS.includes(request)) {
    throw new UsageError(`unknown backend "${request}"; use one of ${BACKEND_REQUESTS.join(', ')}`);
  }
  const skipWebgpu = request === 'auto' && options.runsOnWebgpu !== true;
  if (current !== undefined && ((request === 'auto' && !(skipWebgpu && current.name === 'webgpu')) || request === current.name)) return current;
  const order: BackendName[] = request === 'auto' ? ['tensorflow', 'webgpu', 'wasm'] : [request];
  // A bad PPMLM_WASM_FMA is the user's to fix before anything runs, not a reason to pass wasm by.
  if (order.includes('wasm')) wasmKernelBuild();
  const attempts: BackendAttempt[] = [];
  for (const name of order) {
    const attempt =
      name !== 'webgpu'
        ? await tryBackend(name, request === 'auto')
        : skipWebgpu
          ? { backend: name, usable: false, reason: NOT_ON_WEBGPU }
          : // Dawn's probe chatter is noise to whoever did not ask for webgpu; the attempt's reason says what matters.
            nativeLogs || request === 'webgpu'
            ? await tryBackend(name, request === 'auto')
            : await withNativeStderrSilenced(() => tryBackend(name, request === 'auto'));
    attempts.push(attempt);
    if (attempt.usable) {
      const adapter = name === 'webgpu' ? webgpuAdapter : undefined;
      current = { name, attempts, threads: threadsOf(name), simd: name === 'wasm' ? tf.env().getBool('WASM_HAS_SIMD_SUPPORT') : name === 'tensorflow', ...(adapter && { adapter }) };
      return current;
    }
  }
  const tried = attempts.map((a) => `${a.backend}: ${a.reason}`).join('; ');
  throw new UsageError(`no usable backend (${tried}); ${HINTS[request] ?? HINTS.auto}`);
}

const HINTS: Partial<Record<BackendRequest, string>> = {
  auto: 'run "npm ci" again, or pass --backend cpu for small jobs',
  tensorflow: 'install @tensorflow/tfjs-node-gpu (its install downloads libtensorflow) or use --backend wasm',
  webgpu: 'use --backend wasm until it is there',
};

function threadsOf(name: BackendName): number {
  // libtensorflow runs its intra-op pool on every core; webgpu computes on the GPU from one thread.
  if (name !== 'wasm') return name === 'tensorflow' ? availableParallelism() : 1;
  return wasmThreadsInUse;
}

/** wasm32 addresses 4 GiB; code, thread stacks and allocator slack need part of it. */
const WASM_HEAP_LIMIT = 3.75 * 2 ** 30;

/**
 * The bytes a training step may take in the backend's memory: wasm32's heap for the wasm backend (and
 * before any backend is chosen, since wasm is what `auto` ends on without a GPU); unbounded for the
 * others, whose tensors live in native or JavaScript memory or on a GPU whose size WebGPU does not report.
 */
export function trainingHeapLimit(): number {
  return current === undefined || current.name === 'wasm' ? WASM_HEAP_LIMIT : Infinity;
}

/**
 * The largest tensor a training step may create, in bytes: on webgpu the adapter's largest storage-buffer
 * binding (each tensor is one buffer bound whole; past it Dawn rejects the shader). WebGPU reports no
 * memory size, so {@link trainingHeapLimit} cannot bound a GPU's memory; an out-of-memory GPU fails at its
 * first step.
 */
export function trainingTensorLimit(): number {
  return current?.adapter?.maxStorageBufferBindingSize ?? Infinity;
}

/** The backend chosen so far, if any. */
export function currentBackend(): BackendChoice | undefined {
  return current;
}
