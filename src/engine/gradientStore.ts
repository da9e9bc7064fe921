import * as tf from '@tensorflow/tfjs-core';
import { AdamW, type AdamWOptions, type AdamWState } from './adamw.js';
import { DeviceAdamW } from './deviceAdamW.js';
import { GradientBuffer } from './gradientBuffer.js';
import { onDevice } from './heapView.js';

/**
 * Where a training run keeps its gradient sums and optimizer state, and how a step reaches them: host
 * memory on wasm and cpu (see {@link GradientBuffer}), the device on a GPU backend (see {@link onDevice}).
 * The trainer sees only this; both apply the same AdamW step.
 */
export interface GradientStore {
  /** Whether the state lives on the device (a step reads back only its loss and gradient norm). */
  readonly onDevice: boolean;
  /** The optimizer state a checkpoint saves and a resume restores. */
  readonly optimizer: AdamWState;
  /** Sum of the weights of the micro-batches added since the last step; the caller counts each once. */
  weight: number;
  /** Adds `weight · g` to the sum of `name` and disposes `g`. */
  add(name: string, g: tf.Tensor, weight: number): void;
  /** Adds `weight · values` to the sum of `name` (a gradient already in JS memory, e.g. a privatised one). */
  addValues(name: string, values: Float32Array, weight: number): void;
  /** The L2 norm over all gradient sums (unscaled). */
  norm(): Promise<number>;
  /** One AdamW update over the sums, each multiplied by `gradScale`; then the sums start again from zero. */
  step(lr: number, gradScale: number): void;
  /** Brings {@link optimizer} up to date before a checkpoint is written. */
  beforeCheckpoint(): Promise<void>;
  /** Pushes {@link optimizer} back after a checkpoint was read into it. */
  afterResume(): void;
  dispose(): void;
}

/** Gradient sums and AdamW moments in JavaScript memory, outside a wasm32 heap. */
class HostGradientStore implements GradientStore {
  readonly onDevice = false;
  readonly optimizer: AdamW;
  private readonly buffer = new GradientBuffer();

  constructor(params: ReadonlyMap<string, tf.Variable>, options: AdamWOptions) {
    this.optimizer = new AdamW(params, options);
  }

  get weight(): number {
    return this.buffer.weight;
  }

  set weight(w: number) {
    this.buffer.weight = w;
  }

  add(name: string, g: tf.Tensor, weight: number): void {
    this.buffer.add(name, g, weight);
  }

  addValues(name: string, values: Float32Array, weight: number): void {
    this.buffer.addValues(name, values, weight);
  }

  norm(): Promise<number> {
    return Promise.resolve(this.buffer.norm());
  }

  step(lr: number, gradScale: number): void {
    this.optimizer.apply(this.buffer.collected(), lr, gradScale);
    this.buffer.clear();
  }

  beforeCheckpoint(): Promise<void> {
    return Promise.resolve();
  }

  afterResume(): void {}

  dispose(): void {
    this.optimizer.dispose();
  }
}

/** Gradient sums as tensors on the device, and {@link DeviceAdamW}. */
class DeviceGradientStore implements GradientStore {
  readonly onDevice = true;
  readonly optimizer: DeviceAdamW;
  weight = 0;
  private readonly sums = new Map<string, tf.Tensor>();

  constructor(
    private readonly params: ReadonlyMap<string, tf.Variable>,
    options: AdamWOptions,
  ) {
    this.optimizer = new DeviceAdamW(params, options);
  }

  addValues(name: string, values: Float32Array, weight: number): void {
    this.add(name, tf.tensor(values, this.params.get(name)?.shape), weight);
  }

  add(name: string, g: tf.Tensor, weight: number): void {
    addToSum(this.sums, name, g, weight);
  }

  async norm(): Promise<number> {
    if (this.sums.size === 0) return 0;
    const norm = sumsNorm(this.sums);
    const value = (await norm.data())[0]!;
    norm.dispose();
    return value;
  }

  step(lr: number, gradScale: number): void {
    this.optimizer.apply(this.sums, lr, gradScale);
    this.clear();
  }

  beforeCheckpoint(): Promise<void> {
    return this.optimizer.download();
  }

  afterResume(): void {
    this.optimizer.upload();
  }

  private clear(): void {
    clearSums(this.sums);
    this.weight = 0;
  }

  dispose(): void {
    this.clear();
    this.optimizer.dispose();
  }
}

/**
 * Adds `weight · g` to the device-side sum of `name` in `sums` (a gradient sum kept as a tensor) and
 * disposes `g`. The new sum is kept: the caller may be inside a tidy.
 */
export function addToSum(sums: Map<string, tf.Tensor>, name: string, g: tf.Tensor, weight = 1): void {
  const sum = sums.get(name);
  if (sum !== undefined && sum.size !== g.size) throw new RangeError(`gradient of ${name} has ${g.size} values, not ${sum.size}`);
  const next = tf.keep(tf.tidy(() => (sum === undefined ? tf.mul(g, weight) : tf.add(sum, tf.mul(g, weight)))));
  sum?.dispose();
  g.dispose();
  sums.set(name, next);
}

/** The L2 norm over all of `sums` together, as a scalar on the device (at least one sum). */
export function sumsNorm(sums: ReadonlyMap<string, tf.Tensor>): tf.Scalar {
  return tf.tidy(() => tf.sqrt(tf.addN([...sums.values()].map((s) => tf.sum(tf.square(s))))) as tf.Scalar);
}

/** Disposes every sum and empties the map. */
export function clearSums(sums: Map<string, tf.Tensor>): void {
  for (const s of sums.values()) s.dispose();
  sums.clear();
}

/** The store for the current backend. */
export function gradientStore(params: ReadonlyMap<string, tf.Variable>, options: AdamWOptions): GradientStore {
  return onDevice() ? new DeviceGradientStore(params, options) : new HostGradientStore(params, options);
}
