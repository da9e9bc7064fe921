import { goldSource, readSpanCorpus, type Document, type SpanDocument } from '../corpus/index.js';
import { FormatError, UsageError } from '../errors.js';

/** A gold identifier occurrence in a member document (character offsets into that document's text). */
export interface GoldSpan {
  doc: number;
  start: number;
  end: number;
  label: string;
}

/** Reads gold identifier spans in any format `blacklist eval` reads, from the path as {@link goldSource} reads it. */
export async function readGold(path: string): Promise<SpanDocument[]> {
  const source = await goldSource(path);
  return readSpanCorpus(source.path, source.format);
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
  for (const [position, g] of gold.entries()) {
    const doc = index.get(g.id) ?? index.get(g.id.replace(/\//g, '-'));
    if (doc === undefined) continue;
    matched++;
    const text = members[doc]!.text;
    const shift = g.text.indexOf(text);
    // Named by its place in the file, not its id: an id may be a patient's record number.
    if (shift < 0 || (text.length === 0 && g.text.length > 0)) throw new FormatError(`gold document ${position + 1} (in file order): its text differs from the member document of its id; give gold spans over the same texts`, { file });
    for (const s of g.spans) {
      const start = s.start - shift;
      const end = s.end - shift;
      if (start >= 0 && end <= text.length) out.push({ doc, start, end, label: s.label });
    }
  }
  if (matched === 0) throw new UsageError(`${file}: no gold document has the id of a member document; check --gold against --members`);
  return out;
}
