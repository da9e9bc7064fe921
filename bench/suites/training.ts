import * as tf from '@tensorflow/tfjs-core';
import { registerKernel, unregisterKernel, type KernelConfig } from '@tensorflow/tfjs-core';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { productEngine, selectBackend, type BackendRequest, type GpuAdapter } from '../../src/engine/index.js';
import { activation, crossEntropy, layerNorm, type LargeBatchStrategy } from '../../src/model/index.js';
import { geluKernelConfigs } from '../../src/engine/kernels/Gelu.js';
import { layerNormKernelConfigs } from '../../src/engine/kernels/LayerNorm.js';
import { renderTable, type BenchRow, type BenchSuite } from '../table.js';

const run = promisify(execFile);
export const [SEQ, VOCAB] = [128, 8000];
/** Toy shapes, where the per-step overheads show: alternating rounds against PyTorch, since both swing. */
const SMALL = [
  { hidden: 128, layers: 2, batch: 16 },
  { hidden: 256, layers: 4, batch: 16 },
];
const ROUNDS = 3;
/** The encoders users fine-tune (the PPmlm paper's), at seq 128: each trained for a few steps in its own process. */
const REAL = [
  { name: 'BERT-base', hidden: 768, layers: 12, vocab: 30522, batch: 8, steps: 5 },
  { name: 'DistilRoBERTa', hidden: 768, layers: 6, vocab: 50265, batch: 8, steps: 4 },
  { name: 'RoBERTa-large', hidden: 1024, layers: 24, vocab: 50265, batch: 8, steps: 2 },
];
/** The issue's goal for BERT-base fine-tuning at batch 8 x 128. */
const BERT_BASE_RSS_GOAL_MB = 3072;

/** Debian's python3-torch lives under /usr/bin/python3; a pyenv python3 may shadow it. */
function torchPython(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((p) => p === 'python3' || existsSync(p));
}

interface Speed {
  train: number;
  infer: number;
}

/** PyTorch CPU tokens/s on the same shape, the best of 1 and 2 threads. */
async function torchSpeed(hidden: number, layers: number, vocab: number, batch: number, steps: number): Promise<Speed | undefined> {
  const python = torchPython();
  if (!python) return undefined;
  try {
    // One process per thread count, its OpenBLAS given the same count: Debian's torch reaches OpenBLAS
    // through libblas.so.3, whose threads torch.set_num_threads does not set (left alone, PyTorch's
    // OpenMP threads and OpenBLAS's would both take every core).
    const all: Speed[] = [];
    for (const threads of [1, 2]) {
      const env = { ...process.env, OPENBLAS_NUM_THREADS: String(threads), OMP_NUM_THREADS: String(threads) };
      const { stdout } = await run(python, [join('bench', 'baselines', 'torch_mlm.py'), ...[hidden, layers, SEQ, batch, vocab, steps, threads].map(String)], { maxBuffer: 1 << 20, env });
      all.push(...Object.values((JSON.parse(stdout) as { results: Record<string, Speed> }).results));
    }
    return { train: Math.max(...all.map((x) => x.train)), infer: Math.max(...all.map((x) => x.infer)) };
  } catch {
    return undefined;
  }
}

export interface WorkerResult {
  stepSeconds: number[];
  inferTokensPerSecond: number;
  peakRssMB: number;
  heapMB?: number;
  recompute: boolean;
  /** Windows per forward pass (the batch, or its micro-batches). */
  microBatch: number;
  parameters: number;
  /** The WebGPU adapter, on webgpu. */
  adapter?: GpuAdapter;
}

/** ppmlm's trainer on one shape in a fresh process (bench/workers/trainStepWorker.ts), on `backend`. */
export async function ppmlmRun(hidden: number, layers: number, vocab: number, batch: number, steps: number, backend: BackendRequest = 'auto', large?: LargeBatchStrategy): Promise<WorkerResult> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join('bench', 'workers', 'trainStepWorker.ts'), ...[hidden, layers, vocab, SEQ, batch, steps].map(String), backend, ...(large ? [large] : [])], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as WorkerResult;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Training tokens/s from the steps after the first (which compiles kernels and starts threads). */
export const trainSpeed = (r: WorkerResult, tokens: number) => tokens / median(r.stepSeconds.slice(1));
const fmt = (x: number) => x.toFixed(2);

