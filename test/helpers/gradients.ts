import { GradientBuffer, segmentedGradients, type SegmentForward } from '../../src/engine/index.js';
import type { Params } from '../../src/model/index.js';

/** A loss's value and every parameter's gradient, summed by name, from the trainer's segmented path. */
export function gradientsOf(params: Params, segments: readonly SegmentForward[], recompute: boolean): { loss: number; grads: Map<string, Float32Array> } {
  const buffer = new GradientBuffer();
  const loss = segmentedGradients(segments, params, (name, g) => buffer.add(name, g), recompute);
  return { loss, grads: new Map([...buffer.sums].map(([k, v]) => [k, Float32Array.from(v)])) };
}

/** The largest absolute difference between two models' values, parameter by parameter. */
export function maxDiff(a: ReadonlyMap<string, Float32Array>, b: ReadonlyMap<string, Float32Array>): number {
  let d = 0;
  for (const [name, x] of a) {
    const y = b.get(name)!;
    for (let i = 0; i < x.length; i++) d = Math.max(d, Math.abs(x[i]! - y[i]!));
  }
  return d;
}
