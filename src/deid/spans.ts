import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FormatError, UsageError } from '../errors.js';
import { readJsonObjects } from '../corpus/index.js';
import { decodeUtf8Strict, fileSystemError, readJsonFile, readLines } from '../io/index.js';
import type { LabelledText } from './classifier.js';

/** A document with gold PHI/PII spans (English de-identification data has real text, not placeholders). */
export interface SpanDocument extends LabelledText {
  id: string;
}

export type SpanFormat = 'jsonl' | 'presidio' | 'physionet';
export const SPAN_FORMATS: readonly SpanFormat[] = ['jsonl', 'presidio', 'physionet'];

function checkSpans(doc: SpanDocument, file: string, line?: number): SpanDocument {
  for (const s of doc.spans) {
    if (!(Number.isInteger(s.start) && Number.isInteger(s.end)) || s.start < 0 || s.end > doc.text.length || s.start >= s.end) {
      throw new FormatError(`span [${s.start}, ${s.end}) is outside its document's text (length ${doc.text.length}) or empty`, { file, line });
    }
    if (typeof s.label !== 'string' || s.label === '') throw new FormatError('a span has no label', { file, line });
  }
  return doc;
}

/**
 * Reads span-annotated documents: ppmlm's JSONL (`{"id", "text", "spans": [{"start", "end", "label"}]}`
 * a line), Presidio's synthetic JSON (`full_text` + `spans` with `entity_type`), or a PhysioNet deid folder
 * (`id.text` records + `id-phi.phrase` offsets, counted from the first character after each record's
 * header line).
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
        docs.push(checkSpans({ id: String(value.id ?? line), text: value.text, spans: value.spans as SpanDocument['spans'] }, path, line));
      }
    } catch (err) {
      throw fileSystemError(err, path, 'check --spans');
    }
    return docs;
  }
  if (format === 'presidio') {
    const rows = (await readJsonFile(path, { fix: 'Presidio data is a JSON array of {full_text, spans}', hint: 'check --spans' })) as { full_text?: string; spans?: { entity_type: string; start_position: number; end_position: number }[] }[];
    if (!Array.isArray(rows)) throw new FormatError('expected a JSON array of {full_text, spans}', { file: path });
    return rows.map((r, i) => checkSpans({ id: String(i), text: String(r.full_text ?? ''), spans: (r.spans ?? []).map((s) => ({ start: s.start_position, end: s.end_position, label: s.entity_type })) }, path));
  }
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
  return [...notes].map(([id, text]) => checkSpans({ id, text, spans: spans.get(id) ?? [] }, phraseFile));
}
