import * as tf from '@tensorflow/tfjs-core';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng, selectBackend, train, type BatchStep, type TrainOptions } from '../../src/engine/index.js';
import { crossEntropy, defaultConfig, initParams, lossSegments, mlmLogits, parameterShapes, tokenClassifierLogits, type EncoderConfig, type Params } from '../../src/model/index.js';
import { UsageError } from '../../src/errors.js';
import { webgpuUnavailable } from '../helpers/webgpu.js';
import { maxDiff } from '../helpers/gradients.js';
import { tempDir } from '../helpers/tmp.js';

// Toy shapes: lavapipe runs every shader on the CPU.
const CONFIG = defaultConfig({ vocab_size: 40, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 16 });
const S = 8;

/** A seeded batch of `rows` windows of S tokens, the last padded by 2, with targets at every third position. */
function batchOf(seed: number, rows: number) {
  const rng = new Rng(seed);
  const used = rows * S - 2;
  const inputIds = Int32Array.from({ length: rows * S }, () => 5 + rng.int(CONFIG.vocab_size - 5));
  const attentionMask = new Int32Array(rows * S).fill(1).fill(0, used);
  const positions = Int32Array.from({ length: Math.ceil(used / 3) }, (_, i) => 3 * i);
  const labels = positions.map(() => 5 + rng.int(CONFIG.vocab_size - 5));
  return { batchSize: rows, seqLen: S, inputIds, attentionMask, positions, labels };
}

type Head = 'mlm' | 'tokens';

/** The loss segments of batch `seed` for the MLM head (tied decoder) or a 3-label token classifier. */
function segmentsOf(params: Params, config: EncoderConfig, head: Head, seed: number) {
  const b = batchOf(seed, 2);
  const loss = (h: tf.Tensor2D) => {
    const at = tf.tensor1d(b.positions, 'int32');
    if (head === 'mlm') return crossEntropy(mlmLogits(params, config, h, at), tf.tensor1d(b.labels, 'int32'));
    return crossEntropy(tokenClassifierLogits(params, tf.gather(h, at)), tf.tensor1d(b.labels.map((l) => l % 3), 'int32'));
  };
  return { targets: b.labels.length, tokens: b.inputIds.length, segments: lossSegments(params, config, b, loss) };
}

interface RunOptions extends Partial<TrainOptions> {
  steps: number;
  /** The batch index at which the run is killed. */
  killAt?: number;
}

/** Writes the parameters' values beside a checkpoint, as a model folder would hold them. */
const saveParams = (params: Params) => async (dir: string) => {
  const values: [string, number[]][] = [];
  for (const [name, p] of params) values.push([name, Array.from(await p.data())]);
  await writeFile(join(dir, 'params.json'), JSON.stringify(values));
};

/**
 * Trains a seeded model for `steps` steps on `backend` (from the parameters saved in `checkpointDir` when
 * resuming) and returns its parameters' values, losses and gradient norms.
 */
async function trained(backend: 'webgpu' | 'cpu', head: Head, options: RunOptions) {
  await selectBackend(backend);
  const params = initParams(parameterShapes(CONFIG, head === 'mlm' ? 'mlm' : { tokenClassification: 3 }), CONFIG, 11);
  if (options.resume) {
    const saved = JSON.parse(await readFile(join(options.checkpointDir!, 'checkpoint', 'params.json'), 'utf8')) as [string, number[]][];
    for (const [name, values] of saved) params.get(name)!.assign(tf.tensor(values, params.get(name)!.shape));
  }
  const losses: number[] = [];
  const norms: number[] = [];
  const task = {
    batchesPerEpoch: options.steps * (options.accumulate ?? 1),
    batch(epoch: number, index: number): BatchStep {
      if (index === options.killAt) throw new Error('killed');
      return { protectedTargets: 0, ...segmentsOf(params, CONFIG, head, 100 * epoch + index) };
    },
  };
  const before = tf.memory().numTensors;
  const run = train(params, task, { epochs: 1, lr: 5e-3, seed: 1, writeModel: saveParams(params), onLog: (e) => (losses.push(e.loss), norms.push(e.gradNorm)), ...options });
  if (options.killAt !== undefined) await expect(run).rejects.toThrow('killed');
  else await run;
  // No tensor of the step (gradient sums, moments, stored activations) outlives training.
  expect(tf.memory().numTensors).toBe(before);
  const values = new Map<string, Float32Array>();
  for (const [name, p] of params) values.set(name, (await p.data()) as Float32Array);
  for (const p of params.values()) p.dispose();
  return { values, losses, norms };
}

/**
 * Tolerances: float32 on both backends, summed in other orders; gradients agree to ~1e-6 of their scale,
 * so losses and gradient norms to 1e-5 and 1e-4 relative. Weights to 1% of the learning rate (5e-5):
 * AdamW divides by sqrt(v) + 1e-8, which turns the float noise of a gradient that is zero in theory (the
 * attention key bias gets ~1e-13) into a sizeable step; measured up to 1.8e-5 after 4 steps.
 */
