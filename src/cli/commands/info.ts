import * as tf from '@tensorflow/tfjs-core';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { productEngine, selectBackend, wasmKernelBuild, type BackendRequest } from '../../engine/index.js';
import { PACKAGE_VERSION } from '../../version.js';
import type { GpuAdapter } from '../../engine/index.js';
import type { Reporter } from '../reporter.js';

export interface InfoOptions {
  backend: BackendRequest;
  json?: boolean;
}

/** `ppmlm info`: versions, the backend `--backend` picks here for fine-tuning, and why each tried backend was (not) usable. */
export async function info(options: InfoOptions, out: Reporter): Promise<void> {
  // What fine-tuning would run on: the one command `auto` sends to webgpu.
  const choice = await selectBackend(options.backend, { runsOnWebgpu: true });
  const report = {
    ppmlm: PACKAGE_VERSION,
    node: process.versions.node,
    tfjs: tf.version_core,
    platform: `${process.platform}-${process.arch}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    requested: options.backend,
    backend: choice.name,
    threads: choice.threads,
    simd: choice.simd,
    attempts: choice.attempts,
    // The CPU path's products: a BLAS when one is found, else ppmlm's wasm kernel.
    products: productEngine(),
    // ppmlm's own kernel (every product without a BLAS, and those in layouts a BLAS cannot read): which build.
    wasmKernel: wasmKernelBuild(),
    ...(choice.adapter && { adapter: choice.adapter }),
  };
  if (options.json) return out.json(report);
  const lines = [
    `ppmlm ${report.ppmlm}  node ${report.node}  tfjs ${report.tfjs}  ${report.platform}`,
    `cpu: ${report.cpu} (${report.cores} cores, ${report.memoryGiB} GiB)`,
    `backend: ${report.backend} (requested: ${report.requested}, threads: ${report.threads}, simd: ${report.simd ? 'yes' : 'no'})`,
    ...report.attempts.map((a) => `  ${a.usable ? 'ok  ' : 'no  '} ${a.backend}: ${a.reason}`),
    `matrix products on the CPU (wasm backend): ${report.products.engine === 'blas' ? `BLAS ${report.products.library}${report.products.config ? ` (${report.products.config})` : ''}` : "ppmlm's wasm SIMD kernel"}; ${report.products.reason}`,
    `ppmlm's wasm kernel: ${report.wasmKernel.fma ? 'relaxed-SIMD fused multiply-add' : 'SIMD128 multiply and add'}; ${report.wasmKernel.reason}`,
    ...(choice.adapter ? [`adapter: ${describeAdapter(choice.adapter)}`] : []),
  ];
  out.result(lines.join('\n'));
}

const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

function describeAdapter(a: GpuAdapter): string {
  const kind = a.software ? 'software renderer' : 'hardware';
  return `${a.description} (${kind}; vendor ${a.vendor || '?'}, largest buffer ${mib(a.maxBufferSize)}, largest binding ${mib(a.maxStorageBufferBindingSize)})`;
}
