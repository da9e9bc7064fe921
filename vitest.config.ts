import { defineConfig } from 'vitest/config';
import SummaryLineReporter from './test/summaryReporter.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Model-training tests share two cores; running files in parallel only makes each slower.
    fileParallelism: false,
    testTimeout: 60_000,
    reporters: ['default', new SummaryLineReporter()],
  },
});
