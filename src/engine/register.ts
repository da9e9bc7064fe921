import { getKernel, registerKernel, unregisterKernel, type KernelConfig } from '@tensorflow/tfjs-core';
// tfjs-core's gradient configs are registered by its ESM sources (not loadable by Node: extensionless
// imports) or by the @tensorflow/tfjs bundle, which tfjs-node-gpu also loads; it shares our tfjs-core.
import '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { fastBatchMatMulConfig } from './kernels/BatchMatMul.js';
import { fastGatherConfig } from './kernels/GatherV2.js';
import { fastSumConfig } from './kernels/Sum.js';
import { unsortedSegmentSumConfig } from './kernels/UnsortedSegmentSum.js';

/** Kernels ppmlm adds to backends that lack them for training. The only place that registers kernels. */
const KERNELS: KernelConfig[] = [unsortedSegmentSumConfig];

let replaced = false;

/**
 * Registers the missing kernels once (a backend's own kernel wins), and wraps the wasm BatchMatMul, Sum
 * and GatherV2 so that the products, reductions and lookups the backend runs slowly take faster paths.
 */
export function registerKernels(): void {
  for (const config of KERNELS) {
    if (getKernel(config.kernelName, config.backendName) === undefined) registerKernel(config);
  }
  if (replaced) return;
  for (const fast of [fastBatchMatMulConfig(), fastSumConfig(), fastGatherConfig()]) {
    if (fast === undefined) continue;
    unregisterKernel(fast.kernelName, fast.backendName);
    registerKernel(fast);
    replaced = true;
  }
}

registerKernels();
