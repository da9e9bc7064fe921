import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
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

/** What a JSON value is, as an error may say it without showing it: a whole number, a fraction, a string… */
function kindOf(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : Number.isFinite(value) ? 'a fraction' : 'a number too large to hold';
  return value === undefined ? 'nothing' : value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** What is wrong with one span of a document, if anything: its shape, its offsets, its label. */
function spanProblem(s: unknown, textLength: number): string | undefined {
  if (typeof s !== 'object' || s === null) return 'each span is an object {start, end, label}';
  const { start, end, label } = s as Partial<GoldSpanOffsets>;
  // Types, not values: in a file of another shape the offsets' place may hold text.
  if (!Number.isInteger(start) || !Number.isInteger(end)) return `span offsets must be whole numbers of characters, got start ${kindOf(start)} and end ${kindOf(end)}`;
  if (start! < 0 || end! > textLength) return `span [${start}, ${end}) is outside its document's text, which has ${textLength} characters; offsets count characters from 0, the end exclusive`;
  if (start! >= end!) return `span [${start}, ${end}) is empty; its end must come after its start`;
  if (label === undefined || label === '') return `span [${start}, ${end}) has no label`;
  if (typeof label !== 'string') return `span [${start}, ${end}) has ${kindOf(label)} as its label; write the label as a string ("PERSON")`;
  return undefined;
}

/**
 * Checks a document's spans (each against its text, then overlaps) and returns the document. `where` names
 * the document's place in its file for each error: a line, or for a JSON array the element.
 */
function checkSpans(doc: SpanDocument, file: string, where: { line?: number; element?: number } = {}): SpanDocument {
  const at = (message: string) => new FormatError(where.element === undefined ? message : `element ${where.element} (from 0): ${message}`, { file, line: where.line });
  for (const s of doc.spans) {
    const problem = spanProblem(s, doc.text.length);
    if (problem !== undefined) throw at(problem);
  }
  const sorted = [...doc.spans].sort((a, b) => a.start - b.start);
  for (const [i, s] of sorted.entries()) {
    const next = sorted[i + 1];
    if (next !== undefined && next.start < s.end && next.label !== s.label) {
      throw at(`spans [${s.start}, ${s.end}) ${s.label} and [${next.start}, ${next.end}) ${next.label} overlap with different labels; give each character one label`);
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
 * What a gold path is read as, and from where: a folder, or its `id.text` or `id-phi.phrase`, is a PhysioNet
 * deid folder; `.jsonl` ppmlm's span JSONL; `.json` Presidio's; anything else CoNLL columns. `format`, where
 * given, decides instead (a PhysioNet file still reads its folder).
 */
export async function goldSource(path: string, format?: SpanFormat): Promise<{ path: string; format: SpanFormat }> {
  const info = await stat(path).catch((err: unknown) => {
    throw fileSystemError(err, path, 'check the path of the gold spans (a span file, or a PhysioNet deid folder)');
  });
  const physionetFile = !info.isDirectory() && ['id.text', 'id-phi.phrase'].includes(basename(path));
  const chosen = format ?? (info.isDirectory() || physionetFile ? 'physionet' : path.endsWith('.jsonl') ? 'jsonl' : path.endsWith('.json') ? 'presidio' : 'conll');
  return { path: chosen === 'physionet' && physionetFile ? dirname(path) : path, format: chosen };
}

/**
 * Reads span-annotated documents: ppmlm's JSONL (`{"id", "author", "text", "spans": [{"start", "end", "label"}]}`
 * a line; `deid generate`'s output, whose spans carry `level3` instead of `label`, reads as the same), Presidio's synthetic JSON (`full_text` + `spans` with `entity_type`), a PhysioNet deid folder
 * (`id.text` records + `id-phi.phrase` offsets, counted from the first character after each record's
 * header line; the patient is the author), or CoNLL columns (see {@link readConll}).
 */
export async function readSpanCorpus(path: string, format: SpanFormat): Promise<SpanDocument[]> {
  // From code nothing checks the format first: an unknown one was read as a PhysioNet folder.
  if (!SPAN_FORMATS.includes(format)) throw new UsageError(`unknown span format ${JSON.stringify(format)}; use ${SPAN_FORMATS.join(', ')}`);
  if (format === 'jsonl') {
    const docs: SpanDocument[] = [];
    const fail = (err: FormatError) => {
      throw err;
    };
    try {
      for await (const { value, line } of readJsonObjects(path, fail)) {
        if (typeof value.text !== 'string' || !Array.isArray(value.spans)) throw new FormatError('each line needs "text" (string) and "spans" (array of {start, end, label})', { file: path, line });
        // `deid generate` writes its spans with the label path (level1..level3) instead of one label: the
        // finest level is the label. What is no object goes on as it is, for checkSpans to name.
        const spans = (value.spans as unknown[]).map((x) => {
          if (typeof x !== 'object' || x === null) return x as GoldSpanOffsets;
          const { start, end, label, level3 } = x as GoldSpanOffsets & { level3?: string };
          return { start, end, label: label ?? level3! };
        });
        const id = String(value.id ?? line);
        docs.push(checkSpans({ id, author: value.author === undefined ? id : String(value.author), text: value.text, spans }, path, { line }));
      }
    } catch (err) {
      throw fileSystemError(err, path, 'check the path of the span JSONL file');
    }
    return docs;
  }
  if (format === 'presidio') {
    const rows = await readJsonFile(path, { fix: 'Presidio data is a JSON array of {full_text, spans}', hint: 'check the path of the Presidio JSON file' });
    if (!Array.isArray(rows)) throw new FormatError('expected a JSON array of {full_text, spans}', { file: path });
    return rows.map((r: unknown, element) => {
      const row = r as { full_text?: unknown; spans?: unknown } | null;
      if (typeof row !== 'object' || row === null || typeof row.full_text !== 'string' || !(row.spans === undefined || Array.isArray(row.spans))) {
        throw new FormatError(`element ${element} (from 0): each element is an object with "full_text" (string) and "spans" (array of {entity_type, start_position, end_position})`, { file: path });
      }
      const spans = ((row.spans ?? []) as unknown[]).map((x) => {
        if (typeof x !== 'object' || x === null) throw new FormatError(`element ${element} (from 0): each span is an object {entity_type, start_position, end_position}`, { file: path });
        const span = x as { entity_type?: string; start_position?: number; end_position?: number };
        return { start: span.start_position!, end: span.end_position!, label: span.entity_type! };
      });
      return checkSpans({ id: String(element), author: String(element), text: row.full_text, spans }, path, { element });
    });
  }
  if (format === 'conll') return readConll(path);
  return readPhysionet(path);
}

/** What a PhysioNet deid folder holds, as the errors name it. */
const PHYSIONET_FOLDER = 'a PhysioNet deid folder holds id.text and id-phi.phrase: give that folder';

/**
 * Reads a PhysioNet deid folder: `id.text`'s records (`START_OF_RECORD=patient||||note||||` … 
 * `||||END_OF_RECORD`, offsets counted from the first character after the header line) and
 * `id-phi.phrase`, a span a line: patient, note, start, end, type, then the phrase, separated by spaces
 * or tabs. Each span is checked against its note where its line is known.
 */
async function readPhysionet(path: string): Promise<SpanDocument[]> {
  const info = await stat(path).catch((err: unknown) => {
    throw fileSystemError(err, path, PHYSIONET_FOLDER);
  });
  if (!info.isDirectory()) throw new FormatError(`not a folder; ${PHYSIONET_FOLDER}`, { file: path });
  const textFile = join(path, 'id.text');
  const bytes = await readFile(textFile).catch((err: unknown) => {
    throw fileSystemError(err, textFile, PHYSIONET_FOLDER);
  });
  const raw = decodeUtf8Strict(bytes, textFile);
  // The offsets count one character a line end: a copy converted to CRLF would shift every span after it.
  if (raw.includes('\r\n')) throw new FormatError('has Windows line ends (CRLF), which shift every offset of id-phi.phrase; convert it back (dos2unix id.text)', { file: textFile });
  const notes = new Map<string, string>();
  for (const m of raw.matchAll(/START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\n([\s\S]*?)\|\|\|\|END_OF_RECORD/g)) notes.set(`${m[1]}/${m[2]}`, m[3]!);
  const spans = new Map<string, SpanDocument['spans']>();
  const phraseFile = join(path, 'id-phi.phrase');
  try {
    for await (const { text, line } of readLines(phraseFile)) {
      if (text.trim() === '') continue;
      const [patient, note, start, end, type] = text.trim().split(/\s+/);
      if (type === undefined) throw new FormatError('expected patient, note, start, end and type, then the phrase, separated by spaces', { file: phraseFile, line });
      const key = `${patient}/${note}`;
      const noteText = notes.get(key);
      // Not named: a patient's number is an id.
      if (noteText === undefined) throw new FormatError('id.text holds no record of this line\'s patient and note (its first two fields)', { file: phraseFile, line });
      if (!/^\d+$/.test(start!) || !/^\d+$/.test(end!)) throw new FormatError('the third and fourth fields, start and end, must be whole numbers of characters', { file: phraseFile, line });
      const span = { start: Number(start), end: Number(end), label: type };
      const problem = spanProblem(span, noteText.length);
      if (problem !== undefined) throw new FormatError(problem, { file: phraseFile, line });
      spans.set(key, [...(spans.get(key) ?? []), span]);
    }
  } catch (err) {
    throw fileSystemError(err, phraseFile, PHYSIONET_FOLDER);
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
      if (cols.length < 2) throw new FormatError(`expected a token and its tag separated by a tab or space; the line has one column (${row.length} characters, not shown: it may be text)`, { file: path, line });
      const tag = cols.at(-1)!;
      const m = /^([BIES])-(.+)$/.exec(tag);
      // Not shown: in a file that is not CoNLL the last column is a document's text (OKONKWO reads as a tag).
      if (m === null && tag !== 'O') throw new FormatError(`the tag (the last column, ${tag.length} characters, not shown: it may be text) is neither O nor B-/I-/E-/S-TYPE`, { file: path, line });
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
  const checked = sentences.map(({ line, ...d }) => checkSpans(d, path, { line }));
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
