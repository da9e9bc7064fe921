import { defineConfig } from 'vitest/config';
import { TEST_KEY_FILE } from './test/fingerprintKey.js';
import SummaryLineReporter from './test/summaryReporter.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Model-training tests share two cores; running files in parallel only makes each slower.
    fileParallelism: false,
    testTimeout: 60_000,
    env: { PPMLM_KEY_FILE: TEST_KEY_FILE },
    globalSetup: ['./test/fingerprintKey.ts'],
    reporters: ['default', new SummaryLineReporter()],
  },
});
