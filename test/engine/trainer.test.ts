import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { appendFile, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { AdamW, bestModelDir, clipFactor, GradientBuffer, lossCurve, Rng, selectBackend, train, warmupCosine, type TrainerTask, type TrainOptions } from '../../src/engine/index.js';
import { FormatError, TrainingDivergedError, UsageError } from '../../src/errors.js';
import { dropLoggedAfter } from '../../src/engine/trainer.js';
import { tempDir } from '../helpers/tmp.js';

describe('warmupCosine', () => {
  it('warms up linearly, then decays along a cosine to 0', () => {
    expect(warmupCosine(0, 1, 10, 110)).toBeCloseTo(0.1);
    expect(warmupCosine(9, 1, 10, 110)).toBeCloseTo(1);
    expect(warmupCosine(60, 1, 10, 110)).toBeCloseTo(0.5);
    expect(warmupCosine(110, 1, 10, 110)).toBeCloseTo(0);
  });
});

describe('AdamW', () => {
  it('matches a hand-computed step, with decoupled decay on weights only', async () => {
    await selectBackend('cpu');
    const params = new Map([
      ['w.weight', tf.variable(tf.tensor1d([1, -2]))],
      ['w.bias', tf.variable(tf.tensor1d([0.5]))],
    ]);
    const opt = new AdamW(params, { weightDecay: 0.1 });
    opt.apply(new Map([['w.weight', Float32Array.of(0.2, -0.4)], ['w.bias', Float32Array.of(1)]]), 0.01);
    // Step 1: m̂ = g, v̂ = g², update = g / (|g| + eps) = sign(g); decay: p·(1 - lr·wd).
    const w = params.get('w.weight')!.dataSync();
    expect(w[0]).toBeCloseTo(1 * (1 - 0.001) - 0.01, 6);
    expect(w[1]).toBeCloseTo(-2 * (1 - 0.001) + 0.01, 6);
    expect(params.get('w.bias')!.dataSync()[0]).toBeCloseTo(0.5 - 0.01, 6);
    opt.dispose();
  });
});

describe('clipping and the gradient scale', () => {
  it('scales a gradient whose norm exceeds the bound down to it, and leaves others alone', () => {
    expect(clipFactor(10, 1)).toBeCloseTo(0.1, 6);
    expect(clipFactor(0.5, 1)).toBe(1);
    expect(clipFactor(10, 0)).toBe(1);
  });

  it("gives the sums' L2 norm, from the squares taken while a sum was first written or from a pass once it was added to again", () => {
    const buffer = new GradientBuffer();
    buffer.addValues('a', Float32Array.of(1.5), 2);
    buffer.addValues('b', Float32Array.of(4), 1);
    expect(buffer.norm()).toBe(5);
    // A second micro-batch: a's sum is now 3 + 2 · 0.5 = 4; its cached squares no longer hold.
    buffer.addValues('a', Float32Array.of(0.5), 2);
    expect(buffer.norm()).toBeCloseTo(Math.sqrt(32), 12);
    buffer.clear();
    buffer.addValues('c', Float32Array.of(0.1, 0.2, 0.3), 1);
    const sums = buffer.collected().get('c')!;
    expect(buffer.norm()).toBe(Math.sqrt(sums[0]! ** 2 + sums[1]! ** 2 + sums[2]! ** 2));
  });

  it('AdamW with a gradient scale takes the step of the pre-scaled gradient', async () => {
    await selectBackend('cpu');
    const run = (g: Float32Array, scale: number) => {
      const params = new Map([['w.weight', tf.variable(tf.tensor1d([1, -2]))]]);
      const opt = new AdamW(params, { weightDecay: 0.1 });
      opt.apply(new Map([['w.weight', g]]), 0.01, scale);
      opt.apply(new Map([['w.weight', g]]), 0.01, scale);
      return Array.from(params.get('w.weight')!.dataSync());
    };
    const scaled = run(Float32Array.of(2, -4), 0.25);
    const pre = run(Float32Array.of(0.5, -1), 1);
    for (let i = 0; i < 2; i++) expect(scaled[i]).toBeCloseTo(pre[i]!, 6);
  });
});

/** Linear regression on seeded data: small enough for exact reproducibility checks. */
function regression(seed: number, failAt?: { epoch: number; index: number }) {
  const rng = new Rng(seed);
  const xs = Array.from({ length: 64 }, () => [rng.normal(), rng.normal(), rng.normal()]);
  const ys = xs.map(([a, b, c]) => 2 * a! - b! + 0.5 * c! + 0.1 * rng.normal());
  const params = new Map([
    ['lin.weight', tf.variable(tf.zeros([3, 1]))],
    ['lin.bias', tf.variable(tf.zeros([1]))],
  ]);
  const task: TrainerTask = {
    batchesPerEpoch: 8,
    batch(epoch, index) {
      if (failAt && epoch === failAt.epoch && index === failAt.index) throw new Error('killed');
      const order = new Rng(seed).fork(epoch).shuffle(Array.from({ length: 64 }, (_, i) => i)).slice(index * 8, index * 8 + 8);
      return {
        tokens: 8,
        targets: 8,
        protectedTargets: 0,
        loss: () => tf.mean(tf.square(tf.sub(tf.add(tf.matMul(tf.tensor2d(order.map((i) => xs[i]!)), params.get('lin.weight')!), params.get('lin.bias')!), tf.tensor2d(order.map((i) => [ys[i]!]))))) as tf.Scalar,
      };
    },
  };
  const writeModel = async (dir: string) => {
    await writeFile(join(dir, 'params.json'), JSON.stringify([...params].map(([k, v]) => [k, Array.from(v.dataSync())])));
  };
  // Held-out loss: mean squared error on 16 fresh points, computed without touching the parameters.
  const heldX = Array.from({ length: 16 }, () => [rng.normal(), rng.normal(), rng.normal()]);
  const heldY = heldX.map(([a, b, c]) => [2 * a! - b! + 0.5 * c!]);
  const evaluate = () => tf.tidy(() => tf.mean(tf.square(tf.sub(tf.add(tf.matMul(tf.tensor2d(heldX), params.get('lin.weight')!), params.get('lin.bias')!), tf.tensor2d(heldY)))).dataSync()[0]!);
  return { params, task, writeModel, evaluate };
}

const readLog = async (dir: string) => (await readFile(join(dir, 'train_log.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

describe('dropLoggedAfter: the log a resume continues', () => {
  it('keeps the steps up to the checkpoint\'s and as many evaluations as it recorded, even one logged at its step', async () => {
    const log = join(await tempDir(), 'train_log.jsonl');
    const lines = [{ step: 1, epoch: 0, loss: 2 }, { evalLoss: 1.5, epoch: 0, step: 1 }, { step: 2, epoch: 1, loss: 1.8 }, { evalLoss: 1.4, epoch: 1, step: 2 }, { step: 3, epoch: 2, loss: 1.7 }];
    await writeFile(log, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"step": 4, "ep`);
    // A checkpoint at step 2 taken before the second epoch's evaluation: that evaluation is done again.
    await dropLoggedAfter(log, { step: 2, evalLosses: [1.5] }, undefined);
    expect((await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l))).toEqual(lines.slice(0, 3));
  });
});

describe('train', () => {
  it('learns, writes a JSONL log and a checkpoint, and keeps memory flat', async () => {
    await selectBackend('wasm');
    const dir = await tempDir();
    const { params, task, writeModel } = regression(1);
    const before = tf.memory().numTensors;
    const counts: number[] = [];
    const state = await train(params, task, { epochs: 30, lr: 0.05, seed: 1, weightDecay: 0, checkpointDir: dir, writeModel, onLog: () => counts.push(tf.memory().numTensors) });
    expect(state.lastLoss).toBeLessThan(0.05);
    expect(state.step).toBe(240);
    expect(new Set(counts.slice(10)).size).toBe(1);
    expect(tf.memory().numTensors).toBe(before);
    const log = (await readFile(join(dir, 'train_log.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(log).toHaveLength(240);
    expect(log[0]).toMatchObject({ step: 1, epoch: 0, batch: 0 });
    expect(JSON.parse(await readFile(join(dir, 'checkpoint', 'trainer_state.json'), 'utf8'))).toMatchObject({ epoch: 30, step: 240 });
    // The loss curve: one mean per epoch, over that epoch's logged steps, falling as the model learns.
    expect(state.epochLosses).toHaveLength(30);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const e of [0, 12, 29]) expect(state.epochLosses[e]).toBeCloseTo(mean(log.filter((l) => l.epoch === e).map((l) => l.loss)), 10);
    expect(state.epochLosses[29]!).toBeLessThan(state.epochLosses[0]! / 10);
    expect(lossCurve(state)[29]).toBe(Math.round(state.epochLosses[29]! * 1e4) / 1e4);
  });

  it('resumes after a crash mid-epoch and ends bit for bit where an uninterrupted run ends', async () => {
    await selectBackend('wasm');
    const options = (dir: string, writeModel: (d: string) => Promise<void>) => ({ epochs: 3, lr: 0.05, seed: 2, checkpointDir: dir, saveSteps: 3, writeModel, accumulate: 1 });
    const full = regression(2);
    const fullState = await train(full.params, full.task, options(await tempDir(), full.writeModel));

    const dir = await tempDir();
    const crashed = regression(2, { epoch: 1, index: 5 });
    await expect(train(crashed.params, crashed.task, options(dir, crashed.writeModel))).rejects.toThrow('killed');
    const saved = JSON.parse(await readFile(join(dir, 'checkpoint', 'params.json'), 'utf8')) as [string, number[]][];
    const resumed = regression(2);
    for (const [name, values] of saved) resumed.params.get(name)!.assign(tf.tensor(values, resumed.params.get(name)!.shape));
    const state = await train(resumed.params, resumed.task, { ...options(dir, resumed.writeModel), resume: true });
    expect(state.step).toBe(fullState.step);
    expect(state.lastLoss).toBe(fullState.lastLoss);
    expect(state.epochLosses).toEqual(fullState.epochLosses);
    for (const [name, v] of full.params) expect(Array.from(resumed.params.get(name)!.dataSync())).toEqual(Array.from(v.dataSync()));
  });

  it('stops after maxSteps optimizer steps, mid-epoch, with the schedule ending there and a final checkpoint', async () => {
    await selectBackend('wasm');
    for (const accumulate of [1, 2]) {
      const dir = await tempDir();
      const { params, task, writeModel } = regression(3);
      const epochEnds: number[] = [];
      const state = await train(params, task, { epochs: 50, maxSteps: 13, lr: 0.05, seed: 3, accumulate, checkpointDir: dir, writeModel, onEpochEnd: async (e) => void epochEnds.push(e) });
      // 8 batches make 8 / accumulate steps per epoch; step 13 falls inside the second (accumulate 1) or fourth epoch.
      const perEpoch = 8 / accumulate;
      expect(state).toMatchObject({ step: 13, totalSteps: 13, epoch: Math.floor(13 / perEpoch), batch: (13 % perEpoch) * accumulate });
      expect(epochEnds).toEqual(Array.from({ length: Math.floor(13 / perEpoch) }, (_, i) => i));
      expect(state.epochLosses).toHaveLength(Math.ceil(13 / perEpoch));
      const log = await readLog(dir);
      expect(log).toHaveLength(13);
      expect(log.at(-1).lr).toBeCloseTo(warmupCosine(12, 0.05, 1, 13), 12);
      expect(JSON.parse(await readFile(join(dir, 'checkpoint', 'trainer_state.json'), 'utf8'))).toMatchObject({ step: 13, epoch: state.epoch, batch: state.batch });
    }
  });

  it('checkpoints an epoch only after its end-of-epoch output is written: a run killed between them does the epoch again', async () => {
    await selectBackend('wasm');
    const dir = await tempDir();
    const { params, task, writeModel } = regression(5);
    // The second epoch's output fails as a kill there would: the checkpoint still holds the first epoch's end.
    const failing = train(params, task, { epochs: 3, lr: 0.05, seed: 5, checkpointDir: dir, writeModel, onEpochEnd: async (e) => { if (e === 1) throw new Error('killed'); } });
    await expect(failing).rejects.toThrow('killed');
    expect(JSON.parse(await readFile(join(dir, 'checkpoint', 'trainer_state.json'), 'utf8'))).toMatchObject({ epoch: 1, batch: 0 });
    const ends: number[] = [];
    const resumed = await train(params, task, { epochs: 3, lr: 0.05, seed: 5, checkpointDir: dir, writeModel, resume: true, onEpochEnd: async (e) => void ends.push(e) });
    expect(ends).toEqual([1, 2]);
    expect(resumed).toMatchObject({ epoch: 3, batch: 0 });
    // The second epoch's steps were logged twice, once before the kill: the log keeps each step once.
    const steps = (await readLog(dir)).map((entry: { step: number }) => entry.step);
    expect(steps).toEqual(Array.from({ length: resumed.step }, (_, i) => i + 1));
  });

  it('evaluates at every epoch end and at a maxSteps stop, logs and records each loss, and keeps the best model', async () => {
    await selectBackend('wasm');
    const dir = await tempDir();
    const { params, task, writeModel } = regression(4);
    // Scripted losses: the second evaluation is the best; its parameters are kept in best/.
    const scripted = [3, 1, 2];
    let calls = 0;
    const snapshots: string[] = [];
    const evaluate = () => {
      snapshots.push(JSON.stringify([...params].map(([k, v]) => [k, Array.from(v.dataSync())])));
      return scripted[calls++]!;
    };
    const state = await train(params, task, { epochs: 9, maxSteps: 20, lr: 0.05, seed: 4, checkpointDir: dir, writeModel, evaluate, keepBest: true });
    expect(calls).toBe(3);
    expect(state.evalLosses).toEqual(scripted);
    expect(state.bestEpoch).toBe(1);
    expect(await readFile(join(bestModelDir(dir), 'params.json'), 'utf8')).toBe(snapshots[1]);
    const evals = (await readLog(dir)).filter((l) => 'evalLoss' in l);
    expect(evals).toEqual([
      { evalLoss: 3, epoch: 0, step: 8 },
      { evalLoss: 1, epoch: 1, step: 16 },
      { evalLoss: 2, epoch: 2, step: 20 },
    ]);
    expect(JSON.parse(await readFile(join(dir, 'checkpoint', 'trainer_state.json'), 'utf8'))).toMatchObject({ evalLosses: scripted, bestEpoch: 1 });
    await expect(train(params, task, { epochs: 1, lr: 0.05, seed: 4, writeModel, evaluate, keepBest: true })).rejects.toThrow(/keepBest needs evaluate and checkpointDir/);
  });

  it('resumes exactly with maxSteps, evaluation and the best model kept', async () => {
    await selectBackend('wasm');
    const options = (dir: string, r: ReturnType<typeof regression>): TrainOptions => ({ epochs: 2, maxSteps: 21, lr: 0.05, seed: 5, checkpointDir: dir, saveSteps: 3, writeModel: r.writeModel, evaluate: r.evaluate, keepBest: true });
    const full = regression(5);
    const fullDir = await tempDir();
    const fullState = await train(full.params, full.task, options(fullDir, full));

    const dir = await tempDir();
    const crashed = regression(5, { epoch: 2, index: 2 });
    await expect(train(crashed.params, crashed.task, options(dir, crashed))).rejects.toThrow('killed');
    const saved = JSON.parse(await readFile(join(dir, 'checkpoint', 'params.json'), 'utf8')) as [string, number[]][];
    const resumed = regression(5);
    for (const [name, values] of saved) resumed.params.get(name)!.assign(tf.tensor(values, resumed.params.get(name)!.shape));
    const state = await train(resumed.params, resumed.task, { ...options(dir, resumed), resume: true });
    expect(state).toEqual(fullState);
    expect(state).toMatchObject({ step: 21, epoch: 2, batch: 5 });
    expect(state.evalLosses).toHaveLength(3);
    for (const [name, v] of full.params) expect(Array.from(resumed.params.get(name)!.dataSync())).toEqual(Array.from(v.dataSync()));
    expect(await readFile(join(bestModelDir(dir), 'params.json'), 'utf8')).toBe(await readFile(join(bestModelDir(fullDir), 'params.json'), 'utf8'));
  });

  it('stops at a non-finite loss with the step named, the parameters of the last good step and the checkpoint before it kept', async () => {
    await selectBackend('wasm');
    const dir = await tempDir();
    const { params, task, writeModel } = regression(6);
    // Epoch 2, batch 3 gives NaN: 8 + 2 good steps, then step 11 diverges; the last checkpoint is step 9 (saveSteps 3).
    const poisoned: TrainerTask = {
      batchesPerEpoch: task.batchesPerEpoch,
      batch(epoch, index) {
        const b = task.batch(epoch, index)!;
        return epoch === 1 && index === 2 ? { ...b, loss: () => tf.mul(b.loss!(), NaN) as tf.Scalar } : b;
      },
    };
    let afterStep10 = '';
    const onLog = () => void (afterStep10 = JSON.stringify([...params].map(([k, v]) => [k, Array.from(v.dataSync())])));
    const run = train(params, poisoned, { epochs: 3, lr: 0.05, seed: 6, checkpointDir: dir, saveSteps: 3, writeModel, onLog });
    await expect(run).rejects.toThrow(TrainingDivergedError);
    await expect(run).rejects.toThrow(/^training diverged at step 11 \(epoch 2\): the loss is NaN; the checkpoint of step 9 in .* is kept/);
    expect(new TrainingDivergedError('x').code).toBe(2);
    expect(JSON.stringify([...params].map(([k, v]) => [k, Array.from(v.dataSync())]))).toBe(afterStep10);
    expect(JSON.parse(await readFile(join(dir, 'checkpoint', 'trainer_state.json'), 'utf8'))).toMatchObject({ step: 9 });
    expect((await readLog(dir)).map((l) => l.loss).every(Number.isFinite)).toBe(true);
  });

  describe('resume', () => {
    /** A finished 1-epoch run whose checkpoint records `runConfig`. */
    const finished = async (runConfig?: Record<string, number>) => {
      await selectBackend('wasm');
      const dir = await tempDir();
      const r = regression(7);
      const options: TrainOptions = { epochs: 1, lr: 0.05, seed: 7, checkpointDir: dir, writeModel: r.writeModel, ...(runConfig && { runConfig }) };
      await train(r.params, r.task, options);
      return { dir, again: (change: Partial<TrainOptions> = {}) => train(r.params, r.task, { ...options, resume: true, ...change }) };
    };
    const optimizerFile = (dir: string, name: string) => join(dir, 'checkpoint', name);

    it('refuses to start over quietly when there is no checkpoint', async () => {
      const { writeModel, params, task } = regression(7);
      const dir = await tempDir();
      await expect(train(params, task, { epochs: 1, lr: 0.05, seed: 7, checkpointDir: dir, writeModel, resume: true })).rejects.toThrow(new UsageError(`no checkpoint in ${dir}; run without --resume to start`));
    });

    it('says a checkpoint without its trainer state is damaged, not absent, so that --resume and a start do not send to each other', async () => {
      const { dir, again } = await finished({ '--lr': 0.05 });
      await rm(join(dir, 'checkpoint', 'trainer_state.json'));
      await expect(again({ runConfig: { '--lr': 0.05 } })).rejects.toThrow(new UsageError(`the checkpoint in ${dir} lacks trainer_state.json, so it cannot be resumed; delete ${dir} or run with --force instead of --resume to start over`));
    });

    it('resumes under the same run configuration and refuses another, or none recorded', async () => {
      const { dir, again } = await finished({ '--lr': 0.05, '--batch-size': 8 });
      expect(JSON.parse(await readFile(join(dir, 'checkpoint', 'run_config.json'), 'utf8'))).toEqual({ '--lr': 0.05, '--batch-size': 8 });
      await expect(again({ runConfig: { '--lr': 0.05, '--batch-size': 8 } })).resolves.toMatchObject({ step: 8 });
      await expect(again({ runConfig: { '--lr': 0.1, '--batch-size': 8 } })).rejects.toThrow(/written with other settings \(checkpoint → now\): --lr 0\.05 → 0\.1; resume with its settings, or run with --force instead of --resume to start over$/);
      const old = await finished();
      await expect(old.again({ runConfig: { '--lr': 0.05 } })).rejects.toThrow(/predates configuration checks.*--force/);
    });

    it('refuses missing, truncated or oversized optimizer files and a state outside the run, naming the file', async () => {
      const { dir, again } = await finished();
      await expect(again()).resolves.toMatchObject({ step: 8 });
      const cases: [string, (file: string) => Promise<void>, RegExp][] = [
        // 4 parameter values (3 weights, 1 bias): m and v, float32.
        ['optimizer.bin', (f) => appendFile(f, Buffer.alloc(4)), /optimizer moments take 36 bytes, the model's parameters 32 \(2 × 4 bytes each\)/],
        ['optimizer.bin', (f) => truncate(f, 20), /optimizer moments take 20 bytes/],
        ['optimizer.bin', (f) => rm(f), /optimizer moments are missing/],
        ['optimizer.json', (f) => rm(f), /optimizer state is missing/],
        ['optimizer.json', (f) => truncate(f, 10), /optimizer state is not valid JSON/],
      ];
      const pristine = new Map<string, Buffer>();
      for (const name of ['optimizer.bin', 'optimizer.json', 'trainer_state.json']) pristine.set(name, await readFile(optimizerFile(dir, name)));
      for (const [name, spoil, message] of cases) {
        for (const [n, bytes] of pristine) await writeFile(optimizerFile(dir, n), bytes);
        await spoil(optimizerFile(dir, name));
        const err = await again().then(() => undefined, (e: unknown) => e);
        expect(err, name).toBeInstanceOf(FormatError);
        expect((err as FormatError).message).toMatch(message);
        expect((err as FormatError).message).toMatch(new RegExp(`delete ${dir} or run with --force instead of --resume to start over$`));
        expect((err as FormatError).file).toBe(optimizerFile(dir, name));
      }
      for (const [n, bytes] of pristine) await writeFile(optimizerFile(dir, n), bytes);
      const state = JSON.parse(pristine.get('trainer_state.json')!.toString());
      await writeFile(optimizerFile(dir, 'trainer_state.json'), JSON.stringify({ ...state, epoch: 99, epochLosses: Array(99).fill(1) }));
      await expect(again()).rejects.toThrow(/"epoch" is 99 but the run has 1 epochs/);
    });
  });
});

