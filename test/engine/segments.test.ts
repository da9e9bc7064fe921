import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { Rng, segmentedGradients, selectBackend, train, type BatchStep } from '../../src/engine/index.js';
import { crossEntropy, defaultConfig, dropoutOf, initParams, lossSegments, mlmLogits, parameterShapes, type EncoderConfig, type Params } from '../../src/model/index.js';
import { gradientsOf } from '../helpers/gradients.js';

const CONFIG = defaultConfig({ vocab_size: 60, hidden_size: 32, num_hidden_layers: 3, num_attention_heads: 4, intermediate_size: 64, max_position_embeddings: 32, hidden_dropout_prob: 0.1, attention_probs_dropout_prob: 0.1 });

/**
 * A seeded MLM batch of `rows` windows of 16 tokens, the last row padded by 3 to 7 tokens (so that batches
 * differ in their number of targets), with targets at every fifth position.
 */
function mlmBatch(seed: number, rows: number) {
  const rng = new Rng(seed);
  const S = 16;
  const used = rows * S - 3 - (seed % 5);
  const inputIds = Int32Array.from({ length: rows * S }, () => 5 + rng.int(50));
  const attentionMask = new Int32Array(rows * S).fill(1).fill(0, used);
  const positions = Int32Array.from({ length: Math.ceil(used / 5) }, (_, i) => 5 * i);
  const labels = positions.map(() => 5 + rng.int(50));
  return { batchSize: rows, seqLen: S, inputIds, attentionMask, positions, labels };
}

function segmentsOf(params: Params, config: EncoderConfig, b: ReturnType<typeof mlmBatch>, dropoutSeed?: number) {
  const head = (h: tf.Tensor2D) => crossEntropy(mlmLogits(params, config, h, tf.tensor1d(b.positions, 'int32')), tf.tensor1d(b.labels, 'int32'));
  return lossSegments(params, config, b, head, dropoutSeed === undefined ? undefined : dropoutOf(config, new Rng(dropoutSeed)));
}