function expectSameModel(gpu: Awaited<ReturnType<typeof trained>>, cpu: Awaited<ReturnType<typeof trained>>) {
  expect(gpu.losses).toHaveLength(cpu.losses.length);
  gpu.losses.forEach((l, i) => expect(Math.abs(l - cpu.losses[i]!)).toBeLessThan(1e-5 * cpu.losses[i]!));
  gpu.norms.forEach((n, i) => expect(Math.abs(n - cpu.norms[i]!)).toBeLessThan(1e-4 * cpu.norms[i]!));
  expect(maxDiff(cpu.values, gpu.values)).toBeLessThan(5e-5);
}

// Before anything selects a backend in this file: auto's own choice.
const autoChoice = await selectBackend('auto');
const unavailable = await webgpuUnavailable();

describe('auto and webgpu', () => {
  it('passes webgpu by for work that reads tensors synchronously, saying why', () => {
    expect(autoChoice.name).not.toBe('webgpu');
    if (autoChoice.name === 'tensorflow') return;
    expect(autoChoice.attempts.find((a) => a.backend === 'webgpu')).toMatchObject({ usable: false, reason: expect.stringMatching(/reads tensors synchronously, which Node cannot do on webgpu/) });
  });

  it.skipIf(unavailable !== undefined)('does not hand such work the webgpu backend a training run selected before it', async () => {
    await selectBackend('webgpu');
    expect((await selectBackend('auto')).name).not.toBe('webgpu');
    expect((await selectBackend('auto', { runsOnWebgpu: true })).name).not.toBe('webgpu');
  });
});
if (unavailable) console.warn(`webgpu tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)(`training on webgpu against the cpu backend${unavailable ? ` (SKIPPED: ${unavailable})` : ''}`, () => {
  it.each([
    ['mlm', false],
    ['mlm', true],
    ['tokens', true],
  ] as const)('%s head, recompute %s: 3 steps give the cpu backend\'s losses and weights', async (head, recompute) => {
    const gpu = await trained('webgpu', head, { steps: 3, recompute });
    const cpu = await trained('cpu', head, { steps: 3, recompute });
    expect(gpu.losses).toHaveLength(3);
    expectSameModel(gpu, cpu);
  });

  it('accumulates micro-batches and resumes from a checkpoint with the moments the device kept', async () => {
    const dir = await tempDir();
    const run: RunOptions = { steps: 4, accumulate: 2, recompute: true, checkpointDir: dir, saveSteps: 2 };
    const straight = await trained('webgpu', 'mlm', { ...run, checkpointDir: await tempDir() });
    // Killed during step 4, after the checkpoint of step 2; resumed, it must end where the straight run ends.
    await trained('webgpu', 'mlm', { ...run, killAt: 6 });
    const resumed = await trained('webgpu', 'mlm', { ...run, resume: true });
    expect(resumed.losses).toHaveLength(2);
    expect(maxDiff(straight.values, resumed.values)).toBeLessThan(1e-6);
    expectSameModel(straight, await trained('cpu', 'mlm', { steps: 4, accumulate: 2, recompute: true }));
  });

  it('fails a synchronous read of a GPU tensor (inference\'s) with a one-line usage error naming the way out', async () => {
    await selectBackend('webgpu');
    const a = tf.randomNormal([8, 8]);
    const product = tf.matMul(a, a);
    expect(() => product.dataSync()).toThrow(UsageError);
    expect(() => product.dataSync()).toThrow(/reads a tensor synchronously, which Node cannot do on the webgpu backend.*use --backend wasm/);
    // Through the trainer, from a batch that computes its gradients itself.
    const params = initParams(parameterShapes(CONFIG), CONFIG, 1);
    const task = { batchesPerEpoch: 1, batch: (): BatchStep => ({ tokens: 1, targets: 1, protectedTargets: 0, gradients: async () => tf.sum(product).dataSync()[0]! }) };
    await expect(train(params, task, { epochs: 1, lr: 1e-3, seed: 1, writeModel: async () => undefined })).rejects.toThrow(UsageError);
    tf.dispose([a, product, ...params.values()]);
  });
});

describe.skipIf(unavailable !== undefined)(`AddN on webgpu${unavailable ? ` (SKIPPED: ${unavailable})` : ''}`, () => {
  it('adds more inputs than one shader binds (tfjs-backend-webgpu\'s own kernel gets them wrong), without leaking', async () => {
    await selectBackend('webgpu');
    const inputs = Array.from({ length: 23 }, (_, i) => tf.fill([3, 5], i + 1));
    const before = tf.memory().numTensors;
    const sum = tf.addN(inputs);
    expect(Array.from(await sum.data())).toEqual(new Array(15).fill((23 * 24) / 2));
    sum.dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose(inputs);
  });
});
