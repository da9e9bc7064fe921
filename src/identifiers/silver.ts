import type { Document, SpanDocument } from '../corpus/index.js';
import type { Blacklist } from './blacklist/types.js';
import { assertSameReading } from './build.js';
import type { FoundDetections } from './foundDetections.js';
import { CAPITAL_ONLY_SOURCES } from './direct/index.js';

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
export async function* silverLabels(docs: AsyncIterable<Document> | Iterable<Document>, found: FoundDetections, blacklist: Blacklist): AsyncGenerator<SpanDocument> {
  const kept = new Map(blacklist.entries.filter((e) => e.kind === 'direct').map((e) => [e.term, e.sources]));
  // The build removes a capital's sources from a term where the corpus's lower case outweighed them.
  const capitalKept = (sources: readonly string[]) => sources.some((s) => CAPITAL_ONLY_SOURCES.has(s));
  let read = 0;
  for await (const doc of docs) {
    const spans: SpanDocument['spans'] = [];
    for (const d of found.of(read)) {
      const sources = kept.get(d.term);
      if (sources === undefined || (d.byCapital && !capitalKept(sources))) continue;
      if (spans.length === 0 || d.start >= spans.at(-1)!.end) spans.push({ start: d.start, end: d.end, label: d.label });
    }
    read++;
    yield { id: doc.id, author: doc.author, text: doc.text, spans };
  }
  assertSameReading('silver labels', read, found.length);
}