describe('segmentedGradients', () => {
  it('gives the whole tape\'s loss and gradients when it recomputes each segment, dropout included', async () => {
    await selectBackend('wasm');
    const params = initParams(parameterShapes(CONFIG), CONFIG, 3);
    const b = mlmBatch(1, 3);
    // 1 embeddings + 2 blocks per layer + the head.
    expect(segmentsOf(params, CONFIG, b)).toHaveLength(1 + 2 * CONFIG.num_hidden_layers + 1);
    const before = tf.memory().numTensors;
    for (const dropoutSeed of [undefined, 7]) {
      const whole = gradientsOf(params, segmentsOf(params, CONFIG, b, dropoutSeed), false);
      const recomputed = gradientsOf(params, segmentsOf(params, CONFIG, b, dropoutSeed), true);
      expect(recomputed.loss).toBeCloseTo(whole.loss, 5);
      // Every parameter gets a gradient (the word embeddings from the lookup and the tied decoder, summed).
      expect([...recomputed.grads.keys()].sort()).toEqual([...params.keys()].sort());
      for (const [name, g] of whole.grads) {
        const r = recomputed.grads.get(name)!;
        const scale = Math.max(...g.map(Math.abs), 1e-6);
        for (let i = 0; i < g.length; i++) expect(Math.abs(r[i]! - g[i]!) / scale, name).toBeLessThan(1e-4);
      }
    }
    // The dropout masks differ from no dropout (so the check above compared masked runs).
    expect(gradientsOf(params, segmentsOf(params, CONFIG, b, 7), true).loss).not.toBeCloseTo(gradientsOf(params, segmentsOf(params, CONFIG, b), true).loss, 5);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('refuses an empty list of segments', () => {
    expect(() => segmentedGradients([], new Map(), () => undefined, true)).toThrow(RangeError);
  });
});

/** A task of seeded MLM batches of `rows` windows; batch i of the large task is batches 2i and 2i+1 of the small. */
function mlmTask(params: Params, rows: number, batches: number): { batchesPerEpoch: number; batch: (epoch: number, index: number) => BatchStep } {
  return {
    batchesPerEpoch: batches,
    batch(epoch, index) {
      const b = mlmBatch(1000 * epoch + index, rows);
      return { tokens: b.inputIds.length, targets: b.labels.length, protectedTargets: 0, segments: segmentsOf(params, CONFIG, b) };
    },
  };
}

describe('train with segments', () => {
  it('keeps tensor count and the wasm heap flat over 50 steps with activation checkpointing', async () => {
    await selectBackend('wasm');
    const params = initParams(parameterShapes(CONFIG), CONFIG, 4);
    const heapBytes = () => (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.length;
    const tensors: number[] = [];
    const heaps: number[] = [];
    const before = tf.memory().numTensors;
    const state = await train(params, mlmTask(params, 4, 50), {
      epochs: 1,
      lr: 1e-3,
      seed: 1,
      recompute: true,
      writeModel: async () => undefined,
      onLog: () => {
        tensors.push(tf.memory().numTensors);
        heaps.push(heapBytes());
      },
    });
    expect(state.step).toBe(50);
    expect(new Set(tensors).size).toBe(1);
    expect(tensors[0]).toBe(before);
    expect(heaps.at(-1)).toBe(heaps[4]);
  });

  it('accumulates micro-batches into exactly the step of one batch twice as large', async () => {
    await selectBackend('wasm');
    const run = async (rows: number, accumulate: number) => {
      const params = initParams(parameterShapes(CONFIG), CONFIG, 5);
      // Windows of the same seeds either way: one batch of 4 rows = rows 0-1 and 2-3 of two batches of 2.
      const task = {
        batchesPerEpoch: 8 / rows,
        batch(epoch: number, index: number): BatchStep {
          const parts = Array.from({ length: rows }, (_, r) => mlmBatch(100 * epoch + index * rows + r, 1));
          const b = {
            batchSize: rows,
            seqLen: 16,
            inputIds: Int32Array.from(parts.flatMap((p) => [...p.inputIds])),
            attentionMask: Int32Array.from(parts.flatMap((p) => [...p.attentionMask])),
            positions: Int32Array.from(parts.flatMap((p, r) => [...p.positions].map((x) => x + 16 * r))),
            labels: Int32Array.from(parts.flatMap((p) => [...p.labels])),
          };
          return { tokens: b.inputIds.length, targets: b.labels.length, protectedTargets: 0, segments: segmentsOf(params, CONFIG, b) };
        },
      };
      const state = await train(params, task, { epochs: 2, lr: 1e-3, seed: 1, accumulate, recompute: rows === 2, writeModel: async () => undefined });
      return { state, params };
    };
    const large = await run(4, 1);
    const micro = await run(2, 2);
    expect(micro.state.step).toBe(large.state.step);
    expect(micro.state.targets).toBe(large.state.targets);
    expect(micro.state.lastLoss).toBeCloseTo(large.state.lastLoss, 5);
    for (const [name, p] of large.params) {
      const a = p.dataSync();
      const b = micro.params.get(name)!.dataSync();
      for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!), name).toBeLessThan(2e-5);
    }
  });

  it('updates weights in place on wasm exactly as the cpu backend updates them by reassignment', async () => {
    const run = async (backend: 'wasm' | 'cpu') => {
      await selectBackend(backend);
      const params = initParams(parameterShapes(CONFIG), CONFIG, 6);
      await train(params, mlmTask(params, 2, 4), { epochs: 1, lr: 1e-2, seed: 1, recompute: true, writeModel: async () => undefined });
      const values = new Map([...params].map(([k, v]) => [k, Float32Array.from(v.dataSync())]));
      for (const v of params.values()) v.dispose();
      return values;
    };
    const cpu = await run('cpu');
    const wasm = await run('wasm');
    for (const [name, a] of cpu) {
      const b = wasm.get(name)!;
      for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!), name).toBeLessThan(1e-4);
    }
  });
});
