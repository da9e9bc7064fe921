import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FormatError, UsageError } from '../errors.js';
import { decodeUtf8Strict, fileSystemError, openAtomicWriteStream, PRIVATE_FILE_MODE, readJsonFile, readLines, writeFileAtomic, type AtomicTarget } from '../io/index.js';
import { readJsonObjects } from './jsonl.js';

/** A gold identifier occurrence: characters [start, end) of its document's text, with its type. */
export interface GoldSpanOffsets {
  start: number;
  end: number;
  label: string;
}

/**
 * A document with gold PHI/PII spans (English de-identification data has real text, not placeholders).
 * `author` is the individual the text is about or by: PhysioNet's patient, JSONL's `author`; formats with
 * none (Presidio sentences, CoNLL sentences) make each document its own individual.
 */
export interface SpanDocument {
  id: string;
  author: string;
  text: string;
  spans: GoldSpanOffsets[];
}

/** Gold labels of the public corpora ppmlm reads, grouped into the types a privacy officer reports. */
const LABEL_TYPES: Record<string, string> = {
  person: 'PERSON', per: 'PERSON', hcpname: 'PERSON', ptname: 'PERSON', relativeproxyname: 'PERSON', ptnameinitial: 'PERSON', name: 'PERSON', patient: 'PERSON', doctor: 'PERSON', '내국인이름': 'PERSON', '외국인이름': 'PERSON',
  location: 'LOCATION', loc: 'LOCATION', gpe: 'LOCATION', 'geo-loc': 'LOCATION', street_address: 'LOCATION', address: 'LOCATION', city: 'LOCATION', hospital: 'LOCATION', lc: 'LOCATION',
  date: 'DATE', dateyear: 'DATE', date_time: 'DATE', dat: 'DATE', dt: 'DATE',
  phone: 'PHONE', phone_number: 'PHONE', age: 'AGE',
};

/** The reporting type of a gold label: PERSON, LOCATION, DATE, PHONE, AGE, or the label itself. */
export function goldType(label: string): string {
  // Thunder-DeID's address labels name their level: 구아래주소, 시아래주소, 호실, 동.
  return LABEL_TYPES[label.toLowerCase()] ?? (/주소$|^호실$|^동$/.test(label) ? 'LOCATION' : label);
}

export type SpanFormat = 'jsonl' | 'presidio' | 'physionet' | 'conll';
export const SPAN_FORMATS: readonly SpanFormat[] = ['jsonl', 'presidio', 'physionet', 'conll'];

function checkSpans(doc: SpanDocument, file: string, line?: number): SpanDocument {
  const sorted = [...doc.spans].sort((a, b) => a.start - b.start);
  for (const [i, s] of sorted.entries()) {
    if (!(Number.isInteger(s.start) && Number.isInteger(s.end)) || s.start < 0 || s.end > doc.text.length || s.start >= s.end) {
      throw new FormatError(`span [${s.start}, ${s.end}) is outside its document's text (length ${doc.text.length}) or empty`, { file, line });
    }
    if (typeof s.label !== 'string' || s.label === '') throw new FormatError('a span has no label', { file, line });
    const next = sorted[i + 1];
    if (next !== undefined && next.start < s.end && next.label !== s.label) {
      throw new FormatError(`spans [${s.start}, ${s.end}) ${s.label} and [${next.start}, ${next.end}) ${next.label} overlap with different labels; give each character one label`, { file, line });
    }
  }
  return doc;
}

/** One document of ppmlm's span JSONL, the format {@link readSpanCorpus} reads as `jsonl`. */
function spanJsonlLine(d: SpanDocument): string {
  return JSON.stringify({ id: d.id, author: d.author, text: d.text, spans: d.spans.map(({ start, end, label }) => ({ start, end, label })) });
}

/** Writes span documents as ppmlm's span JSONL (what {@link readSpanCorpus} reads as `jsonl`), mode 0600: gold spans mark personal data. */
export async function writeSpanJsonl(path: string, docs: readonly SpanDocument[], options: { force?: boolean } = {}): Promise<void> {
  const lines = docs.map(spanJsonlLine);
  await writeFileAtomic(path, lines.length ? `${lines.join('\n')}\n` : '', { force: options.force, mode: PRIVATE_FILE_MODE });
}

