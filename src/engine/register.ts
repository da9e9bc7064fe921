import { getKernel, registerKernel, type KernelConfig } from '@tensorflow/tfjs-core';
// tfjs-core's gradient configs are registered by its ESM sources (not loadable by Node: extensionless
// imports) or by the @tensorflow/tfjs bundle, which tfjs-node-gpu also loads; it shares our tfjs-core.
import '@tensorflow/tfjs';
import { unsortedSegmentSumConfig } from './kernels/UnsortedSegmentSum.js';

/** Kernels ppmlm adds to backends that lack them for training. The only place that registers kernels. */
const KERNELS: KernelConfig[] = [unsortedSegmentSumConfig];

/** Registers the missing kernels once; a backend's own kernel always wins. */
export function registerKernels(): void {
  for (const config of KERNELS) {
    if (getKernel(config.kernelName, config.backendName) === undefined) registerKernel(config);
  }
}

registerKernels();
