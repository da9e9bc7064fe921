import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { FormatError } from '../../errors.js';
import { decodeUtf8Strict, fileSystemError } from '../../io/index.js';
import { normalizeTerm, withoutPossessive } from '../../text/index.js';
import { BLACKLIST_COLUMNS, BLACKLIST_FORMAT_VERSION, type Blacklist, type BlacklistEntry, type BlacklistHeader } from './types.js';

function unescapeField(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}

/** The normal form of a user-supplied term: the same normalisation as texts, whitespace collapsed. */
export function canonicalTerm(term: string): string {
  // No word of a term ends in a possessive: the matcher reads "London's" as London (see contentWords).
  return normalizeTerm(term).replace(/\s+/g, ' ').trim().split(' ').map(withoutPossessive).join(' ');
}

type Column = (typeof BLACKLIST_COLUMNS)[number];
const EXPECTED_HEADER = BLACKLIST_COLUMNS.join('<TAB>');

/** A count: a non-negative integer of at most 15 digits (anything else is a damaged or hand-edited file). */
function count(value: string | undefined, name: string, file: string, line: number): number {
  if (!/^\d{1,15}$/.test(value ?? '')) throw new FormatError(`${name} must be a non-negative integer (a cell of the wrong column may hold a term, so it is not shown)`, { file, line });
  return Number(value);
}

/**
 * Parses a blacklist: the ppmlm TSV format (`# key: value` header lines, then the column header row,
 * recognised whatever its case and surrounding spaces), or a plain list with one term per line (then kind
 * direct, category LIST, source `list:<file>`). CRLF line ends are accepted. A first line that names the
 * columns without tabs, or a tab in a plain list (a term never holds one), is a FormatError: read as a
 * plain list, whole rows would become terms that match nothing. Repeated entries are read once.
 */
export function parseBlacklist(text: string, file: string): Blacklist {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const header: BlacklistHeader = { version: BLACKLIST_FORMAT_VERSION, extra: {} };
  let i = 0;
  for (; i < lines.length && (lines[i]!.startsWith('#') || lines[i]!.trim() === ''); i++) {
    const m = /^#\s*([\w-]+):\s*(.*)$/.exec(lines[i]!);
    if (m === null) continue;
    const [, key, value] = m as unknown as [string, string, string];
    const line = i + 1;
    if (key === 'version') {
      if (Number(value) > BLACKLIST_FORMAT_VERSION) throw new FormatError(`blacklist format version ${value} is newer than this ppmlm reads (${BLACKLIST_FORMAT_VERSION}); upgrade ppmlm`, { file, line });
    } else if (key === 'k') {
      header.k = count(value, 'k', file, line);
      if (header.k === 0) throw new FormatError('k must be at least 1', { file, line });
    } else if (key === 'ngrams') {
      const [lo, hi] = value.split('-').map((v) => count(v, 'ngrams', file, line));
      header.ngrams = [lo ?? 1, hi ?? lo ?? 1];
    } else if (key === 'corpus') header.corpus = value;
    else if (key === 'created') header.created = value;
    else header.extra[key] = value;
  }
  const first = lines[i] ?? '';
  const cells = first.split('\t').map((c) => c.trim().toLowerCase());
  const isTable = cells[0] === 'term' && cells.length > 1;
  const words = first.trim().toLowerCase().split(/[\s,;|]+/);
  if (!isTable && words[0] === 'term' && words.slice(1).some((w) => (BLACKLIST_COLUMNS as readonly string[]).includes(w))) {
    throw new FormatError(`this looks like the column header but is not tab-separated; expected: ${EXPECTED_HEADER}`, { file, line: i + 1 });
  }
  const entries = isTable ? parseTable(lines, i, cells, header, file) : parsePlainList(lines, i, file);
  return { header, entries: dedupe(entries) };
}