/** Milliseconds of one forward and backward pass of `loss` with respect to `v`, after a warm-up one, the mean of `reps`. */
function fwdBwdMs(loss: () => tf.Scalar, v: tf.Variable, reps: number): number {
  const once = () => {
    const { value, grads } = tf.variableGrads(loss, [v]);
    grads[v.name]!.dataSync();
    tf.dispose([value, grads[v.name]!]);
  };
  once();
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) once();
  return (performance.now() - t0) / reps;
}

/**
 * Milliseconds of one MLM loss forward + backward at the step's shape (15% of the positions × the
 * vocabulary): ppmlm's hand-fused crossEntropy against the same loss left to tfjs's autodiff
 * (logSoftmax, a one-hot product, a sum and a mean), the formula it replaced.
 */
function lossSpeed(): { fused: number; autodiff: number } {
  const m = Math.round(0.15 * 16 * SEQ);
  const logits = tf.variable(tf.randomNormal([m, VOCAB], 0, 2, 'float32', 1));
  const labels = tf.tensor1d(Array.from({ length: m }, (_, i) => (i * 7919) % VOCAB), 'int32');
  const autodiff = (x: tf.Tensor2D, y: tf.Tensor1D) => tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(x), tf.oneHot(y, VOCAB)), 1))) as tf.Scalar;
  const ms = (loss: (x: tf.Tensor2D, y: tf.Tensor1D) => tf.Scalar) => fwdBwdMs(() => loss(logits as unknown as tf.Tensor2D, labels), logits, 20);
  const result = { fused: ms(crossEntropy), autodiff: ms(autodiff) };
  tf.dispose([logits, labels]);
  return result;
}

/**
 * Milliseconds of one forward + backward of `loss` with respect to `v` through ppmlm's fused wasm kernels,
 * and with those kernels unregistered for the measurement, so that the model's tfjs-ops fallback runs.
 */
function fusedSpeed(kernels: readonly KernelConfig[], loss: () => tf.Scalar, v: tf.Variable): { fused: number; ops: number } {
  const fused = fwdBwdMs(loss, v, 10);
  for (const c of kernels) unregisterKernel(c.kernelName, c.backendName);
  try {
    return { fused, ops: fwdBwdMs(loss, v, 10) };
  } finally {
    for (const c of kernels) registerKernel(c);
  }
}

/** Exact GELU over a BERT-base feed-forward's activations (1024 tokens x 3072), and LayerNorm over its hidden states (1024 x 768). */
function elementwiseSpeeds(): { gelu: { fused: number; ops: number }; layerNorm: { fused: number; ops: number } } {
  const inner = tf.variable(tf.randomNormal([1024, 3072], 0, 1, 'float32', 2));
  const hidden = tf.variable(tf.randomNormal([1024, 768], 0, 1, 'float32', 3));
  const params = new Map([
    ['ln.weight', tf.variable(tf.ones([768]))],
    ['ln.bias', tf.variable(tf.zeros([768]))],
  ]);
  const gelu = fusedSpeed(geluKernelConfigs, () => tf.sum(activation('gelu', inner as unknown as tf.Tensor2D)), inner);
  const norm = fusedSpeed(layerNormKernelConfigs, () => tf.sum(layerNorm(params, 'ln', hidden as unknown as tf.Tensor2D, 1e-12)), hidden);
  tf.dispose([inner, hidden, ...params.values()]);
  return { gelu, layerNorm: norm };
}

/** The rows' shared setup: the backend's name, and a push that logs each row as it is measured. */
async function rowsFor(log: (msg: string) => void) {
  const { threads } = await selectBackend('auto');
  const rows: BenchRow[] = [];
  // Each row is logged as it is measured: the real shapes take many minutes, and an interrupted run keeps what it measured.
  const push = (...measured: BenchRow[]) => {
    rows.push(...measured);
    for (const row of measured) log(renderTable([row]).split('\n').at(-1)!);
  };
  return { rows, push, backend: `${tf.getBackend()}, ${threads} thread${threads === 1 ? '' : 's'}` };
}

