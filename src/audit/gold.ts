import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Document } from '../corpus/index.js';
import { readSpanCorpus, type SpanDocument } from '../deid/index.js';
import { FormatError, UsageError } from '../errors.js';

/** A gold identifier occurrence in a member document (character offsets into that document's text). */
export interface GoldSpan {
  doc: number;
  start: number;
  end: number;
  label: string;
}

/**
 * Reads gold identifier spans: ppmlm span JSONL (`{"id", "text", "spans"}` a line, also what
 * `deid generate` writes), or PhysioNet deid (the folder holding `id.text` and `id-phi.phrase`, or the
 * `.phrase` file itself).
 */
export async function readGold(path: string): Promise<SpanDocument[]> {
  const info = await stat(path).catch(() => {
    throw new UsageError(`${path}: no such file or folder; check --gold`);
  });
  if (info.isDirectory()) return readSpanCorpus(path, 'physionet');
  if (path.endsWith('.phrase')) {
    if (basename(path) !== 'id-phi.phrase') throw new UsageError(`${path}: a PhysioNet gold file must be id-phi.phrase beside id.text; pass the folder`);
    return readSpanCorpus(dirname(path), 'physionet');
  }
  return readSpanCorpus(path, 'jsonl');
}

/**
 * Places gold spans on the member documents: a gold document goes with the member of the same id (PhysioNet's
 * `patient/note` also matches `patient-note`); when the member's text is the gold text trimmed, offsets
 * shift by what was cut. Gold documents of non-members are ignored; a member text that differs otherwise
 * is a FormatError naming the document.
 */
export function alignGold(gold: readonly SpanDocument[], members: readonly Document[], file: string): GoldSpan[] {
  const index = new Map(members.map((d, i) => [d.id, i]));
  const out: GoldSpan[] = [];
  let matched = 0;
  for (const g of gold) {
    const doc = index.get(g.id) ?? index.get(g.id.replace(/\//g, '-'));
    if (doc === undefined) continue;
    matched++;
    const text = members[doc]!.text;
    const shift = g.text.indexOf(text);
    if (shift < 0 || (text.length === 0 && g.text.length > 0)) throw new FormatError(`gold document ${g.id}: its text differs from the member document's; give gold spans over the same texts`, { file });
    for (const s of g.spans) {
      const start = s.start - shift;
      const end = s.end - shift;
      if (start >= 0 && end <= text.length) out.push({ doc, start, end, label: s.label });
    }
  }
  if (matched === 0) throw new UsageError(`${file}: no gold document has the id of a member document; check --gold against --members`);
  return out;
}
