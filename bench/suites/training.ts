import * as tf from '@tensorflow/tfjs-core';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AdamW, selectBackend } from '../../src/engine/index.js';
import { crossEntropy, defaultConfig, disposeParams, encode, initParams, mlmLogits, parameterShapes } from '../../src/model/index.js';
import type { BenchRow, BenchSuite } from '../table.js';

const run = promisify(execFile);
const SHAPES = [
  { hidden: 128, layers: 2 },
  { hidden: 256, layers: 4 },
];
const [SEQ, BATCH, VOCAB, STEPS] = [128, 16, 8000, 5];

/** Debian's python3-torch lives under /usr/bin/python3; a pyenv python3 may shadow it. */
function torchPython(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((p) => p === 'python3' || existsSync(p));
}

async function torchSpeed(hidden: number, layers: number): Promise<{ train: number; infer: number } | undefined> {
  const python = torchPython();
  if (!python) return undefined;
  try {
    const { stdout } = await run(python, [join('bench', 'baselines', 'torch_mlm.py'), ...[hidden, layers, SEQ, BATCH, VOCAB, STEPS, 1, 2].map(String)], { maxBuffer: 1 << 20 });
    const r = JSON.parse(stdout) as { results: Record<string, { train: number; infer: number }> };
    const all = Object.values(r.results);
    return { train: Math.max(...all.map((x) => x.train)), infer: Math.max(...all.map((x) => x.infer)) };
  } catch {
    return undefined;
  }
}

/** Tokens per second of one MLM training step (loss at 15% of positions, AdamW update) and of inference. */
function ppmlmSpeed(hidden: number, layers: number): { train: number; infer: number } {
  const config = defaultConfig({ vocab_size: VOCAB, hidden_size: hidden, num_hidden_layers: layers, num_attention_heads: Math.max(1, hidden / 64), intermediate_size: 4 * hidden, max_position_embeddings: SEQ });
  const params = initParams(parameterShapes(config), config, 1);
  const opt = new AdamW(params);
  const ids = tf.tensor2d(Array.from({ length: BATCH * SEQ }, (_, i) => 5 + ((i * 7919) % (VOCAB - 10))), [BATCH, SEQ], 'int32');
  const mask = tf.onesLike(ids) as tf.Tensor2D;
  const m = Math.round(0.15 * BATCH * SEQ);
  const positions = tf.tensor1d(Array.from({ length: m }, (_, i) => (i * 13) % (BATCH * SEQ)), 'int32');
  const labels = tf.tensor1d(Array.from({ length: m }, (_, i) => 5 + (i % (VOCAB - 10))), 'int32');
  const vars = [...params.entries()];
  const trainStep = () => {
    const { value, grads } = tf.variableGrads(() => crossEntropy(mlmLogits(params, config, encode(params, config, { inputIds: ids, attentionMask: mask }), positions), labels), vars.map(([, v]) => v));
    value.dataSync();
    opt.apply(new Map(vars.map(([name, v]) => [name, grads[v.name]!])), 1e-4);
    tf.dispose([value, ...Object.values(grads)]);
  };
  const inferStep = () => tf.tidy(() => void encode(params, config, { inputIds: ids, attentionMask: mask }).dataSync());
  const time = (f: () => void) => {
    f();
    f();
    const t0 = performance.now();
    for (let i = 0; i < STEPS; i++) f();
    return (BATCH * SEQ * STEPS) / ((performance.now() - t0) / 1000);
  };
  const result = { train: time(trainStep), infer: time(inferStep) };
  opt.dispose();
  disposeParams(params);
  tf.dispose([ids, mask, positions, labels]);
  return result;
}

/**
 * Milliseconds of one MLM loss forward + backward at the step's shape (15% of the positions × the
 * vocabulary): ppmlm's hand-fused crossEntropy against the same loss left to tfjs's autodiff
 * (logSoftmax, a one-hot product, a sum and a mean), the formula it replaced.
 */
function lossSpeed(): { fused: number; autodiff: number } {
  const m = Math.round(0.15 * BATCH * SEQ);
  const logits = tf.variable(tf.randomNormal([m, VOCAB], 0, 2, 'float32', 1));
  const labels = tf.tensor1d(Array.from({ length: m }, (_, i) => (i * 7919) % VOCAB), 'int32');
  const autodiff = (x: tf.Tensor2D, y: tf.Tensor1D) => tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(x), tf.oneHot(y, VOCAB)), 1))) as tf.Scalar;
  const ms = (loss: (x: tf.Tensor2D, y: tf.Tensor1D) => tf.Scalar) => {
    const once = () => {
      const { value, grads } = tf.variableGrads(() => loss(logits as unknown as tf.Tensor2D, labels), [logits]);
      grads[logits.name]!.dataSync();
      tf.dispose([value, grads[logits.name]!]);
    };
    once();
    const t0 = performance.now();
    for (let i = 0; i < 4 * STEPS; i++) once();
    return (performance.now() - t0) / (4 * STEPS);
  };
  const result = { fused: ms(crossEntropy), autodiff: ms(autodiff) };
  tf.dispose([logits, labels]);
  return result;
}

export const trainingSuite: BenchSuite = {
  name: 'training',
  async run(log): Promise<BenchRow[]> {
    const { threads } = await selectBackend('auto');
    const rows: BenchRow[] = [];
    const backend = `${tf.getBackend()}, ${threads} thread${threads === 1 ? '' : 's'}`;
    for (const { hidden, layers } of SHAPES) {
      log(`MLM step H${hidden}/L${layers}, seq ${SEQ}, batch ${BATCH}, vocab ${VOCAB}`);
      const ours = ppmlmSpeed(hidden, layers);
      const torch = await torchSpeed(hidden, layers);
      const shape = `H${hidden}/L${layers} seq${SEQ} b${BATCH} V${VOCAB}`;
      const note = torch ? 'PyTorch CPU, best of 1 and 2 threads' : 'PyTorch n/a (install python3-torch)';
      rows.push({ suite: 'training', case: `${shape}: train step (${backend})`, value: ours.train, unit: 'tokens/s', ...(torch && { baseline: { name: 'PyTorch', value: torch.train } }), note });
      rows.push({ suite: 'training', case: `${shape}: inference (${backend})`, value: ours.infer, unit: 'tokens/s', ...(torch && { baseline: { name: 'PyTorch', value: torch.infer } }), note });
    }
    log(`MLM loss forward + backward, ${Math.round(0.15 * BATCH * SEQ)} targets x ${VOCAB} words`);
    const loss = lossSpeed();
    rows.push({ suite: 'training', case: `MLM loss fwd+bwd, ${Math.round(0.15 * BATCH * SEQ)} targets x V${VOCAB} (${backend})`, value: loss.fused, unit: 'ms', lowerIsBetter: true, baseline: { name: 'tfjs autodiff', value: loss.autodiff } });
    rows.push({ suite: 'training', case: 'peak RSS of the bench process so far', value: process.resourceUsage().maxRSS / 1024, unit: 'MB' });
    return rows;
  },
};
