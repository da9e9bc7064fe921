import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { productEngine, selectBackend } from '../../src/engine/index.js';
import { blasLayout } from '../../src/engine/kernels/blas.js';
import { nativeKernelUsage } from '../../src/engine/kernels/native.js';

const OPENBLAS = ['/usr/lib/x86_64-linux-gnu/libopenblas.so.0', '/usr/lib/aarch64-linux-gnu/libopenblas.so.0'].find(existsSync);
const run = promisify(execFile);

/** Products of every layout the kernel sees (batched, broadcast, transposed), as one flat list. */
const PRODUCTS = `
  const data = (shape, seed) => Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.37 + seed));
  const cases = [[[3, 40, 70], [3, 70, 30], false, false], [[3, 70, 40], [1, 30, 70], true, true], [[130, 262], [67, 130], true, true], [[8, 64, 16], [8, 64, 16], false, true], [[1, 9], [9, 1], false, false]];
  const products = cases.flatMap(([sa, sb, ta, tb]) => Array.from(tf.matMul(tf.tensor(data(sa, 1), sa), tf.tensor(data(sb, 2), sb), ta, tb).dataSync()));
`;

async function productsIn(env: Record<string, string>, singleThreaded = false): Promise<{ engine: { engine: string; reason: string }; build: { fma: boolean; reason: string }; products: number[]; blas: number }> {
  const src = resolve('src/engine');
  const script = `
    import * as tf from '@tensorflow/tfjs-core';
    import { productEngine, selectBackend, setWasmThreads } from '${src}/index.js';
    import { nativeKernelUsage, wasmKernelBuild } from '${src}/kernels/native.js';
    ${singleThreaded ? 'setWasmThreads(1);' : ''}
    await selectBackend('wasm');
    ${PRODUCTS}
    console.log(JSON.stringify({ engine: productEngine(), build: wasmKernelBuild(), products, blas: nativeKernelUsage().blas }));
  `;
  // A file, not -e: the threaded backend's workers inherit the flags, and --input-type breaks them.
  // Inside node_modules so that the script resolves the project's packages.
  const file = join('node_modules', '.cache', `ppmlm-blas-test-${process.pid}-${Math.random().toString(36).slice(2)}.mts`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, script);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, ...env }, maxBuffer: 64 * 2 ** 20 }).catch((err: Error & { stderr?: string }) => {
    throw new Error(`the run failed: ${(err.stderr || err.message).split('\n').map((l) => l.slice(0, 400)).slice(-5).join('\n')}`);
  });
  await rm(file, { force: true });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('matrix products through a BLAS', () => {
  it('maps strided operands to BLAS layouts, and refuses the others', () => {
    expect(blasLayout(4, 5, 5, 1)).toEqual({ trans: false, ld: 5 });
    expect(blasLayout(4, 5, 1, 4)).toEqual({ trans: true, ld: 4 });
    expect(blasLayout(4, 5, 10, 2)).toBeUndefined();
    expect(blasLayout(4, 5, 3, 1)).toBeUndefined();
  });

  it('keeps the wasm kernel, and says why, with PPMLM_BLAS=off or no library', async () => {
    const off = await productsIn({ PPMLM_BLAS: 'off' });
    expect(off.engine).toEqual({ engine: 'wasm', reason: 'PPMLM_BLAS=off' });
    expect(off.blas).toBe(0);
    const missing = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { productEngine } from './src/engine/index.js'; productEngine();`], { env: { ...process.env, PPMLM_BLAS: '/nonexistent/libopenblas.so.0' } }).then(() => '', (err: Error & { stderr?: string }) => err.stderr ?? '');
    // A library asked for by name that cannot load is an error, never a silent fallback.
    expect(missing).toMatch(/PPMLM_BLAS=\/nonexistent\/libopenblas\.so\.0: cannot load it as a CBLAS library/);
  }, 60_000);

  it.runIf(OPENBLAS !== undefined)('finds OpenBLAS and gives the wasm kernel\'s products within float32 tolerance, on shared and unshared heaps', async () => {
    await selectBackend('wasm');
    expect(productEngine()).toMatchObject({ engine: 'blas', library: OPENBLAS, reason: `found ${OPENBLAS}` });
    const before = nativeKernelUsage().blas;
    const products = tf.tidy(() => new Function('tf', `${PRODUCTS}; return products;`)(tf) as number[]);
    expect(nativeKernelUsage().blas).toBeGreaterThan(before);
    const wasm = await productsIn({ PPMLM_BLAS: 'off' });
    expect(products.length).toBe(wasm.products.length);
    products.forEach((v, i) => expect(Math.abs(v - wasm.products[i]!)).toBeLessThan(1e-4 * (1 + Math.abs(v))));
    // The single-threaded build's heap is an ArrayBuffer, the threaded one's a SharedArrayBuffer: koffi takes both in place.
    const single = await productsIn({}, true);
    expect(single.blas).toBeGreaterThan(0);
    single.products.forEach((v, i) => expect(Math.abs(v - wasm.products[i]!)).toBeLessThan(1e-4 * (1 + Math.abs(v))));
  }, 60_000);
});

/** Whether this CPU fuses multiply-adds: where it does not, V8 runs relaxed SIMD's madd as multiply then add. */
const CPU_FMA = existsSync('/proc/cpuinfo') && /^flags\s*:.*\bfma\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));

describe("ppmlm's wasm kernel, with relaxed SIMD's fused multiply-add and without", () => {
  it('gives the plain build\'s products within float32 tolerance, on shared and unshared heaps, and PPMLM_WASM_FMA=off keeps the plain build', async () => {
    const plain = await productsIn({ PPMLM_BLAS: 'off', PPMLM_WASM_FMA: 'off' });
    expect(plain.build).toEqual({ fma: false, reason: 'PPMLM_WASM_FMA=off' });
    for (const singleThreaded of [false, true]) {
      const fused = await productsIn({ PPMLM_BLAS: 'off' }, singleThreaded);
      expect(fused.build.fma).toBe(true);
      expect(fused.products.length).toBe(plain.products.length);
      fused.products.forEach((v, i) => expect(Math.abs(v - plain.products[i]!)).toBeLessThan(1e-5 * (1 + Math.abs(v))));
      // One rounding instead of two: the fused build ran, and it is not bit-for-bit the plain one.
      if (CPU_FMA) expect(fused.products.some((v, i) => v !== plain.products[i])).toBe(true);
    }
  }, 60_000);
});
