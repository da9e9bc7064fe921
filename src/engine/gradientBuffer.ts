import type * as tf from '@tensorflow/tfjs-core';
import { readValues } from './heapView.js';

/**
 * Gradient sums kept in JavaScript memory, outside the backend's heap (wasm32 caps that heap at 4 GiB:
 * a 110M-parameter model's weights, gradients and AdamW moments alone would fill most of it). Each
 * gradient tensor is read out and disposed as soon as it is computed, so the heap holds at most one
 * segment's gradients at a time, and micro-batches accumulate here.
 */
export class GradientBuffer {
  /** The sums; they are kept (zeroed) across steps so that no step allocates them again. */
  readonly sums = new Map<string, Float32Array>();
  /** Names whose sum holds a value since the last {@link clear}. */
  private readonly filled = new Set<string>();
  /**
   * Σ sum² of each sum added to once since the last {@link clear}, taken in the pass that wrote it: with
   * one batch per step (and for each DP-SGD unit) {@link norm} then needs no pass of its own over the model.
   */
  private readonly squares = new Map<string, number>();
  /** Sum of the weights of the micro-batches added so far (e.g. their targets), by which {@link mean} divides; the caller counts each once. */
  weight = 0;

  /** Adds `weight · g` to the sum of `name` and disposes `g`. */
  add(name: string, g: tf.Tensor, weight = 1): void {
    this.addValues(name, readValues(g), weight);
    g.dispose();
  }

  /** Adds `weight · values` to the sum of `name` (values already in JS memory, e.g. a privatised gradient). */
  addValues(name: string, values: Float32Array, weight = 1): void {
    let sum = this.sums.get(name);
    if (sum === undefined) this.sums.set(name, (sum = new Float32Array(values.length)));
    if (sum.length !== values.length) throw new RangeError(`gradient of ${name} has ${values.length} values, not ${sum.length}`);
    if (this.filled.has(name)) {
      for (let i = 0; i < sum.length; i++) sum[i]! += weight * values[i]!;
      this.squares.delete(name);
    } else {
      let squares = 0;
      for (let i = 0; i < sum.length; i++) {
        sum[i] = weight * values[i]!;
        // The stored float32, not the double product: the same squares a pass over the sum would take.
        const x = sum[i]!;
        squares += x * x;
      }
      this.squares.set(name, squares);
      this.filled.add(name);
    }
  }

  /** The L2 norm over every sum added since the last {@link clear}. */
  norm(): number {
    let squares = 0;
    for (const name of this.filled) squares += this.squares.get(name) ?? sumOfSquares(this.sums.get(name)!);
    return Math.sqrt(squares);
  }

  /**
   * The sums of every gradient added since the last {@link clear} (parameters that received none left out),
   * unscaled: the trainer folds the division by {@link weight} and the clipping into the optimizer's one
   * pass over them.
   */
  collected(): Map<string, Float32Array> {
    return new Map([...this.filled].map((name) => [name, this.sums.get(name)!]));
  }

  clear(): void {
    this.filled.clear();
    this.squares.clear();
    this.weight = 0;
  }
}

function sumOfSquares(values: Float32Array): number {
  let squares = 0;
  for (let i = 0; i < values.length; i++) squares += values[i]! * values[i]!;
  return squares;
}

/** The factor that brings a gradient of L2 norm `norm` down to at most `maxNorm` (1 when `maxNorm` is 0 or not exceeded). */
export function clipFactor(norm: number, maxNorm: number): number {
  return maxNorm > 0 && norm > maxNorm ? maxNorm / (norm + 1e-6) : 1;
}
