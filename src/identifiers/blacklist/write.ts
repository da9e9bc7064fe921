import { PRIVATE_FILE_MODE, writeFileAtomic } from '../../io/index.js';
import { BLACKLIST_COLUMNS, type Blacklist } from './types.js';

/** Backslash escapes keep one entry per line whatever the term holds. */
export function escapeField(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** The TSV text of a blacklist (see blacklists/README.md); entries sorted by kind, category, term. */
export function formatBlacklist(list: Blacklist): string {
  const h = list.header;
  const lines = [`# ppmlm blacklist`, `# version: ${h.version}`];
  if (h.k !== undefined) lines.push(`# k: ${h.k}`);
  if (h.ngrams !== undefined) lines.push(`# ngrams: ${h.ngrams[0]}-${h.ngrams[1]}`);
  if (h.corpus !== undefined) lines.push(`# corpus: ${h.corpus}`);
  if (h.created !== undefined) lines.push(`# created: ${h.created}`);
  for (const [key, value] of Object.entries(h.extra)) lines.push(`# ${key}: ${value}`);
  lines.push(BLACKLIST_COLUMNS.join('\t'));
  const sorted = [...list.entries].sort((a, b) => (a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.category !== b.category ? (a.category < b.category ? -1 : 1) : a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  for (const e of sorted) lines.push([escapeField(e.term), e.kind, e.category, e.authors, e.occurrences, e.sources.join(',')].join('\t'));
  return `${lines.join('\n')}\n`;
}

/** Writes a blacklist atomically with mode 0600 (it holds personal data); refuses to overwrite unless `force`. */
export async function writeBlacklist(path: string, list: Blacklist, options: { force?: boolean } = {}): Promise<void> {
  await writeFileAtomic(path, formatBlacklist(list), { force: options.force, mode: PRIVATE_FILE_MODE });
}
