import { FormatError } from '../errors.js';

/**
 * Checks on the numbers a model holds and produces. A NaN spreads through every later computation
 * (training at loss NaN, metrics whose sorting and grouping never terminate), so it is stopped where it
 * first appears, with what produced it.
 */

/** Index of the first NaN or ±Infinity in `values`, or -1. */
export function firstNonFinite(values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return i;
  return -1;
}

/**
 * Throws a FormatError when a score is NaN: `source` names what produced the scores (e.g. "the loss attack's
 * member scores"), and the error the 1-based position. Infinite scores sort and compare, so they pass.
 *
 * @example
 * assertNoNaN(losses, "the target model's member losses");
 */
export function assertNoNaN(values: ArrayLike<number>, source: string): void {
  for (let i = 0; i < values.length; i++) {
    if (Number.isNaN(values[i]!)) throw new FormatError(`${source}: value ${i + 1} of ${values.length} is NaN; the model computes NaN (check its weights, or retrain it)`);
  }
}
