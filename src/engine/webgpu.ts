import { UsageError } from '../errors.js';

/** The WebGPU adapter Dawn found, as `ppmlm info` reports it. */
export interface GpuAdapter {
  vendor: string;
  architecture: string;
  device: string;
  /** e.g. "llvmpipe: Mesa 25.0.7 (LLVM 15.0.6)" or the GPU's name. */
  description: string;
  /** A CPU rasteriser (Mesa's lavapipe/llvmpipe, SwiftShader): correct, far slower than a GPU. */
  software: boolean;
  /** The largest buffer, and the largest buffer one shader may bind, in bytes (a bound on one tensor). */
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
}

/** The slice of the `webgpu` package (Dawn for Node) ppmlm uses. */
interface DawnModule {
  create: (flags: string[]) => { requestAdapter: () => Promise<DawnAdapter | null> };
  globals: Record<string, unknown>;
}

interface DawnAdapter {
  info: { vendor: string; architecture: string; device: string; description: string; isFallbackAdapter?: boolean };
  limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
}

/** What a machine needs for Dawn to find a Vulkan adapter on Linux; named in the error when none is found. */
function missingAdapterHint(): string {
  const runtimeDir = process.env.XDG_RUNTIME_DIR ? '' : '; XDG_RUNTIME_DIR is not set (set it, e.g. to /run/user/$(id -u))';
  return `Dawn found no Vulkan adapter: install the GPU vendor's Vulkan driver, or Mesa's (mesa-vulkan-drivers >= 23, on Debian bookworm from bookworm-backports)${runtimeDir}`;
}

function firstLine(s: unknown): string {
  return String(s).split('\n')[0] ?? '';
}

/** The adapter is kept: Dawn's device must outlive every tensor of the backend. */
let loaded: GpuAdapter | undefined;

/**
 * Loads Dawn (the optional `webgpu` package), asks it for an adapter and registers tfjs-backend-webgpu
 * on it; throws a one-line error naming what is missing (the package, a Vulkan driver, XDG_RUNTIME_DIR).
 * tfjs-backend-webgpu registers itself only when `navigator.gpu` exists at its import, so the order matters.
 */
export async function loadWebGpu(): Promise<GpuAdapter> {
  if (loaded !== undefined) return loaded;
  const name = 'webgpu';
  let dawn: DawnModule;
  try {
    dawn = (await import(name)) as DawnModule;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const missing = e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(`'${name}'`);
    throw new Error(missing ? 'the optional package "webgpu" (Dawn for Node) is not installed; run npm install webgpu' : `Dawn failed to load (${firstLine(e.message)})`);
  }
  Object.assign(globalThis, dawn.globals);
  const gpu = dawn.create([]);
  const adapter = await gpu.requestAdapter();
  if (adapter === null) throw new Error(missingAdapterHint());
  // Node 21+ has a navigator without gpu; Node 20 has none.
  const nav = ((globalThis as { navigator?: object }).navigator ??= {}) as { gpu?: unknown };
  Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true });
  await import('@tensorflow/tfjs-backend-webgpu');
  const { info, limits } = adapter;
  const description = firstLine(info.description || [info.vendor, info.architecture, info.device].filter(Boolean).join(' ') || 'unnamed adapter');
  loaded = {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description,
    software: info.isFallbackAdapter === true || info.architecture === 'software' || /llvmpipe|lavapipe|swiftshader/i.test(`${info.description} ${info.device}`),
    maxBufferSize: limits.maxBufferSize,
    maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
  };
  return loaded;
}

const guarded = new WeakSet<object>();

/**
 * Makes a synchronous read of a GPU tensor (`dataSync`, `arraySync`) fail with a one-line error that names
 * the way out: tfjs-backend-webgpu reads synchronously through an OffscreenCanvas, which Node lacks, and
 * its own error ("OffscreenCanvas is not defined") says nothing to a user. Training, evaluation and model
 * export read asynchronously; a command that still reads synchronously does not run on webgpu yet.
 */
export function guardSyncReads(backend: object): void {
  if (guarded.has(backend)) return;
  guarded.add(backend);
  const b = backend as { readSync: (dataId: object) => unknown; hasReadSyncWarned?: boolean };
  // Its warning that synchronous reads are slow would precede our error, which says more.
  b.hasReadSyncWarned = true;
  const readSync = b.readSync.bind(backend);
  b.readSync = (dataId) => {
    try {
      return readSync(dataId);
    } catch (err) {
      if (typeof (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas !== 'undefined') throw err;
      throw new UsageError('this step reads a tensor synchronously, which Node cannot do on the webgpu backend (fine-tuning can; DP-SGD, inference, de-identification and audits cannot yet); use --backend wasm for it');
    }
  };
}
