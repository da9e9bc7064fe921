import * as tf from '@tensorflow/tfjs-core';
import { availableParallelism } from 'node:os';
import { UsageError } from '../errors.js';
import './register.js';

export type BackendRequest = 'auto' | 'tensorflow' | 'wasm' | 'cpu';
export const BACKEND_REQUESTS: readonly BackendRequest[] = ['auto', 'tensorflow', 'wasm', 'cpu'];
export type BackendName = 'tensorflow' | 'wasm' | 'cpu';

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
}

type Loader = () => Promise<string>;

/** Each loader imports the backend package and returns a short description, or throws. */
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
  async wasm() {
    await import('@tensorflow/tfjs-backend-wasm');
    return 'tfjs-backend-wasm (XNNPACK)';
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

async function tryBackend(name: BackendName): Promise<BackendAttempt> {
  try {
    const what = await LOADERS[name]();
    const ok = await tf.setBackend(name);
    if (!ok) return { backend: name, usable: false, reason: `${what}: failed to initialise` };
    await tf.ready();
    return { backend: name, usable: true, reason: what };
  } catch (err) {
    return { backend: name, usable: false, reason: (err as Error).message };
  }
}

let current: BackendChoice | undefined;

/**
 * Selects and initialises the tfjs backend. `auto` tries tfjs-node-gpu, then wasm; it never falls
 * back to the pure-JS `cpu` backend, which must be asked for by name.
 *
 * @example
 * const { name, attempts } = await selectBackend('auto');
 */
export async function selectBackend(request: BackendRequest = 'auto'): Promise<BackendChoice> {
  if (!BACKEND_REQUESTS.includes(request)) {
    throw new UsageError(`unknown backend "${request}"; use one of ${BACKEND_REQUESTS.join(', ')}`);
  }
  if (current !== undefined && (request === 'auto' || request === current.name)) return current;
  const order: BackendName[] = request === 'auto' ? ['tensorflow', 'wasm'] : [request];
  const attempts: BackendAttempt[] = [];
  for (const name of order) {
    const attempt = await tryBackend(name);
    attempts.push(attempt);
    if (attempt.usable) {
      current = { name, attempts, threads: threadsOf(name), simd: name === 'wasm' ? tf.env().getBool('WASM_HAS_SIMD_SUPPORT') : name === 'tensorflow' };
      return current;
    }
  }
  const tried = attempts.map((a) => `${a.backend}: ${a.reason}`).join('; ');
  const hint =
    request === 'tensorflow'
      ? 'install @tensorflow/tfjs-node-gpu (its install downloads libtensorflow) or use --backend wasm'
      : 'run "npm ci" again, or pass --backend cpu for small jobs';
  throw new UsageError(`no usable backend (${tried}); ${hint}`);
}

function threadsOf(name: BackendName): number {
  // libtensorflow runs its intra-op pool on every core.
  if (name !== 'wasm') return name === 'cpu' ? 1 : availableParallelism();
  return tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 2 : 1;
}

/** The backend chosen so far, if any. */
export function currentBackend(): BackendChoice | undefined {
  return current;
}