/** Span JSONL written a document at a time, for a corpus streamed once: mode 0600, in place only on `commit()`. */
export interface SpanJsonlWriter extends AtomicTarget {
  write(doc: SpanDocument): Promise<void>;
}

export async function openSpanJsonlWriter(path: string, options: { force?: boolean } = {}): Promise<SpanJsonlWriter> {
  const file = await openAtomicWriteStream(path, { force: options.force, mode: PRIVATE_FILE_MODE });
  return {
    async write(doc) {
      await file.write(`${spanJsonlLine(doc)}\n`);
    },
    commit: () => file.commit(),
    abort: () => file.abort(),
  };
}

/**
 * Reads span-annotated documents: ppmlm's JSONL (`{"id", "author", "text", "spans": [{"start", "end", "label"}]}`
 * a line; `deid generate`'s output, whose spans carry `level3` instead of `label`, reads as the same), Presidio's synthetic JSON (`full_text` + `spans` with `entity_type`), a PhysioNet deid folder
 * (`id.text` records + `id-phi.phrase` offsets, counted from the first character after each record's
 * header line; the patient is the author), or CoNLL columns (see {@link readConll}).
 */
export async function readSpanCorpus(path: string, format: SpanFormat): Promise<SpanDocument[]> {
  if (format === 'jsonl') {
    const docs: SpanDocument[] = [];
    const fail = (err: FormatError) => {
      throw err;
    };
    try {
      for await (const { value, line } of readJsonObjects(path, fail)) {
        if (typeof value.text !== 'string' || !Array.isArray(value.spans)) throw new FormatError('each line needs "text" (string) and "spans" (array of {start, end, label})', { file: path, line });
        // `deid generate` writes its spans with the label path (level1..level3) instead of one label: the finest level is the label.
        const spans = (value.spans as (SpanDocument['spans'][number] & { level3?: string })[]).map(({ start, end, label, level3 }) => ({ start, end, label: label ?? level3! }));
        const id = String(value.id ?? line);
        docs.push(checkSpans({ id, author: value.author === undefined ? id : String(value.author), text: value.text, spans }, path, line));
      }
    } catch (err) {
      throw fileSystemError(err, path, 'check --spans');
    }
    return docs;
  }
  if (format === 'presidio') {
    const rows = (await readJsonFile(path, { fix: 'Presidio data is a JSON array of {full_text, spans}', hint: 'check --spans' })) as { full_text?: string; spans?: { entity_type: string; start_position: number; end_position: number }[] }[];
    if (!Array.isArray(rows)) throw new FormatError('expected a JSON array of {full_text, spans}', { file: path });
    return rows.map((r, i) => checkSpans({ id: String(i), author: String(i), text: String(r.full_text ?? ''), spans: (r.spans ?? []).map((s) => ({ start: s.start_position, end: s.end_position, label: s.entity_type })) }, path));
  }
  if (format === 'conll') return readConll(path);
  const textFile = join(path, 'id.text');
  const raw = decodeUtf8Strict(await readFile(textFile).catch(() => {
    throw new UsageError(`${textFile}: no such file; --spans-format physionet needs the folder with id.text and id-phi.phrase`);
  }), textFile);
  const notes = new Map<string, string>();
  for (const m of raw.matchAll(/START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\n([\s\S]*?)\|\|\|\|END_OF_RECORD/g)) notes.set(`${m[1]}/${m[2]}`, m[3]!);
  const spans = new Map<string, SpanDocument['spans']>();
  const phraseFile = join(path, 'id-phi.phrase');
  for await (const { text, line } of readLines(phraseFile)) {
    const [patient, note, start, end, type] = text.split(' ');
    if (type === undefined) continue;
    const key = `${patient}/${note}`;
    if (!notes.has(key)) throw new FormatError(`no record ${key} in id.text`, { file: phraseFile, line });
    spans.set(key, [...(spans.get(key) ?? []), { start: Number(start), end: Number(end), label: type }]);
  }
  return [...notes].map(([id, text]) => checkSpans({ id, author: `patient-${id.split('/')[0]}`, text, spans: spans.get(id) ?? [] }, phraseFile));
}

