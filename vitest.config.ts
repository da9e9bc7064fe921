import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import SummaryLineReporter from './test/summaryReporter.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Model-training tests share two cores; running files in parallel only makes each slower.
    fileParallelism: false,
    testTimeout: 60_000,
    // Fingerprints are keyed with the data holder's secret: tests keep theirs out of the user's config folder.
    env: { PPMLM_KEY_FILE: join(tmpdir(), `ppmlm-test-fingerprint-${process.pid}.key`) },
    reporters: ['default', new SummaryLineReporter()],
  },
});
