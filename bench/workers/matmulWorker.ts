/**
 * GFLOP/s of ppmlm's wasm kernel on the products given as JSON (`[{ "a": [m, k], "b": [k, n] }, ...]`), in a
 * fresh process, so that the caller's PPMLM_WASM_FMA and PPMLM_BLAS pick the build it measures. Prints a
 * JSON array, one figure per product.
 * Usage: matmulWorker.ts PRODUCTS_JSON
 */
import { gflops, type Product } from '../suites/matmul.js';

const products = JSON.parse(process.argv[2] ?? '[]') as Product[];
const results: number[] = [];
for (const p of products) results.push(await gflops('wasm', p));
console.log(JSON.stringify(results));
