import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { FormatError } from '../../errors.js';
import { decodeUtf8Strict, fileSystemError } from '../../io/index.js';
import { normalizeTerm } from '../../text/index.js';
import { BLACKLIST_COLUMNS, BLACKLIST_FORMAT_VERSION, type Blacklist, type BlacklistEntry, type BlacklistHeader } from './types.js';

function unescapeField(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}

/** The normal form of a user-supplied term: the same normalisation as texts, whitespace collapsed. */
export function canonicalTerm(term: string): string {
  return normalizeTerm(term).replace(/\s+/g, ' ').trim();
}

/**
 * Parses a blacklist: the ppmlm TSV format (`# key: value` header lines, then the column header row),
 * or a plain list with one term per line (then kind direct, category LIST, source `list:<file>`).
 */
export function parseBlacklist(text: string, file: string): Blacklist {
  const lines = text.split('\n');
  const header: BlacklistHeader = { version: BLACKLIST_FORMAT_VERSION, extra: {} };
  let i = 0;
  for (; i < lines.length && lines[i]!.startsWith('#'); i++) {
    const m = /^#\s*([\w-]+):\s*(.*)$/.exec(lines[i]!);
    if (m === null) continue;
    const [, key, value] = m as unknown as [string, string, string];
    if (key === 'version') {
      if (Number(value) > BLACKLIST_FORMAT_VERSION) throw new FormatError(`blacklist format version ${value} is newer than this ppmlm reads (${BLACKLIST_FORMAT_VERSION}); upgrade ppmlm`, { file, line: i + 1 });
    } else if (key === 'k') header.k = Number(value);
    else if (key === 'ngrams') {
      const [lo, hi] = value.split('-').map(Number);
      header.ngrams = [lo ?? 1, hi ?? lo ?? 1];
    } else if (key === 'corpus') header.corpus = value;
    else if (key === 'created') header.created = value;
    else header.extra[key] = value;
  }
  const entries: BlacklistEntry[] = [];
  const columnRow = lines[i]?.split('\t');
  const isTable = columnRow !== undefined && columnRow[0] === 'term' && columnRow.length > 1;
  if (isTable) {
    const missing = BLACKLIST_COLUMNS.filter((c) => !columnRow.includes(c));
    if (missing.length > 0) throw new FormatError(`blacklist header lacks column(s) ${missing.join(', ')}; expected: ${BLACKLIST_COLUMNS.join(' ')}`, { file, line: i + 1 });
    const col = Object.fromEntries(BLACKLIST_COLUMNS.map((c) => [c, columnRow.indexOf(c)])) as Record<(typeof BLACKLIST_COLUMNS)[number], number>;
    for (let n = i + 1; n < lines.length; n++) {
      const line = lines[n]!.replace(/\r$/, '');
      if (line === '' || line.startsWith('#')) continue;
      const f = line.split('\t');
      if (f.length !== columnRow.length) throw new FormatError(`row has ${f.length} fields but the header has ${columnRow.length}; fields are separated by single tabs`, { file, line: n + 1 });
      const kind = f[col.kind]!;
      if (kind !== 'direct' && kind !== 'indirect') throw new FormatError(`the kind column (field ${col.kind + 1}) must be direct or indirect`, { file, line: n + 1 });
      const authors = Number(f[col.authors]);
      const occurrences = Number(f[col.occurrences]);
      if (!Number.isInteger(authors) || !Number.isInteger(occurrences)) throw new FormatError('authors and occurrences must be integers', { file, line: n + 1 });
      const term = canonicalTerm(unescapeField(f[col.term]!));
      if (term === '') throw new FormatError('empty term', { file, line: n + 1 });
      entries.push({ term, kind, category: f[col.category]!, authors, occurrences, sources: f[col.sources]!.split(',').filter(Boolean) });
    }
  } else {
    const source = `list:${basename(file)}`;
    for (let n = i; n < lines.length; n++) {
      const term = canonicalTerm(lines[n]!.replace(/\r$/, ''));
      if (term === '' || lines[n]!.startsWith('#')) continue;
      entries.push({ term, kind: 'direct', category: 'LIST', authors: 0, occurrences: 0, sources: [source] });
    }
  }
  return { header, entries };
}

/** Reads a blacklist file (either format). An empty list is an error: it would protect nothing. */
export async function readBlacklist(path: string): Promise<Blacklist> {
  const bytes = await readFile(path).catch((err: unknown) => {
    throw fileSystemError(err, path, 'check the --blacklist path (build one with "ppmlm blacklist build")');
  });
  const list = parseBlacklist(decodeUtf8Strict(bytes, path), path);
  if (list.entries.length === 0) throw new FormatError('the blacklist has no terms; it would protect nothing (build one with "ppmlm blacklist build")', { file: path });
  return list;
}
