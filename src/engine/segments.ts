import * as tf from '@tensorflow/tfjs-core';
import { readValues } from './heapView.js';

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
  if (segments.length === 0) throw new RangeError('a segmented loss needs at least one segment');
  const named = [...params];
  const vars = named.map(([, v]) => v);
  if (!recompute) {
    const { value, grads } = tf.engine().gradients(() => segments.reduce<tf.Tensor | undefined>((x, f) => f(x), undefined) as tf.Scalar, vars, undefined, true);
    return finish(value, named, grads, sink);
  }
  // Each segment's input, and the gradient flowing back between segments, wait in JavaScript memory: kept
  // in the heap they sit among each segment's temporaries and fragment it (BERT-base at 8 x 128: a 0.99 GB
  // heap against 0.80 GB). With them outside, every segment starts from a heap holding only the parameters.
  const stored: (HostTensor | undefined)[] = [undefined];
  for (let i = 0; i < segments.length - 1; i++) {
    const input = fromHost(stored[i]);
    const output: tf.Tensor = tf.tidy(() => segments[i]!(input));
    input?.dispose();
    stored.push(toHost(output));
  }
  let upstream: HostTensor | undefined;
  let loss = NaN;
  for (let i = segments.length - 1; i >= 0; i--) {
    const x = fromHost(stored[i]);
    stored[i] = undefined;
    const dy = fromHost(upstream);
    const { value, grads } = tf.engine().gradients(() => segments[i]!(x), x === undefined ? vars : [x, ...vars], dy, true);
    dy?.dispose();
    x?.dispose();
    const dx = x === undefined ? undefined : grads.shift();
    if (i === segments.length - 1) loss = finish(value, named, grads, sink);
    else {
      value.dispose();
      handOver(named, grads, sink);
    }
    upstream = dx === undefined ? undefined : toHost(dx);
  }
  return loss;
}

/** A tensor's values and shape held in JavaScript memory. */
interface HostTensor {
  values: Float32Array;
  shape: number[];
}

/** Copies a tensor out of the backend and disposes it. */
function toHost(t: tf.Tensor): HostTensor {
  const host = { values: Float32Array.from(readValues(t)), shape: t.shape };
  t.dispose();
  return host;
}

function fromHost(host: HostTensor | undefined): tf.Tensor | undefined {
  return host === undefined ? undefined : tf.tensor(host.values, host.shape, 'float32');
}

function finish(value: tf.Tensor, named: [string, tf.Variable][], grads: (tf.Tensor | undefined)[], sink: GradientSink): number {
  const loss = value.dataSync()[0]!;
  value.dispose();
  handOver(named, grads, sink);
  return loss;
}

function handOver(named: [string, tf.Variable][], grads: (tf.Tensor | undefined)[], sink: GradientSink): void {
  grads.forEach((g, i) => {
    if (g !== undefined) sink(named[i]![0], g);
  });
}