const noTorch = 'PyTorch n/a (install python3-torch)';

/**
 * The rows of alternating rounds against PyTorch: each shows the round with the median ratio of its
 * measure (train step, inference), and its note the spread over all rounds.
 */
function medianRatioRows(suite: string, shape: string, backend: string, rounds: readonly { ours: Speed; torch?: Speed }[], extra = ''): BenchRow[] {
  const ratios = rounds.flatMap(({ ours, torch }) => (torch ? [{ train: ours.train / torch.train, infer: ours.infer / torch.infer }] : []));
  return (['train', 'infer'] as const).map((k) => {
    const { ours, torch } = rounds.find((r) => r.torch && r.ours[k] / r.torch[k] === median(ratios.map((x) => x[k]))) ?? rounds[0]!;
    const note = ratios.length ? `median of ${ratios.length} alternating rounds, spread ${fmt(Math.min(...ratios.map((x) => x[k])))}-${fmt(Math.max(...ratios.map((x) => x[k])))}x; PyTorch best of 1 and 2 threads` : noTorch;
    return { suite, case: `${shape}: ${k === 'train' ? 'train step' : 'inference'} (${backend})`, value: ours[k], unit: 'tokens/s', ...(torch && { baseline: { name: 'PyTorch', value: torch[k] } }), note: note + extra };
  });
}

export const trainingSuite: BenchSuite = {
  name: 'training',
  async run(log): Promise<BenchRow[]> {
    const { rows, push, backend } = await rowsFor(log);
    for (const { hidden, layers, batch } of SMALL) {
      const shape = `H${hidden}/L${layers} seq${SEQ} b${batch} V${VOCAB}`;
      const rounds: { ours: Speed; torch?: Speed }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        log(`MLM step ${shape}, round ${round + 1} of ${ROUNDS}: ppmlm, then PyTorch`);
        const r = await ppmlmRun(hidden, layers, VOCAB, batch, 6);
        rounds.push({ ours: { train: trainSpeed(r, batch * SEQ), infer: r.inferTokensPerSecond }, torch: await torchSpeed(hidden, layers, VOCAB, batch, 5) });
      }
      push(...medianRatioRows('training', `${shape}`, backend, rounds));
    }
    log(`MLM loss forward + backward, ${Math.round(0.15 * 16 * SEQ)} targets x ${VOCAB} words`);
    const loss = lossSpeed();
    push({ suite: 'training', case: `MLM loss fwd+bwd, ${Math.round(0.15 * 16 * SEQ)} targets x V${VOCAB} (${backend})`, value: loss.fused, unit: 'ms', lowerIsBetter: true, baseline: { name: 'tfjs autodiff', value: loss.autodiff } });
    log('exact GELU (1024 x 3072) and LayerNorm (1024 x 768) forward + backward');
    const { gelu, layerNorm: norm } = elementwiseSpeeds();
    push(
      { suite: 'training', case: `exact GELU fwd+bwd, 1024 x 3072, fused kernels (${backend})`, value: gelu.fused, unit: 'ms', lowerIsBetter: true, baseline: { name: 'tfjs ops', value: gelu.ops } },
      { suite: 'training', case: `LayerNorm fwd+bwd, 1024 x 768, fused kernels (${backend})`, value: norm.fused, unit: 'ms', lowerIsBetter: true, baseline: { name: 'tfjs ops', value: norm.ops } },
    );
    return rows;
  },
};

/** Alternating rounds of each real-size encoder (ppmlm, then PyTorch), as the toy shapes: both swing on a shared machine. */
const REAL_ROUNDS = 3;

/**
 * `npm run bench -- real-models [--models BERT-base,...]`: BERT-base, DistilRoBERTa and RoBERTa-large,
 * three alternating rounds each against PyTorch (about 40 minutes on 2 cores for all three).
 */
