import * as tf from '@tensorflow/tfjs-core';
import { lstat, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../io/index.js';
import { setNativeKernelThreads } from './kernels/native.js';

const require = createRequire(import.meta.url);

/** The threaded build of tfjs-backend-wasm starts 8 web workers; XNNPACK uses at most that many. */
export const MAX_WASM_THREADS = 8;

interface WasmPackage {
  setThreadsCount(n: number): void;
  getThreadsCount(): number;
}

/**
 * `path` when it is (or can be made) a folder only this user can write, so that nobody can swap the
 * scripts between writing and loading them; otherwise a fresh private temp folder.
 */
async function privateDir(path: string): Promise<string> {
  await mkdir(path, { recursive: true, mode: 0o700 }).catch(() => undefined);
  const st = await lstat(path).catch(() => undefined);
  const uid = process.getuid?.();
  if (st?.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0) return path;
  return mkdtemp(join(os.tmpdir(), 'ppmlm-wasm-threads-'));
}

/**
 * Writes the two scripts the threaded wasm build needs as files: Node's worker_threads cannot start a
 * Worker from the blob: URLs tfjs creates for browsers (ERR_WORKER_PATH). `worker.js` is tfjs's pthread
 * worker, told to load `main.js` (the module factory) from its path instead of from a Blob.
 */
async function writeWorkerScripts(): Promise<string> {
  const pkgDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
  const { version } = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  const dir = await privateDir(join(os.tmpdir(), `ppmlm-wasm-threads-${version}-${process.getuid?.() ?? 0}`));
  const main = join(dir, 'main.js');
  const worker = join(dir, 'worker.js');
  const factory = require(join(pkgDir, 'wasm-out', 'tfjs-backend-wasm-threaded-simd.js')) as { default?: () => unknown } & (() => unknown);
  const { wasmWorkerContents } = require(join(pkgDir, 'wasm-out', 'tfjs-backend-wasm-threaded-simd.worker.js')) as { wasmWorkerContents: string };
  const scripts: [string, string][] = [
    [main, `var WasmBackendModuleThreadedSimd = ${(factory.default ?? factory).toString()}`],
    // tfjs escapes newlines the same way before wrapping this text in a Blob.
    [worker, `URL.createObjectURL = () => ${JSON.stringify(main)};\nURL.revokeObjectURL = () => {};\n${wasmWorkerContents.replace(/\n/g, '\\n')}`],
  ];
  for (const [path, text] of scripts) {
    const current = await readFile(path, 'utf8').catch(() => undefined);
    if (current !== text) await writeFileAtomic(path, text, { force: true, mode: 0o644 });
  }
  return worker;
}

/**
 * Initialises tfjs-backend-wasm with `threads` XNNPACK threads. tfjs turns wasm threads off under Node
 * and caps them at half of `os.cpus()` (it assumes two hyperthreads per core); both are overridden for
 * the duration of the initialisation only. Resolves to the threads the backend actually runs with.
 */
export async function setWasmBackend(threads: number): Promise<number> {
  const wasm = (await import('@tensorflow/tfjs-backend-wasm')) as unknown as WasmPackage;
  if (threads <= 1) {
    wasm.setThreadsCount(1);
    if (!(await withoutProcessHandlers(() => tf.setBackend('wasm')))) throw new Error('tfjs-backend-wasm: failed to initialise');
    setNativeKernelThreads(1);
    return 1;
  }
  const worker = await writeWorkerScripts();
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', true);
  wasm.setThreadsCount(threads);
  const { cpus } = os;
  const { createObjectURL } = URL;
  os.cpus = () => Array.from({ length: 2 * threads }, () => cpus()[0]!);
  URL.createObjectURL = (obj: Blob) => (obj.type === 'application/javascript' ? worker : createObjectURL(obj));
  try {
    if (!(await withoutProcessHandlers(() => tf.setBackend('wasm')))) throw new Error('tfjs-backend-wasm (threaded): failed to initialise');
  } finally {
    os.cpus = cpus;
    URL.createObjectURL = createObjectURL;
  }
  // Idle pthread workers would keep the process alive after its work is done; exiting ends them.
  const pthreads = (tf.backend() as unknown as { wasm?: { PThread?: EmscriptenPThreads } }).wasm?.PThread;
  for (const worker of [...(pthreads?.unusedWorkers ?? []), ...(pthreads?.runningWorkers ?? [])]) worker.unref?.();
  const count = wasm.getThreadsCount();
  setNativeKernelThreads(count);
  return count;
}

/**
 * Runs `init`, then takes away the `uncaughtException` and `unhandledRejection` listeners it added: the
 * Emscripten module of tfjs-backend-wasm installs listeners that rethrow, which ended a host application's
 * own error handling (its handler caught nothing more, and the process died dumping tfjs's source).
 */
async function withoutProcessHandlers<T>(init: () => Promise<T>): Promise<T> {
  const before = { exception: new Set(process.listeners('uncaughtException')), rejection: new Set(process.listeners('unhandledRejection')) };
  try {
    return await init();
  } finally {
    for (const listener of process.listeners('uncaughtException')) if (!before.exception.has(listener)) process.removeListener('uncaughtException', listener);
    for (const listener of process.listeners('unhandledRejection')) if (!before.rejection.has(listener)) process.removeListener('unhandledRejection', listener);
  }
}

/** The part of Emscripten's pthread registry this module touches. */
interface EmscriptenPThreads {
  unusedWorkers?: { unref?: () => void }[];
  runningWorkers?: { unref?: () => void }[];
}