function parseTable(lines: string[], headerAt: number, cells: string[], header: BlacklistHeader, file: string): BlacklistEntry[] {
  const missing = BLACKLIST_COLUMNS.filter((c) => !cells.includes(c));
  if (missing.length > 0) throw new FormatError(`blacklist header lacks column(s) ${missing.join(', ')}; expected: ${EXPECTED_HEADER}`, { file, line: headerAt + 1 });
  const col = Object.fromEntries(BLACKLIST_COLUMNS.map((c) => [c, cells.indexOf(c)])) as Record<Column, number>;
  const entries: BlacklistEntry[] = [];
  for (let n = headerAt + 1; n < lines.length; n++) {
    const line = n + 1;
    if (lines[n] === '' || lines[n]!.startsWith('#')) continue;
    const f = lines[n]!.split('\t');
    if (f.length !== cells.length) throw new FormatError(`row has ${f.length} fields but the header has ${cells.length}; fields are separated by single tabs`, { file, line });
    const kind = f[col.kind]!;
    if (kind !== 'direct' && kind !== 'indirect') throw new FormatError(`the kind column (field ${col.kind + 1}) must be direct or indirect`, { file, line });
    const authors = count(f[col.authors], 'authors', file, line);
    const occurrences = count(f[col.occurrences], 'occurrences', file, line);
    if (authors > occurrences) throw new FormatError(`authors ${authors} exceeds occurrences ${occurrences}; each author uses a term at least once`, { file, line });
    // An indirect identifier is a term fewer than k individuals used: a larger count means the file was altered.
    if (kind === 'indirect' && header.k !== undefined && authors >= header.k) throw new FormatError(`indirect term with ${authors} authors, not fewer than k = ${header.k}`, { file, line });
    const term = canonicalTerm(unescapeField(f[col.term]!));
    if (term === '') throw new FormatError('empty term', { file, line });
    entries.push({ term, kind, category: f[col.category]!, authors, occurrences, sources: f[col.sources]!.split(',').filter(Boolean) });
  }
  return entries;
}

function parsePlainList(lines: string[], from: number, file: string): BlacklistEntry[] {
  const source = `list:${basename(file)}`;
  const entries: BlacklistEntry[] = [];
  for (let n = from; n < lines.length; n++) {
    if (lines[n]!.startsWith('#')) continue;
    if (lines[n]!.includes('\t')) {
      throw new FormatError(`a tab in a plain list (one term per line; a term never holds a tab); a ppmlm blacklist starts with the header ${EXPECTED_HEADER}`, { file, line: n + 1 });
    }
    if (jsonObjectLine(lines[n]!)) throw new FormatError(`a JSON object where a term should be: a blacklist is a ppmlm blacklist TSV or one term a line, not a corpus or gold file`, { file, line: n + 1 });
    if (entries.length === 0 && corpusHeaderLine(lines[n]!)) throw new FormatError(`a CSV corpus's header where a term should be: a blacklist is a ppmlm blacklist TSV or one term a line, not a corpus`, { file, line: n + 1 });
    const term = canonicalTerm(lines[n]!);
    if (term !== '') entries.push({ term, kind: 'direct', category: 'LIST', authors: 0, occurrences: 0, sources: [source] });
  }
  return entries;
}

/** Whether a first line is a CSV corpus's header (id,author,text): a corpus given as a list, whose rows would become terms. */
function corpusHeaderLine(line: string): boolean {
  const cells = line.split(',').map((cell) => cell.trim().replace(/^"(.*)"$/, '$1').toLowerCase());
  return cells.length >= 2 && cells.includes('text') && cells.every((cell) => /^[\p{L}_][\p{L}\p{N}_ -]*$/u.test(cell));
}

/** Whether a line is a JSON object ({"id": …}): a line of a JSONL file given as a list, which no term is. */
function jsonObjectLine(line: string): boolean {
  if (!line.trimStart().startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** One entry per (term, kind, category), sources merged: a concatenated or re-appended list must not match each term many times. */
function dedupe(entries: BlacklistEntry[]): BlacklistEntry[] {
  const byKey = new Map<string, BlacklistEntry>();
  for (const e of entries) {
    const key = `${e.kind}\t${e.category}\t${e.term}`;
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, e);
    else if (e.sources.some((s) => !seen.sources.includes(s))) byKey.set(key, { ...seen, sources: [...new Set([...seen.sources, ...e.sources])] });
  }
  return [...byKey.values()];
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
