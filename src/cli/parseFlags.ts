import { UsageError } from '../errors.js';

/** Parses an integer flag, naming the flag in the error. */
export function parseIntFlag(value: string | undefined, flag: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be an integer between ${min} and ${max}, got "${value}"`);
  }
  return n;
}

/** Parses a number flag within [min, max]. */
export function parseNumberFlag(value: string | undefined, flag: string, { min = -Infinity, max = Infinity } = {}): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a number between ${min} and ${max}, got "${value}"`);
  }
  return n;
}
