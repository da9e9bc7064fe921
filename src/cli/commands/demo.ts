import { DEMO_BUDGETS, runDemo } from '../../demo/index.js';
import type { BackendRequest } from '../../engine/index.js';
import type { Reporter } from '../reporter.js';

export interface DemoCommandOptions {
  out: string;
  budget: 'full' | 'small';
  force?: boolean;
  backend: BackendRequest;
}

/** `ppmlm demo` (= `npm start`): the whole pipeline on the bundled synthetic clinical corpus. */
export async function demoCommand(options: DemoCommandOptions, out: Reporter): Promise<void> {
  const t0 = Date.now();
  const result = await runDemo({ out: options.out, force: options.force, budget: DEMO_BUDGETS[options.budget], backend: options.backend, log: (m) => out.info(m), progress: (m) => out.progress(m) });
  out.progressDone();
  out.result(
    [
      '',
      result.summary,
      '',
      ...Object.entries(result.reports).map(([name, r]) => `report (${name}): ${r.html}`),
      `finished in ${Math.round((Date.now() - t0) / 1000)} s`,
    ].join('\n'),
  );
}
