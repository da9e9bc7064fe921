import { UsageError } from '../errors.js';
// Deep, as main.ts imports what it needs at start: the mlm entry would load tfjs for every command.
import { inRange, rangeText, type SettingRange } from '../mlm/settingRanges.js';

/** Parses an integer flag, naming the flag in the error. */
export function parseIntFlag(value: string | undefined, flag: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be an integer between ${min} and ${max}, got "${value}"`);
  }
  return n;
}

/** Parses a number flag within [min, max], or (min, max) with `exclusive` (a share that may be neither 0 nor 1). */
export function parseNumberFlag(value: string | undefined, flag: string, { min = -Infinity, max = Infinity, exclusive = false } = {}): number {
  const n = Number(value);
  const outside = exclusive ? n <= min || n >= max : n < min || n > max;
  if (value === undefined || value.trim() === '' || !Number.isFinite(n) || outside) {
    throw new UsageError(`${flag} must be a number between ${min} and ${max}${exclusive ? ' (exclusive)' : ''}, got "${value}"`);
  }
  return n;
}

/** Parses a flag whose values are a setting's range (see FINETUNE_RANGES), naming the flag in the error. */
export function parseRangedFlag(value: string | undefined, flag: string, range: SettingRange): number {
  const n = value === undefined || value.trim() === '' ? NaN : Number(value);
  if (!inRange(n, range)) throw new UsageError(`${flag} must be ${rangeText(range)}, got "${value}"`);
  return n;
}

/** The shape flags of a fresh encoder (`model init`, `deid train`), parsed and checked together before any work. */
export function parseEncoderShape(flags: { hidden: string; layers: string; heads: string; intermediate: string }): { hidden: number; layers: number; heads: number; intermediate: number } {
  const shape = {
    hidden: parseIntFlag(flags.hidden, '--hidden', { min: 8 }),
    layers: parseIntFlag(flags.layers, '--layers', { min: 1 }),
    heads: parseIntFlag(flags.heads, '--heads', { min: 1 }),
    intermediate: parseIntFlag(flags.intermediate, '--intermediate', { min: 8 }),
  };
  if (shape.hidden % shape.heads !== 0) throw new UsageError(`--hidden ${shape.hidden} must be a multiple of --heads ${shape.heads}`);
  return shape;
}
