import { DEMO_BUDGETS, runDemo } from '../../demo/index.js';
import type { BackendRequest } from '../../engine/index.js';
import type { Reporter } from '../reporter.js';
import { auditHeadline } from './audit.js';

export interface DemoCommandOptions {
  out: string;
  budget: 'full' | 'small';
  force?: boolean;
  json?: boolean;
  backend: BackendRequest;
}

/** `ppmlm demo` (= `npm start`): the whole pipeline on the bundled synthetic clinical corpus. */
export async function demoCommand(options: DemoCommandOptions, out: Reporter): Promise<void> {
  const t0 = Date.now();
  const result = await runDemo({ out: options.out, force: options.force, budget: DEMO_BUDGETS[options.budget], backend: options.backend, log: (m) => out.info(m), progress: (m) => out.progress(m) });
  out.progressDone();
  const reports = Object.fromEntries(Object.entries(result.reports).map(([name, r]) => [name, { html: r.html, ...auditHeadline(r.report) }]));
  out.summary(options.json, { out: options.out, summary: result.summary, reports, seconds: Math.round((Date.now() - t0) / 1000) }, (s) =>
    ['', s.summary, '', ...Object.entries(s.reports).map(([name, r]) => `report (${name}): ${r.html}`), `finished in ${s.seconds} s`].join('\n'),
  );
}
