import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { checkTrainingMemory, defaultConfig, planTrainingMemory, trainingMemory } from '../../src/model/index.js';

const GiB = 2 ** 30;
const LIMIT = 3.75 * GiB;
const encoder = (hidden: number, layers: number, vocab: number) =>
  defaultConfig({ vocab_size: vocab, hidden_size: hidden, num_hidden_layers: layers, num_attention_heads: hidden / 64, intermediate_size: 4 * hidden });
const mlm = (batchSize: number, vocab: number) => ({ batchSize, seqLen: 128, targetShare: 0.15, outputs: vocab });

describe('training memory plan', () => {
  it('counts BERT-base as 110M parameters, with optimizer state and gradients outside the heap', () => {
    const m = trainingMemory(encoder(768, 12, 30522), mlm(8, 30522), true);
    expect(m.parameters / 4 / 1e6).toBeGreaterThan(109);
    expect(m.parameters / 4 / 1e6).toBeLessThan(111);
    expect(m.host).toBe(3 * m.parameters);
  });

  it('checkpoints activations for BERT-base and RoBERTa-large, not for the small shapes, and fits both in wasm32', () => {
    const small = planTrainingMemory(encoder(128, 2, 8000), mlm(16, 8000), { heapLimit: LIMIT });
    expect(small).toMatchObject({ recompute: false, microBatch: 16, fits: true });
    const base = planTrainingMemory(encoder(768, 12, 30522), mlm(8, 30522), { heapLimit: LIMIT });
    expect(base).toMatchObject({ recompute: true, microBatch: 8, fits: true });
    // Asked for, micro-batches small enough to keep their tapes instead (what the bench compares).
    expect(planTrainingMemory(encoder(768, 12, 30522), mlm(8, 30522), { heapLimit: LIMIT, device: false, tensorLimit: Infinity, large: 'micro-batches' })).toMatchObject({ recompute: false, microBatch: 2, fits: true });
    // Without checkpointing the tape of 12 layers alone would not fit.
    expect(trainingMemory(encoder(768, 12, 30522), mlm(8, 30522), false).heap).toBeGreaterThan(LIMIT);
    const large = planTrainingMemory(encoder(1024, 24, 50265), mlm(8, 50265), { heapLimit: LIMIT });
    expect(large).toMatchObject({ recompute: true, fits: true });
    // Depth costs the checkpointed plan only its stored activations.
    expect(trainingMemory(encoder(768, 24, 30522), mlm(8, 30522), true).heap - base.heap).toBeLessThan(0.5 * GiB);
  });

  it("keeps DP-SGD's per-unit and per-release gradient sums in JS memory, not the heap", () => {
    const dp = trainingMemory(encoder(768, 12, 30522), { ...mlm(1, 30522), perExampleGradients: true }, false);
    const plain = trainingMemory(encoder(768, 12, 30522), mlm(1, 30522), false);
    expect(dp.heap).toBe(plain.heap);
    expect(dp.host - plain.host).toBe(2 * plain.parameters);
    expect(planTrainingMemory(encoder(768, 12, 30522), { ...mlm(1, 30522), perExampleGradients: true }, { heapLimit: LIMIT })).toMatchObject({ perExampleGradients: true, fits: true });
    // RoBERTa-large, one window at a time, fits the heap too: its gradient sums are outside it.
    expect(planTrainingMemory(encoder(1024, 24, 50265), { ...mlm(1, 50265), perExampleGradients: true }, { heapLimit: LIMIT }).fits).toBe(true);
  });

  it('runs a batch too large even checkpointed as checkpointed micro-batches, and refuses windows too long with the flags that help', () => {
    expect(planTrainingMemory(encoder(768, 12, 30522), mlm(4096, 30522), { heapLimit: Infinity })).toMatchObject({ microBatch: 4096, fits: true });
    const huge = planTrainingMemory(encoder(768, 12, 30522), mlm(4096, 30522), { heapLimit: LIMIT });
    expect(huge).toMatchObject({ recompute: true, fits: true });
    expect(huge.microBatch).toBeLessThan(4096);
    expect(huge.microBatch).toBeGreaterThan(8);
    // The fewest parts: with one part fewer, each would not fit.
    const parts = Math.ceil(4096 / huge.microBatch);
    expect(trainingMemory(encoder(768, 12, 30522), mlm(Math.ceil(4096 / (parts - 1)), 30522), true).heap).toBeGreaterThan(LIMIT);
    // Nothing fits: the refusal reports one window at a time, the least a batch can need.
    expect(planTrainingMemory(encoder(1024, 24, 250002), { ...mlm(8, 250002), seqLen: 512 }, { heapLimit: LIMIT })).toMatchObject({ microBatch: 1, fits: false });
    const long = { ...mlm(1, 30522), seqLen: 16384 };
    expect(planTrainingMemory(encoder(768, 12, 30522), long, { heapLimit: LIMIT }).fits).toBe(false);
    expect(() => checkTrainingMemory(encoder(768, 12, 30522), long)).toThrow(UsageError);
    expect(() => checkTrainingMemory(encoder(768, 12, 30522), long)).toThrow(/110M parameters.*windows of 16384 tokens.*GiB of the wasm heap even in forward passes of 1 window,.*--seq-len/);
  });
});

describe('training memory plan on a GPU (webgpu)', () => {
  const GPU = 16 * GiB;

  it('keeps gradients and both AdamW moments on the device, only their checkpoint copies in JS', () => {
    const host = trainingMemory(encoder(768, 12, 30522), mlm(8, 30522), true);
    const device = trainingMemory(encoder(768, 12, 30522), mlm(8, 30522), true, true);
    expect(device.heap - host.heap).toBeCloseTo(1.1 * 3 * host.parameters, -3);
    expect(device.host).toBe(2 * host.parameters);
    expect(device.onDevice).toBe(true);
    // DP-SGD adds a unit's gradient sum and the release's total, on the device too.
    const dp = trainingMemory(encoder(768, 12, 30522), { ...mlm(8, 30522), perExampleGradients: true }, true, true);
    expect(dp.heap - device.heap).toBeCloseTo(1.1 * 2 * host.parameters, -3);
    expect(dp.host).toBe(device.host);
  });

  it('trains BERT-base and RoBERTa-large at batch 8 x 128 within 16 GB, never refused for wasm32\'s heap', () => {
    for (const [config, vocab] of [[encoder(768, 12, 30522), 30522], [encoder(1024, 24, 50265), 50265]] as const) {
      const plan = planTrainingMemory(config, mlm(8, vocab), { heapLimit: Infinity, device: true, tensorLimit: 2 * GiB });
      expect(plan.fits).toBe(true);
      expect(plan.heap).toBeLessThan(GPU);
    }
  });

  it('refuses a tensor larger than the adapter binds at once (lavapipe binds 128 MiB)', () => {
    // RoBERTa-large's embedding table is 196 MiB.
    const plan = planTrainingMemory(encoder(1024, 24, 50265), mlm(8, 50265), { heapLimit: Infinity, device: true, tensorLimit: 128 * 2 ** 20 });
    expect(plan.largestTensor).toBeGreaterThan(128 * 2 ** 20);
    expect(plan.fits).toBe(false);
    expect(planTrainingMemory(encoder(768, 12, 30522), mlm(8, 30522), { heapLimit: Infinity, device: true, tensorLimit: 128 * 2 ** 20 }).fits).toBe(true);
  });
});
