import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The fingerprint key a test run uses: fingerprints are keyed with the data holder's secret, and tests
 * keep theirs out of the user's config folder, in a folder of the run's own, where the public-corpus
 * records kept beside the key land too.
 */
export const TEST_KEY_FILE = join(tmpdir(), `ppmlm-test-key-${process.pid}`, 'fingerprint.key');

/** Vitest's global setup: the run's key and what was kept beside it go with the run. */
export default function setup(): () => Promise<void> {
  return () => rm(dirname(TEST_KEY_FILE), { recursive: true, force: true });
}
