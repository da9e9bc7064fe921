import * as tf from '@tensorflow/tfjs-core';
import { onDevice, readValues } from './heapView.js';

/**
 * One piece of a loss between two stored activations: it maps the previous segment's output (undefined
 * for the first) to its own, and the last one returns the scalar loss. It must be deterministic, since
 * activation checkpointing calls it twice (dropout masks from a generator made inside the call).
 * It may create tensors freely; everything but its output is released when it returns.
 */
export type SegmentForward = (input: tf.Tensor | undefined) => tf.Tensor;

/**
 * Where each segment's parameter gradients go as soon as they are computed (the trainer reads them out
 * of the heap); the callee takes ownership of `g`.
 */
export type GradientSink = (name: string, g: tf.Tensor) => void;

/**
 * The loss and its gradients for a loss split into segments.
 *
 * With `recompute` (activation checkpointing, Chen et al. 2016): the forward pass keeps only each
 * segment's output; the backward pass runs the segments last to first, recomputing one segment's
 * forward with a tape, differentiating it against the gradient flowing back from the segment after it,
 * and handing its parameter gradients to `sink` at once. The heap then holds one segment's activations
 * and gradients instead of every layer's; the stored activations (one [tokens, hidden] array per segment)
 * wait outside the heap. One more forward pass buys the memory a 12-layer model needs.
 *
 * Without it the segments run as one function under one tape (no extra forward; memory grows with depth).
 * Both compute the same gradients with the same operations.
 */
export function segmentedGradients(segments: readonly SegmentForward[], params: ReadonlyMap<string, tf.Variable>, sink: GradientSink, recompute: boolean): number {
  const value = segmentedLoss(segments, params, sink, recompute);
  const loss = value.dataSync()[0]!;
  value.dispose();
  return loss;
}

/**
 * {@link segmentedGradients} with the loss left in the backend as a scalar the caller disposes: a GPU
 * backend reads it back asynchronously (Node has no synchronous read from a WebGPU buffer).
 */
export function segmentedLoss(segments: readonly SegmentForward[], params: ReadonlyMap<string, tf.Variable>, sink: GradientSink, recompute: boolean): tf.Scalar {
  if (segments.length === 0) throw new RangeError('a segmented loss needs at least one segment');
  const named = [...params];
  const vars = named.map(([, v]) => v);
  if (!recompute) {
    const { value, grads } = tf.engine().gradients(() => segments.reduce<tf.Tensor | undefined>((x, f) => f(x), undefined) as tf.Scalar, vars, undefined, true);
    handOver(named, grads, sink);
    return value as tf.Scalar;
  }
  // Each segment's input, and the gradient flowing back between segments, wait in JavaScript memory on
  // wasm: kept in the heap they sit among each segment's temporaries and fragment it (BERT-base at 8 x 128:
  // a 0.99 GB heap against 0.80 GB). With them outside, every segment starts from a heap holding only the
  // parameters. A GPU keeps them where they are (reading them back would cost more than it saves).
  const stored: (Stored | undefined)[] = [undefined];
  for (let i = 0; i < segments.length - 1; i++) {
    const input = fromHost(stored[i]);
    const output: tf.Tensor = tf.tidy(() => segments[i]!(input));
    input?.dispose();
    stored.push(toHost(output));
  }
  let upstream: Stored | undefined;
  let loss: tf.Scalar | undefined;
  for (let i = segments.length - 1; i >= 0; i--) {
    const x = fromHost(stored[i]);
    release(stored[i]);
    stored[i] = undefined;
    const dy = fromHost(upstream);
    release(upstream);
    const { value, grads } = tf.engine().gradients(() => segments[i]!(x), x === undefined ? vars : [x, ...vars], dy, true);
    dy?.dispose();
    x?.dispose();
    const dx = x === undefined ? undefined : grads.shift();
    if (i === segments.length - 1) loss = value as tf.Scalar;
    else value.dispose();
    handOver(named, grads, sink);
    upstream = dx === undefined ? undefined : toHost(dx);
  }
  return loss!;
}

/** A stored activation: its values and shape in JavaScript memory, or on a device the tensor itself. */
type Stored = { values: Float32Array; shape: number[] } | { tensor: tf.Tensor };

/** Moves a tensor out of the backend (on a device: keeps it there) and takes ownership of it. */
function toHost(t: tf.Tensor): Stored {
  if (onDevice()) return { tensor: t };
  const host = { values: Float32Array.from(readValues(t)), shape: t.shape };
  t.dispose();
  return host;
}

/** A tensor of a stored activation that the caller owns (on a device a clone: it shares the buffer). */
function fromHost(stored: Stored | undefined): tf.Tensor | undefined {
  if (stored === undefined) return undefined;
  return 'tensor' in stored ? tf.clone(stored.tensor) : tf.tensor(stored.values, stored.shape, 'float32');
}

function release(stored: Stored | undefined): void {
  if (stored !== undefined && 'tensor' in stored) stored.tensor.dispose();
}

function handOver(named: [string, tf.Variable][], grads: (tf.Tensor | undefined)[], sink: GradientSink): void {
  grads.forEach((g, i) => {
    if (g !== undefined) sink(named[i]![0], g);
  });
}
