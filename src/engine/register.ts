import { getKernel, registerKernel, unregisterKernel, type KernelConfig } from '@tensorflow/tfjs-core';
// tfjs-core's gradient configs are registered by its ESM sources (not loadable by Node: extensionless
// imports) or by the @tensorflow/tfjs bundle, which tfjs-node-gpu also loads; it shares our tfjs-core.
import '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { fastAddConfig } from './kernels/Add.js';
import { chunkedAddNConfig } from './kernels/AddN.js';
import { attentionSoftmaxKernelConfigs } from './kernels/AttentionSoftmax.js';
import { fastBatchMatMulConfig } from './kernels/BatchMatMul.js';
import { fastGatherConfig } from './kernels/GatherV2.js';
import { geluKernelConfigs } from './kernels/Gelu.js';
import { layerNormKernelConfigs } from './kernels/LayerNorm.js';
import { crossEntropyKernelConfigs } from './kernels/CrossEntropy.js';
import { fastSumConfig } from './kernels/Sum.js';
import { unsortedSegmentSumConfig } from './kernels/UnsortedSegmentSum.js';

/** Kernels ppmlm adds to backends that lack them for training, and its own fused ones. The only place that registers kernels. */
const KERNELS: KernelConfig[] = [unsortedSegmentSumConfig, ...geluKernelConfigs, ...layerNormKernelConfigs, ...crossEntropyKernelConfigs, ...attentionSoftmaxKernelConfigs];

/**
 * Kernels of a backend that ppmlm wraps, by backend: each wrapper returns undefined while its backend is
 * not loaded (webgpu loads on demand), and each backend's are wrapped once.
 */
const WRAPPERS: Record<string, (() => KernelConfig | undefined)[]> = {
  wasm: [fastBatchMatMulConfig, fastSumConfig, fastGatherConfig, fastAddConfig],
  webgpu: [chunkedAddNConfig],
};

const wrapped = new Set<string>();

/**
 * Registers the missing kernels once (a backend's own kernel wins); wraps the wasm BatchMatMul, Sum,
 * GatherV2 and Add so that the products, reductions, lookups and bias adds the backend runs slowly take faster paths, and
 * the webgpu AddN so that it adds more inputs than one shader binds. Called again once a backend loads.
 */
export function registerKernels(): void {
  for (const config of KERNELS) {
    if (getKernel(config.kernelName, config.backendName) === undefined) registerKernel(config);
  }
  for (const [backend, wrappers] of Object.entries(WRAPPERS)) {
    if (wrapped.has(backend)) continue;
    const configs = wrappers.map((wrap) => wrap()).filter((c) => c !== undefined);
    if (configs.length === 0) continue;
    for (const config of configs) {
      unregisterKernel(config.kernelName, config.backendName);
      registerKernel(config);
    }
    wrapped.add(backend);
  }
}

registerKernels();
