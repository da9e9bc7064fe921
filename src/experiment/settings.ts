import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { contentFingerprint, diffRunConfig, type RunConfig } from '../engine/index.js';
import { UsageError } from '../errors.js';
import { parseJson, PRIVATE_FILE_MODE, writeFileAtomic } from '../io/index.js';
import type { Params } from '../model/index.js';
import type { ExperimentConfig } from './config.js';

/** Where an experiment's folder records the settings its cells share. */
export const SETTINGS_FILE = 'experiment.json';

/** What an experiment writes in its folder, which it otherwise leaves as it is. */
export const EXPERIMENT_OUTPUTS: readonly string[] = ['cells', 'runs', 'results.csv', 'results.md', 'plots.html', SETTINGS_FILE];

/**
 * What every cell of an experiment shares: the config but its axes (strategies, epochs and seeds only add or
 * name cells), flattened to `key.sub` names, and fingerprints of what its inputs held when read (`data`).
 */
export function sharedSettings(config: ExperimentConfig, data: Readonly<Record<string, string>>): RunConfig {
  // The paths are left out: the fingerprints say what they held, and a moved project still resumes.
  const { strategies: _strategies, epochs: _epochs, seeds: _seeds, model: _model, members: _members, nonMembers: _nonMembers, blacklist: _blacklist, gold: _gold, ...shared } = config;
  if (shared.lira !== undefined) shared.lira = { references: shared.lira.references };
  const flat: Record<string, string | number | boolean | null> = {};
  const walk = (value: unknown, name: string) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) for (const [key, inner] of Object.entries(value)) walk(inner, name ? `${name}.${key}` : key);
    else if (value !== undefined) flat[name] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  };
  walk(shared, '');
  return { ...flat, ...data };
}

/** A fingerprint of documents as read (id, author, text), for {@link sharedSettings}. */
export function documentsFingerprint(docs: readonly { id: string; author: string; text: string }[]): string {
  return contentFingerprint(docs.flatMap((d) => [d.id, d.author, d.text]));
}

/** A fingerprint of a model's weights, names and values, for {@link sharedSettings}. */
export function weightsFingerprint(params: Params): string {
  const hash = createHash('sha256');
  for (const name of [...params.keys()].sort()) {
    // One tensor's values at a time: a large model's weights are never all copied out together.
    const data = params.get(name)!.dataSync() as Float32Array;
    hash.update(name).update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Records `settings` in `out`, and refuses a run under other ones once a cell has finished: its finished
 * cells would be kept as they are and its new ones computed otherwise, one table mixing both. Before any
 * cell finishes (a run stopped by a check that sent the user to the config), the record is replaced.
 */
export async function assertSameExperiment(out: string, settings: RunConfig, epochs: readonly number[]): Promise<void> {
  const file = join(out, SETTINGS_FILE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const saved = text === undefined ? undefined : (parseJson(text, file, `the record of the experiment's settings is damaged; delete ${out} to start over`) as RunConfig);
  // Each strategy and seed trains once, to the largest epoch, and its checkpoint keeps that number: fewer
  // epochs reuse it, more would train again, so the record keeps the largest any run asked for.
  const { [LARGEST_EPOCH]: savedLargest, ...savedShared } = saved ?? {};
  const largest = Math.max(...epochs);
  const changed = saved === undefined ? [] : diffRunConfig(savedShared, settings);
  const grown = typeof savedLargest === 'number' && largest > savedLargest;
  const record = { ...settings, [LARGEST_EPOCH]: Math.max(largest, typeof savedLargest === 'number' ? savedLargest : 0) };
  if (saved !== undefined && changed.length === 0 && record[LARGEST_EPOCH] === savedLargest) return;
  if ((changed.length > 0 || grown) && (await finishedCells(out)) > 0) {
    const what = [...changed, ...(grown ? [`epochs up to ${savedLargest} → up to ${largest}`] : [])];
    throw new UsageError(`${out} holds the cells of an experiment run with other settings (then → now): ${what.join(', ')}; give another --out, or delete ${out} to run this config from the start (strategies and seeds may change, and epochs up to the largest already run: they only add cells)`);
  }
  await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, { force: true, mode: PRIVATE_FILE_MODE });
}

/** The record's key for the largest epoch any run of the experiment trained to. */
const LARGEST_EPOCH = 'epochs (largest trained)';

async function finishedCells(out: string): Promise<number> {
  const cells = await readdir(join(out, 'cells')).catch(() => [] as string[]);
  const finished = await Promise.all(cells.map((cell) => stat(join(out, 'cells', cell, 'report.json')).then(() => true, () => false)));
  return finished.filter(Boolean).length;
}