/**
 * Reads CoNLL / BIO columns: a token a line, its tag in the last column (`B-PER`, `I-person`, `O`; IO
 * tagging too, where consecutive I- tags of one type are one span), a blank line between sentences. Each
 * sentence is a line of tokens joined by single spaces. Where `-DOCSTART-` lines separate articles
 * (CoNLL-2003, wikigold) each article is one document, its sentences one a line, and its own individual
 * (an article is written about and by its own people): the rules read a name in the context its writer
 * gave it, a surname alone after the full name two sentences before, a headline in capitals beside the
 * cased text under it. Without them each sentence is a document and an individual, as in public NER sets
 * where no author is known.
 */
export async function readConll(path: string): Promise<SpanDocument[]> {
  const sentences: (SpanDocument & { line: number })[] = [];
  let text = '';
  let spans: GoldSpanOffsets[] = [];
  let open: GoldSpanOffsets | undefined;
  let firstLine = 0;
  let article: string | undefined;
  const flush = () => {
    if (text !== '') sentences.push({ id: String(firstLine), author: article ?? String(firstLine), text, spans, line: firstLine });
    text = '';
    spans = [];
    open = undefined;
  };
  try {
    for await (const { text: raw, line } of readLines(path)) {
      const row = raw.trim();
      if (row === '') {
        flush();
        continue;
      }
      if (row.startsWith('-DOCSTART-')) {
        flush();
        // Sentences before the first marker are the first article (wikigold opens without one).
        if (article === undefined) for (const d of sentences) d.author = 'article-0';
        article = `article-${line}`;
        continue;
      }
      // Token first, tag last; CoNLL-2003's part-of-speech and chunk columns between are not text.
      const cols = row.split(/\s+/);
      // A blank token before a tab (the Broad Twitter Corpus writes spaces so) has no text to protect: its tag
      // is checked and it is skipped, an open span going on past it only where the tag continues it.
      const blank = raw.includes('\t') && raw.split('\t')[0]!.trim() === '';
      if (blank) cols.unshift('');
      if (cols.length < 2) throw new FormatError(`expected a token and its tag separated by a tab or space, got "${row.slice(0, 40)}"`, { file: path, line });
      const tag = cols.at(-1)!;
      const m = /^([BIES])-(.+)$/.exec(tag);
      if (m === null && tag !== 'O') throw new FormatError(`tag "${tag}" is neither O nor B-/I-/E-/S-TYPE`, { file: path, line });
      if (blank) {
        if (m === null || m[1] !== 'I') open = undefined;
        continue;
      }
      if (text === '') firstLine = line;
      else text += ' ';
      const start = text.length;
      text += cols[0];
      if (m === null) open = undefined;
      else if (open !== undefined && open.label === m[2] && (m[1] === 'I' || m[1] === 'E')) open.end = text.length;
      else spans.push((open = { start, end: text.length, label: m[2]! }));
      if (m !== null && (m[1] === 'E' || m[1] === 'S')) open = undefined;
    }
    flush();
  } catch (err) {
    throw fileSystemError(err, path, 'check the CoNLL file');
  }
  // Each sentence is checked where its line is known; an article joins checked sentences.
  const checked = sentences.map(({ line, ...d }) => checkSpans(d, path, line));
  if (article === undefined) return checked;
  const articles = new Map<string, SpanDocument>();
  for (const part of checked) {
    const doc = articles.get(part.author);
    if (doc === undefined) {
      articles.set(part.author, { ...part, spans: [...part.spans] });
      continue;
    }
    doc.text += '\n';
    const offset = doc.text.length;
    doc.text += part.text;
    for (const g of part.spans) doc.spans.push({ ...g, start: g.start + offset, end: g.end + offset });
  }
  return [...articles.values()];
}