export function realModelsSuite(models?: readonly string[]): BenchSuite {
  const unknown = (models ?? []).filter((m) => !REAL.some((r) => r.name === m));
  if (unknown.length > 0) throw new Error(`--models: unknown ${unknown.join(', ')}; choose from ${REAL.map((r) => r.name).join(', ')}`);
  return {
    name: 'real-models',
    async run(log): Promise<BenchRow[]> {
      const { rows, push, backend } = await rowsFor(log);
      const engine = productEngine();
      const blasNote = `; products: ${engine.engine === 'blas' ? `OpenBLAS (${engine.config ?? engine.library})` : "ppmlm's wasm kernel"}; OPENBLAS_CORETYPE=${process.env.OPENBLAS_CORETYPE ?? 'unset'} for both processes, OpenBLAS threads = each process's threads`;
      for (const { name, hidden, layers, vocab, batch, steps } of REAL.filter((r) => models === undefined || models.includes(r.name))) {
        const shape = `${name} H${hidden}/L${layers} V${vocab} seq${SEQ} b${batch}`;
        const rounds: { ours: Speed; torch?: Speed; run: WorkerResult; micro?: WorkerResult }[] = [];
        for (let round = 0; round < REAL_ROUNDS; round++) {
          log(`${shape}, round ${round + 1} of ${REAL_ROUNDS}: ${steps} ppmlm training steps, then PyTorch`);
          const r = await ppmlmRun(hidden, layers, vocab, batch, steps);
          // Where the plan checkpoints, the same steps as micro-batches that keep their tapes, in the same round.
          const micro = r.recompute ? await ppmlmRun(hidden, layers, vocab, batch, steps, 'auto', 'micro-batches') : undefined;
          rounds.push({ ours: { train: trainSpeed(r, batch * SEQ), infer: r.inferTokensPerSecond }, torch: await torchSpeed(hidden, layers, vocab, batch, steps === 2 ? 1 : 2), run: r, ...(micro && !micro.recompute && { micro }) });
        }
        const stepTimes = rounds.map((x) => x.run.stepSeconds.map((t) => t.toFixed(1)).join(', ')).join(' | ');
        push(...medianRatioRows('real-models', shape, backend, rounds, `${blasNote}; steps (s) ${stepTimes}`));
        // No step may be more than 2x slower than the step before it (the stall the memory design removed).
        const slowdown = Math.max(...rounds.flatMap((x) => x.run.stepSeconds.slice(1).map((t, i) => t / x.run.stepSeconds[i]!)));
        push({ suite: 'real-models', case: `${shape}: slowest step / the step before it`, value: slowdown, unit: 'x', lowerIsBetter: true, baseline: { name: 'limit', value: 2 }, note: `steps (s) ${stepTimes}` });
        const r = rounds[0]!.run;
        const compared = rounds.filter((x) => x.micro !== undefined);
        if (compared.length > 0) {
          const ratios = compared.map((x) => trainSpeed(x.micro!, batch * SEQ) / x.ours.train);
          const mid = compared[ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!)]!;
          push({
            suite: 'real-models',
            case: `${shape}: train step in micro-batches of ${mid.micro!.microBatch} that keep their tapes (${backend})`,
            value: trainSpeed(mid.micro!, batch * SEQ),
            unit: 'tokens/s',
            baseline: { name: 'activation checkpointing (the default)', value: mid.ours.train },
            note: `median of ${ratios.length} rounds, spread ${fmt(Math.min(...ratios))}-${fmt(Math.max(...ratios))}x; peak RSS ${Math.max(...compared.map((x) => x.micro!.peakRssMB)).toFixed(0)} MB, wasm heap ${mid.micro!.heapMB?.toFixed(0) ?? 'n/a'} MB`,
          });
        }
        push({
          suite: 'real-models',
          case: `${shape}: peak RSS of the training process`,
          value: Math.max(...rounds.map((x) => x.run.peakRssMB)),
          unit: 'MB',
          lowerIsBetter: true,
          ...(name === 'BERT-base' && { baseline: { name: 'goal', value: BERT_BASE_RSS_GOAL_MB } }),
          note: `${(r.parameters / 1e6).toFixed(0)}M parameters; activation checkpointing ${r.recompute ? 'on' : 'off'}; forward passes of ${r.microBatch} windows; wasm heap ${r.heapMB?.toFixed(0) ?? 'n/a'} MB; the largest of ${rounds.length} rounds`,
        });
      }
      return rows;
    },
  };
}
