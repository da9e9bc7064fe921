import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Rng, selectBackend, train, type ComputedGradient, type RandomSource, type TrainerTask } from '../../src/engine/index.js';
import { groupUnits, makeAccountant, makePrivate, planDp, poissonSample, PrivateGradient, randomSubset, releaseAccountant, releaseRandom, SecureRng, type ExampleLoss, type PrivateData } from '../../src/privacy/index.js';
import { BudgetError, UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/tmp.js';
import { webgpuUnavailable } from '../helpers/webgpu.js';
import { crossEntropy, defaultConfig, initParams, lossSegments, mlmLogits, parameterShapes } from '../../src/model/index.js';
import { maxDiff } from '../helpers/gradients.js';

/** y = 2a - b + c/2 on seeded points: each example's loss is its own squared error. */
function regression(n: number, seed = 1) {
  const rng = new Rng(seed);
  const xs = Array.from({ length: n }, () => [rng.normal(), rng.normal(), rng.normal()]);
  const ys = xs.map(([a, b, c]) => 2 * a! - b! + 0.5 * c!);
  const params = new Map([
    ['lin.weight', tf.variable(tf.zeros([3, 1]))],
    ['lin.bias', tf.variable(tf.zeros([1]))],
  ]);
  const example = (i: number, scale = 1): ExampleLoss => ({
    loss: () => tf.mean(tf.square(tf.sub(tf.add(tf.matMul(tf.tensor2d([xs[i]!]), params.get('lin.weight')!), params.get('lin.bias')!), tf.scalar(ys[i]! * scale)))) as tf.Scalar,
  });
  return { params, example };
}

const norm = (sums: ReadonlyMap<string, Float32Array>) => Math.sqrt([...sums.values()].reduce((a, v) => a + v.reduce((s, x) => s + x * x, 0), 0));

/** The values a release hands over (a tensor on a device backend, read back and disposed), by parameter. */
async function released(pg: PrivateGradient, params: ReadonlyMap<string, tf.Variable>, rng: RandomSource = new SecureRng()): Promise<Map<string, Float32Array>> {
  const handed: [string, ComputedGradient][] = [];
  pg.release(params, rng, (name, g) => handed.push([name, g]));
  const out = new Map<string, Float32Array>();
  for (const [name, g] of handed) {
    out.set(name, g instanceof Float32Array ? g : ((await g.data()) as Float32Array));
    if (!(g instanceof Float32Array)) g.dispose();
  }
  return out;
}

/** On the current backend: a unit's contribution is clipped to C whatever its windows, and the sum of two to 2C. */
async function expectClipped() {
  const { params, example } = regression(40);
  /** The release of `units` without noise and undivided: the sum of their clipped contributions. */
  const release = async (units: ExampleLoss[][]) => {
    const pg = new PrivateGradient({ clip: 0.5, noiseMultiplier: 0, expectedUnits: 1 });
    const added = [];
    for (const u of units) added.push(await pg.addUnit(params, u));
    return { added, norm: norm(await released(pg, params, new Rng(1))) };
  };
  for (const windows of [1, 3, 40]) {
    for (const scale of [0.01, 1, 100]) {
      const { added, norm: sum } = await release([Array.from({ length: windows }, (_, i) => example(i, scale))]);
      expect(added[0]!.norm).toBeLessThanOrEqual(0.5 + 1e-6);
      expect(sum).toBeCloseTo(added[0]!.norm, 4);
      if (!added[0]!.clipped) expect(sum).toBeLessThan(0.5);
    }
  }
  // Two individuals of 20 windows with large gradients: their sum is bounded by 2 x clip.
  const two = await release([Array.from({ length: 20 }, (_, i) => example(i, 50)), Array.from({ length: 20 }, (_, i) => example(20 + i, 50))]);
  expect(two.added.every((a) => a.clipped)).toBe(true);
  expect(two.norm).toBeLessThanOrEqual(1 + 1e-6);
  tf.dispose([...params.values()]);
}

describe('per-individual DP-SGD', () => {
  it('samples individuals, not windows: each joins a release at rate q whatever its number of windows', () => {
    // 12 individuals with 1..23 windows; a window-level sampler would include the 23-window one ~23x as often.
    const units = Array.from({ length: 12 }, (_, u) => Array.from({ length: 1 + 2 * u }, (_, k) => u * 100 + k));
    const seen = new Array<number>(12).fill(0);
    let current = new Set<number>();
    const data: PrivateData = {
      units: units.length,
      examplesOf: (u) => units[u]!,
      example(i) {
        current.add(Math.floor(i / 100));
        return { tokens: 1, targets: 1, protectedTargets: 0, loss: () => tf.scalar(0) };
      },
    };
    const q = 0.2;
    const releases = 3000;
    const task = makePrivate(data, { clip: 1, noiseMultiplier: 1, sampleRate: q, maxExamples: 4, releasesPerEpoch: releases, random: releaseRandom({ secureNoise: false }, 5) });
    for (let r = 0; r < releases; r++) {
      current = new Set();
      task.batch(0, r);
      for (const u of current) seen[u]!++;
    }
    // Binomial(3000, 0.2): mean 600, sd 21.9; every individual within 4.5 sd, and a chi-square over all 12 below its 0.999 quantile (32.9).
    const sd = Math.sqrt(releases * q * (1 - q));
    for (const c of seen) expect(Math.abs(c - releases * q)).toBeLessThan(4.5 * sd);
    const chi2 = seen.reduce((a, c) => a + (c - releases * q) ** 2 / (releases * q * (1 - q)), 0);
    expect(chi2).toBeLessThan(32.9);
  });

  it('takes at most --dp-max-windows of a sampled individual\'s windows, a different random subset each time', () => {
    const rng = new Rng(3);
    const windows = Array.from({ length: 10 }, (_, i) => i);
    const subsets = Array.from({ length: 200 }, () => randomSubset(windows, 4, rng));
    for (const s of subsets) {
      expect(s).toHaveLength(4);
      expect(new Set(s).size).toBe(4);
    }
    // Each window about equally often: 200 x 4 / 10 = 80.
    const counts = windows.map((w) => subsets.filter((s) => s.includes(w)).length);
    for (const c of counts) expect(Math.abs(c - 80)).toBeLessThan(30);
    expect(randomSubset([1, 2], 4, rng).sort()).toEqual([1, 2]);
  });

  it("never lets an individual's clipped contribution exceed the clip, however many windows it has", async () => {
    await selectBackend('cpu');
    await expectClipped();
  });

  it('adds noise of sigma x clip to every parameter, divided by the expected number of individuals', async () => {
    await selectBackend('cpu');
    const params = new Map([['big', tf.variable(tf.zeros([20000]))]]);
    const pg = new PrivateGradient({ clip: 2, noiseMultiplier: 1.5, expectedUnits: 4 });
    const out = (await released(pg, params)).get('big')!;
    const mean = out.reduce((a, x) => a + x, 0) / out.length;
    const sd = Math.sqrt(out.reduce((a, x) => a + (x - mean) ** 2, 0) / out.length);
    expect(Math.abs(mean)).toBeLessThan(0.02);
    expect(sd).toBeCloseTo((1.5 * 2) / 4, 1);
  });

  it('draws from the OS CSPRNG by default: uniform, normal, and never the same stream twice', () => {
    const a = new SecureRng();
    const b = new SecureRng();
    const xs = Array.from({ length: 20000 }, () => a.next());
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
    const zs = Array.from({ length: 20000 }, () => b.normal());
    const m = zs.reduce((s, x) => s + x, 0) / zs.length;
    expect(Math.abs(m)).toBeLessThan(0.05);
    expect(zs.reduce((s, x) => s + (x - m) ** 2, 0) / zs.length).toBeCloseTo(1, 1);
    expect(Array.from({ length: 8 }, () => a.next())).not.toEqual(Array.from({ length: 8 }, () => b.next()));
    // The seeded generator of the insecure flag replays; the secure one ignores the seed.
    const seeded = releaseRandom({ secureNoise: false }, 7);
    expect(seeded(0, 3).next()).toBe(releaseRandom({ secureNoise: false }, 7)(0, 3).next());
    expect(releaseRandom({ secureNoise: true }, 7)(0, 3)).toBeInstanceOf(SecureRng);
  });

  it('groups examples by individual and plans sampling, releases, delta and noise', () => {
    expect(groupUnits(['a', 'b', 'a', 'c', 'b'])).toEqual([[0, 2], [1, 4], [3]]);
    const plan = planDp({ noiseMultiplier: 1 }, 50, 5, { epochs: 3 });
    expect(plan).toMatchObject({ unit: 'author', sampleRate: 0.1, releasesPerEpoch: 10, releases: 30, delta: 1e-5, maxWindows: 4, accountant: 'rdp', secureNoise: true, clip: 1 });
    expect(planDp({ noiseMultiplier: 1 }, 5, 2, { epochs: 1 }).delta).toBeLessThan(1 / 5);
    // Each batch of an accumulated step is a release of its own.
    expect(planDp({ noiseMultiplier: 1 }, 50, 5, { epochs: 1, maxSteps: 4, accumulate: 3 }).releases).toBe(12);
    expect(planDp({ noiseMultiplier: 1, unit: 'window', maxWindows: 9 }, 50, 5, { epochs: 1 }).maxWindows).toBe(1);
    expect(() => planDp({}, 50, 5, { epochs: 1 })).toThrow(UsageError);
    expect(() => planDp({ targetEpsilon: 1e-3 }, 10, 10, { epochs: 100 })).toThrow(BudgetError);
  });

  it('applies a release that sampled nobody: pure noise, still counted by the accountant', async () => {
    await selectBackend('cpu');
    const { params, example } = regression(8);
    const units = Array.from({ length: 8 }, (_, u) => [u]);
    const data: PrivateData = { units: units.length, examplesOf: (u) => units[u]!, example: (i) => ({ tokens: 1, targets: 1, protectedTargets: 0, ...example(i) }) };
    // Sample rate 1e-9: every release is empty.
    const task = makePrivate(data, { clip: 1, noiseMultiplier: 1, sampleRate: 1e-9, maxExamples: 1, releasesPerEpoch: 3, random: releaseRandom({ secureNoise: false }, 2) });
    expect(task.batch(0, 0)).toMatchObject({ release: true, targets: 0 });
    const accountant = makeAccountant('rdp');
    const state = await train(params, task, { epochs: 1, lr: 0.01, seed: 2, maxGradNorm: 0, writeModel: async () => undefined, accountant: releaseAccountant(accountant, 1, 1e-9) });
    expect(state.releases).toBe(3);
    expect(state.skippedBatches).toBe(0);
    expect(accountant.releases).toBe(3);
    expect(Array.from(params.get('lin.weight')!.dataSync()).some((w) => w !== 0)).toBe(true);
  });

  it('counts one release per noisy batch with gradient accumulation, and a resumed run continues its accountant', async () => {
    await selectBackend('cpu');
    const units = Array.from({ length: 16 }, (_, u) => [2 * u, 2 * u + 1]);
    const run = async (dir: string, options: { killAt?: number; resume?: boolean } = {}) => {
      const { params, example } = regression(32, 4);
      const data: PrivateData = { units: units.length, examplesOf: (u) => units[u]!, example: (i) => ({ tokens: 1, targets: 1, protectedTargets: 0, ...example(i) }) };
      const inner = makePrivate(data, { clip: 1, noiseMultiplier: 1.1, sampleRate: 0.25, maxExamples: 2, releasesPerEpoch: 6, random: releaseRandom({ secureNoise: false }, 9) });
      let calls = 0;
      const task: TrainerTask = {
        batchesPerEpoch: inner.batchesPerEpoch,
        batch(epoch, index) {
          if (options.killAt !== undefined && calls++ === options.killAt) throw new Error('killed');
          return inner.batch(epoch, index);
        },
      };
      const accountant = makeAccountant('rdp');
      const state = await train(params, task, {
        epochs: 2, lr: 0.05, seed: 9, accumulate: 2, maxGradNorm: 0, checkpointDir: dir, saveSteps: 1, resume: options.resume,
        writeModel: async () => undefined, accountant: releaseAccountant(accountant, 1.1, 0.25), logMode: 0o600,
      });
      return { state, accountant, weights: Array.from(params.get('lin.weight')!.dataSync()) };
    };
    const full = await run(await tempDir());
    // 2 epochs x 6 batches: 12 releases in 6 optimizer steps.
    expect(full.state.step).toBe(6);
    expect(full.state.releases).toBe(12);
    expect(full.accountant.releases).toBe(12);
    const dir = await tempDir();
    await expect(run(dir, { killAt: 7 })).rejects.toThrow('killed');
    const saved = JSON.parse(await readFile(join(dir, 'checkpoint', 'trainer_state.json'), 'utf8'));
    expect(saved.accountant).toMatchObject({ mechanism: 'rdp', history: [{ sigma: 1.1, q: 0.25, steps: saved.releases }] });
    expect(saved.releases).toBeGreaterThan(0);
    const resumed = await run(dir, { resume: true });
    expect(resumed.accountant.releases).toBe(12);
    expect(resumed.accountant.getEpsilon(1e-5)).toBe(full.accountant.getEpsilon(1e-5));
    // The log of unprivatised losses is the owner's only.
    expect((await stat(join(dir, 'train_log.jsonl'))).mode & 0o777).toBe(0o600);
  });
});

// Toy shapes: lavapipe runs every shader on the CPU.
const TOY = defaultConfig({ vocab_size: 40, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 16 });

/**
 * DP-SGD for `releases` steps on a seeded toy encoder with the MLM head on `backend`: 6 individuals of 1-3
 * windows, seeded sampling and noise (the insecure flag's generator), so two backends draw the same
 * releases. Returns the weights, the step losses and that no tensor outlived training.
 */
async function privatelyTrained(backend: 'webgpu' | 'cpu', recompute: boolean, releases: number) {
  await selectBackend(backend);
  const params = initParams(parameterShapes(TOY, 'mlm'), TOY, 11);
  const units = [[0], [1, 2], [3, 4, 5], [6], [7, 8], [9]];
  const S = 8;
  const example = (i: number) => {
    const rng = new Rng(100 + i);
    const b = { batchSize: 1, seqLen: S, inputIds: Int32Array.from({ length: S }, () => 5 + rng.int(35)), attentionMask: new Int32Array(S).fill(1), positions: Int32Array.from([1, 4, 6]), labels: Int32Array.from({ length: 3 }, () => 5 + rng.int(35)) };
    const segments = lossSegments(params, TOY, b, (h) => crossEntropy(mlmLogits(params, TOY, h, tf.tensor1d(b.positions, 'int32')), tf.tensor1d(b.labels, 'int32')));
    return { tokens: S, targets: 3, protectedTargets: 0, segments };
  };
  const data: PrivateData = { units: units.length, examplesOf: (u) => units[u]!, example };
  const task = makePrivate(data, { clip: 0.5, noiseMultiplier: 0.3, sampleRate: 0.5, maxExamples: 2, releasesPerEpoch: releases, recompute, random: releaseRandom({ secureNoise: false }, 3) });
  const losses: number[] = [];
  const initial = new Map<string, Float32Array>();
  for (const [name, p] of params) initial.set(name, Float32Array.from(await p.data()));
  const before = tf.memory().numTensors;
  await train(params, task, { epochs: 1, lr: 5e-3, seed: 3, maxGradNorm: 0, recompute, writeModel: async () => undefined, onLog: (e) => losses.push(e.loss) });
  const leaked = tf.memory().numTensors - before;
  const weights = new Map<string, Float32Array>();
  for (const [name, p] of params) weights.set(name, (await p.data()) as Float32Array);
  tf.dispose([...params.values()]);
  return { weights, losses, leaked, moved: maxDiff(initial, weights) };
}

const unavailable = await webgpuUnavailable();
if (unavailable) console.warn(`webgpu DP-SGD tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)(`DP-SGD on webgpu against the cpu backend${unavailable ? ` (SKIPPED: ${unavailable})` : ''}`, () => {
  it("clips each individual's contribution on the device", async () => {
    await selectBackend('webgpu');
    await expectClipped();
  });

  /**
   * Tolerances: float32 on both, summed in other orders; the noise is the same draws (uploaded on webgpu).
   * Losses to 1e-5 relative; weights to 1e-5 (measured 1.2e-7 after 4 releases, weights moved by 1.3e-2):
   * tighter than plain training's parity test, since noise on every coordinate leaves AdamW no gradient
   * that is zero in theory and float noise in practice.
   */
  it.each([false, true])('recompute %s: 4 seeded releases give the cpu backend\'s losses and weights', async (recompute) => {
    const gpu = await privatelyTrained('webgpu', recompute, 4);
    const cpu = await privatelyTrained('cpu', recompute, 4);
    expect(gpu.leaked).toBe(0);
    expect(gpu.losses).toHaveLength(4);
    gpu.losses.forEach((l, i) => expect(Math.abs(l - cpu.losses[i]!)).toBeLessThan(1e-5 * cpu.losses[i]!));
    expect(maxDiff(cpu.weights, gpu.weights)).toBeLessThan(1e-5);
    // The weights did move: the comparison is not of two untrained models.
    expect(cpu.moved).toBeGreaterThan(1e-3);
  });
});
