import { PpmlmError } from '../../src/errors.js';

/** The PpmlmError that `fn` throws; any other outcome (no error, an untyped one) fails the test. */
export function thrown(fn: () => unknown): PpmlmError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PpmlmError) return err;
    throw err;
  }
  throw new Error('expected a PpmlmError, but nothing was thrown');
}
