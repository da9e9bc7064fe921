import { createHash } from 'node:crypto';

/**
 * What a training run was configured with, as far as it changes what the model learns or how it is
 * labelled: setting name (the CLI flag, e.g. `--lr`) → a JSON value (`null` for "not given"). Each
 * training command builds its own; the trainer stores it in the checkpoint and compares it on resume,
 * without knowing what the settings mean.
 */
export type RunConfig = Readonly<Record<string, string | number | boolean | null>>;

const shown = (value: RunConfig[string] | undefined) => (value === undefined || value === null ? 'unset' : JSON.stringify(value));

/**
 * The settings whose values differ between a checkpoint's run configuration and the current one, each as
 * `name checkpoint-value → current-value`; empty when they agree. A setting present on one side only
 * (a checkpoint of an older version, a new flag) counts as a difference against `unset`.
 *
 * @example
 * diffRunConfig({ '--lr': 0.001, '--seed': 42 }, { '--lr': 0.0005, '--seed': 42 }); // ['--lr 0.001 → 0.0005']
 */
export function diffRunConfig(saved: RunConfig, current: RunConfig): string[] {
  const names = [...new Set([...Object.keys(current), ...Object.keys(saved)])];
  return names.filter((n) => shown(saved[n]) !== shown(current[n])).map((n) => `${n} ${shown(saved[n])} → ${shown(current[n])}`);
}

/**
 * A short fingerprint of training data for a run configuration, in order (the order of documents changes
 * the batches): the same data gives the same 16 hex digits, and the data itself is not recorded.
 *
 * @example
 * contentFingerprint(docs.flatMap((d) => [d.id, d.author, d.text])); // e.g. '3f9a0c2d41b7e865'
 */
export function contentFingerprint(parts: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(`${p.length}:${p}`);
  return hash.digest('hex').slice(0, 16);
}
