import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Which engine runs the CPU path's matrix products, and why (`ppmlm info` prints both). */
export interface ProductEngine {
  engine: 'blas' | 'wasm';
  /** The BLAS library loaded, and its build as it reports it (OpenBLAS's `openblas_get_config`). */
  library?: string;
  config?: string;
  reason: string;
}

/** `cblas_sgemm` on float views of one heap: pointers are the views' offsets, nothing is copied. */
export interface Blas {
  sgemm(transA: boolean, transB: boolean, m: number, n: number, k: number, a: Float32Array, lda: number, b: Float32Array, ldb: number, c: Float32Array, ldc: number): void;
  setThreads(threads: number): void;
}

/** Where Debian, Ubuntu, Fedora, Alpine and Homebrew put OpenBLAS. */
const CANDIDATES = [
  '/usr/lib/x86_64-linux-gnu/libopenblas.so.0',
  '/usr/lib/aarch64-linux-gnu/libopenblas.so.0',
  '/usr/lib64/libopenblas.so.0',
  '/usr/lib/libopenblas.so.0',
  '/usr/local/lib/libopenblas.so.0',
  '/opt/homebrew/opt/openblas/lib/libopenblas.dylib',
];

const CBLAS_ROW_MAJOR = 101;
const CBLAS_NO_TRANS = 111;
const CBLAS_TRANS = 112;

interface Koffi {
  load(path: string): { func(signature: string): (...args: unknown[]) => unknown };
}

let loaded: { blas?: Blas; engine: ProductEngine } | undefined;

/**
 * Loads a BLAS once per process, found at run time: `PPMLM_BLAS` names a library (or `off` keeps the
 * wasm kernel); otherwise OpenBLAS where Linux distributions and Homebrew install it. It is called through
 * koffi, an FFI whose prebuilt binaries come with its npm package. Nothing is required: without a BLAS (or
 * without koffi) the wasm kernel runs and the reason is kept. A library named in `PPMLM_BLAS` that fails to
 * load is an error, never a silent fallback. macOS's Accelerate is not tried: untested here.
 */
function load(): { blas?: Blas; engine: ProductEngine } {
  const requested = process.env.PPMLM_BLAS?.trim();
  if (requested === 'off' || requested === 'wasm') return { engine: { engine: 'wasm', reason: `PPMLM_BLAS=${requested}` } };
  const path = requested || CANDIDATES.find((p) => existsSync(p));
  if (path === undefined) {
    const why = process.platform === 'darwin' ? "macOS's Accelerate is not tried (untested); install OpenBLAS with Homebrew or set PPMLM_BLAS" : 'install libopenblas0-pthread (Debian, Ubuntu) or set PPMLM_BLAS to a CBLAS library';
    return { engine: { engine: 'wasm', reason: `no OpenBLAS found (${why})` } };
  }
  let koffi: Koffi;
  try {
    koffi = createRequire(import.meta.url)('koffi') as Koffi;
  } catch (err) {
    if (requested) throw new Error(`PPMLM_BLAS=${requested}: koffi, the FFI that calls it, is not installed (${(err as Error).message}); reinstall ppmlm or unset PPMLM_BLAS`);
    return { engine: { engine: 'wasm', reason: `${path} found, but koffi, the FFI that calls it, is not installed` } };
  }
  try {
    const lib = koffi.load(path);
    const sgemm = lib.func('void cblas_sgemm(int order, int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc)');
    const optional = (signature: string) => {
      try {
        return lib.func(signature);
      } catch {
        return undefined;
      }
    };
    const setThreads = optional('void openblas_set_num_threads(int)');
    const config = optional('const char *openblas_get_config()');
    const blas: Blas = {
      sgemm: (transA, transB, m, n, k, a, lda, b, ldb, c, ldc) => void sgemm(CBLAS_ROW_MAJOR, transA ? CBLAS_TRANS : CBLAS_NO_TRANS, transB ? CBLAS_TRANS : CBLAS_NO_TRANS, m, n, k, 1, a, lda, b, ldb, 0, c, ldc),
      setThreads: (threads) => void setThreads?.(threads),
    };
    return { blas, engine: { engine: 'blas', library: path, ...(config && { config: String(config()) }), reason: requested ? `PPMLM_BLAS=${requested}` : `found ${path}` } };
  } catch (err) {
    if (requested) throw new Error(`PPMLM_BLAS=${requested}: cannot load it as a CBLAS library (${(err as Error).message}); give the path of libopenblas.so.0 or unset PPMLM_BLAS`);
    return { engine: { engine: 'wasm', reason: `${path} could not be loaded (${(err as Error).message})` } };
  }
}

/** The BLAS the products use, or undefined when the wasm kernel runs them. */
export function productBlas(): Blas | undefined {
  loaded ??= load();
  return loaded.blas;
}

/** Which engine runs the products here, and why. */
export function productEngine(): ProductEngine {
  loaded ??= load();
  return loaded.engine;
}

/**
 * The BLAS form of a strided operand whose element (r, c) of an r × c matrix is at r·rs + c·cs: row-major
 * with leading dimension rs (cs = 1), or its transpose with leading dimension cs (rs = 1); undefined for
 * any other layout (the wasm kernel reads every stride).
 */
export function blasLayout(rows: number, cols: number, rs: number, cs: number): { trans: boolean; ld: number } | undefined {
  if (cs === 1 && rs >= Math.max(1, cols)) return { trans: false, ld: rs };
  if (rs === 1 && cs >= Math.max(1, rows)) return { trans: true, ld: cs };
  return undefined;
}
