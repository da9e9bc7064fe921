import type { Document, SpanDocument } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import type { Blacklist } from './blacklist/types.js';
import { CAPITAL_ONLY_SOURCES } from './direct/index.js';

/** A direct detection as the build tallied it in one document: its span widened to words, and its term. */
export interface FoundDetection {
  start: number;
  end: number;
  label: string;
  term: string;
  /** Only rules resting on a capital found it ({@link CAPITAL_ONLY_SOURCES}). */
  byCapital: boolean;
}

/** A detection's first term, as `buildBlacklist({ keepDetections })` keeps it for {@link silverLabels}. */
export function foundDetection(term: { term: string; start: number; end: number }, sources: readonly string[], label: string): FoundDetection {
  return { start: term.start, end: term.end, label, term: term.term, byCapital: sources.every((s) => CAPITAL_ONLY_SOURCES.has(s)) };
}

/** Stops a second reading of a corpus that gave other documents than the first (a stream read once, a file changed). */
export function assertSameReading(what: string, read: number, documents: number): void {
  if (read !== documents) throw new UsageError(`${what}: the second reading of the corpus gave ${read} documents, the first ${documents}; reread must give the corpus from its start`);
}

/**
 * Silver labels a token classifier can be trained on (`blacklist build --silver-out`, then `deid train
 * --spans`): each document's direct detections (`found`, kept by the build in corpus order), where the
 * built blacklist kept the term as a direct identifier on the evidence that found it there. A detection
 * the corpus overruled is no label: a word only its capital made a name where the corpus writes it in
 * lower case (Albuterol; Brown in "Brown stool" though "Dr Brown" keeps the term), a term only a model
 * found at too few of its places. Learnt as found, those became the model's steady false alarms on the
 * notes. `docs` is the corpus the blacklist was built from, read again for its text only (no recogniser
 * runs twice); a detection overlapping an earlier label is left out.
 */
export async function* silverLabels(docs: AsyncIterable<Document> | Iterable<Document>, found: readonly (readonly FoundDetection[])[], blacklist: Blacklist): AsyncGenerator<SpanDocument> {
  const kept = new Map(blacklist.entries.filter((e) => e.kind === 'direct').map((e) => [e.term, e.sources]));
  // The build removes a capital's sources from a term where the corpus wrote it in lower case.
  const capitalKept = (sources: readonly string[]) => sources.some((s) => CAPITAL_ONLY_SOURCES.has(s));
  let read = 0;
  for await (const doc of docs) {
    const spans: SpanDocument['spans'] = [];
    for (const d of found[read] ?? []) {
      const sources = kept.get(d.term);
      if (sources === undefined || (d.byCapital && !capitalKept(sources))) continue;
      if (spans.length === 0 || d.start >= spans.at(-1)!.end) spans.push({ start: d.start, end: d.end, label: d.label });
    }
    read++;
    yield { id: doc.id, author: doc.author, text: doc.text, spans };
  }
  assertSameReading('silver labels', read, found.length);
}
