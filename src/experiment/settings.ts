import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentFingerprint, diffRunConfig, type RunConfig } from '../engine/index.js';
import { UsageError } from '../errors.js';
import { parseJson, PRIVATE_FILE_MODE, writeFileAtomic } from '../io/index.js';
import type { ExperimentConfig } from './config.js';

/** Where an experiment's folder records the settings its cells share. */
export const SETTINGS_FILE = 'experiment.json';

/**
 * What every cell of an experiment shares: the config but its axes (strategies, epochs and seeds only add or
 * name cells), flattened to `key.sub` names, and fingerprints of what its inputs held when read (`data`).
 */
export function sharedSettings(config: ExperimentConfig, data: Readonly<Record<string, string>>): RunConfig {
  const { strategies: _strategies, epochs: _epochs, seeds: _seeds, ...shared } = config;
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

/**
 * Records `settings` in `out` on an experiment's first run, and refuses a later run under other ones: its
 * finished cells would be kept as they are and its new ones computed otherwise, one table mixing both.
 */
export async function assertSameExperiment(out: string, settings: RunConfig): Promise<void> {
  const file = join(out, SETTINGS_FILE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) {
    await writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`, { force: true, mode: PRIVATE_FILE_MODE });
    return;
  }
  const saved = parseJson(text, file, `the record of the experiment's settings is damaged; delete ${out} to start over`) as RunConfig;
  const changed = diffRunConfig(saved, settings);
  if (changed.length > 0) {
    throw new UsageError(`${out} holds the cells of an experiment run with other settings (then → now): ${changed.join(', ')}; give another --out, or delete ${out} to run this config from the start (strategies, epochs and seeds may change: they only add cells)`);
  }
}
