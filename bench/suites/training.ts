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

export const trainingSuite: BenchSuite = {
  name: 'training',
  async run(log): Promise<BenchRow[]> {
    const { threads } = await selectBackend('auto');
    const rows: BenchRow[] = [];
    for (const { hidden, layers } of SHAPES) {
      log(`MLM step H${hidden}/L${layers}, seq ${SEQ}, batch ${BATCH}, vocab ${VOCAB}`);
      const ours = ppmlmSpeed(hidden, layers);
      const torch = await torchSpeed(hidden, layers);
      const shape = `H${hidden}/L${layers} seq${SEQ} b${BATCH} V${VOCAB}`;
      const note = torch ? 'PyTorch CPU, best of 1 and 2 threads' : 'PyTorch n/a (install python3-torch)';
      const backend = `${tf.getBackend()}, ${threads} thread${threads === 1 ? '' : 's'}`;
      rows.push({ suite: 'training', case: `${shape}: train step (${backend})`, value: ours.train, unit: 'tokens/s', ...(torch && { baseline: { name: 'PyTorch', value: torch.train } }), note });
      rows.push({ suite: 'training', case: `${shape}: inference (${backend})`, value: ours.infer, unit: 'tokens/s', ...(torch && { baseline: { name: 'PyTorch', value: torch.infer } }), note });
    }
    rows.push({ suite: 'training', case: 'peak RSS of the bench process so far', value: process.resourceUsage().maxRSS / 1024, unit: 'MB' });
    return rows;
  },
};
