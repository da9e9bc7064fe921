import { assertOutputsApart } from '../../io/index.js';
import { join } from 'node:path';
import { selectBackend, type BackendRequest } from '../../engine/index.js';
import { EXPERIMENT_OUTPUTS, readExperimentConfig, resultsMarkdown, runExperiment } from '../../experiment/index.js';
import type { Reporter } from '../reporter.js';

export interface ExperimentCommandOptions {
  config: string;
  out: string;
  json?: boolean;
  backend: BackendRequest;
}

/** `ppmlm experiment`: runs (or resumes) a comparison and prints its table. */
export async function experimentCommand(options: ExperimentCommandOptions, out: Reporter): Promise<void> {
  const config = await readExperimentConfig(options.config);
  // Every cell writes under --out, its reports naming members' identifiers: never into what the config reads.
  // The folder is only added to (a config kept in it stays): what it writes there are the outputs.
  const inConfig = (key: string) => `"${key}" of ${options.config}`;
  await assertOutputsApart({ '--config': options.config, [inConfig('model')]: config.model, [inConfig('members')]: config.members, [inConfig('nonMembers')]: config.nonMembers, [inConfig('blacklist')]: config.blacklist, [inConfig('gold')]: config.gold, [inConfig('lira.corpus')]: config.lira?.corpus }, Object.fromEntries(EXPERIMENT_OUTPUTS.map((name) => [`--out (${name})`, join(options.out, name)])));
  const backend = await selectBackend(options.backend);
  out.info(`backend: ${backend.name}; ${config.strategies.length} strategies x ${config.epochs.length} epoch counts x ${config.seeds.length} seeds`);
  const rows = await runExperiment({ config, out: options.out, log: (m) => out.info(m), configFile: options.config });
  const files = { csv: join(options.out, 'results.csv'), markdown: join(options.out, 'results.md'), plots: join(options.out, 'plots.html') };
  out.summary(options.json, { out: options.out, rows, files }, (s) => `${resultsMarkdown(s.rows)}\nresults: ${s.files.csv}, ${s.files.markdown}, plots: ${s.files.plots}`);
}
