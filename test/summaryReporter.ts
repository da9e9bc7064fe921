import type { Reporter } from 'vitest/reporters';
import type { RunnerTask, RunnerTestFile } from 'vitest';

/** Prints the plain closing line "N passed, N failed, N skipped" that CI log readers understand. */
export default class SummaryLineReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = []): void {
    const counts = { pass: 0, fail: 0, skip: 0 };
    const visit = (task: RunnerTask) => {
      if (task.type === 'suite') {
        task.tasks.forEach(visit);
        return;
      }
      const state = task.result?.state;
      if (state === 'pass') counts.pass++;
      else if (state === 'fail') counts.fail++;
      else counts.skip++;
    };
    files.forEach(visit);
    const failedFiles = files.filter((f) => f.result?.state === 'fail' && f.tasks.length === 0).length;
    process.stdout.write(`\nvitest: ${counts.pass} passed, ${counts.fail + failedFiles} failed, ${counts.skip} skipped\n`);
  }
}
