import type { Document, SpanDocument } from '../corpus/index.js';
import { contentWords, type MorphAnalyzer } from '../text/index.js';
import type { Blacklist } from './blacklist/types.js';
import { assertSameReading, detectionTerms } from './build.js';
import { CAPITAL_ONLY_SOURCES, detectDirect, type Recognizer } from './direct/index.js';

/**
 * Silver labels a token classifier can be trained on (`blacklist build --silver-out`, then `deid train
 * --spans`): each document's direct detections, widened to whole words, where the built blacklist kept
 * the term as a direct identifier on the evidence that found it there. A detection the corpus overruled
 * is no label: a word only its capital made a name where the corpus writes it in lower case (Albuterol;
 * Brown in "Brown stool" though "Dr Brown" keeps the term), a term only a model found at too few of its
 * places. Learnt as found, those became the model's steady false alarms on the notes. `docs` is the
 * corpus the blacklist was built from, read again (its count checked against the build's);
 * `recognizers` and `analyzer` must be the build's; a detection overlapping an earlier label is left out.
 */
export async function* silverLabels(docs: AsyncIterable<Document> | Iterable<Document>, blacklist: Blacklist, options: { recognizers: readonly Recognizer[]; analyzer?: MorphAnalyzer; documents?: number }): AsyncGenerator<SpanDocument> {
  const kept = new Map(blacklist.entries.filter((e) => e.kind === 'direct').map((e) => [e.term, e.sources]));
  // The build removes a capital's sources from a term where the corpus wrote it in lower case.
  const capitalKept = (sources: readonly string[]) => sources.some((s) => CAPITAL_ONLY_SOURCES.has(s));
  let read = 0;
  for await (const doc of docs) {
    read++;
    const words = await contentWords(doc.text, options.analyzer);
    const spans: SpanDocument['spans'] = [];
    for (const d of await detectDirect(doc.text, options.recognizers)) {
      const { term, source, start, end } = detectionTerms(doc.text, words, d)[0]!;
      const sources = kept.get(term);
      if (sources === undefined || ([source, ...(d.alsoFoundBy ?? [])].every((s) => CAPITAL_ONLY_SOURCES.has(s)) && !capitalKept(sources))) continue;
      if (spans.length === 0 || start >= spans.at(-1)!.end) spans.push({ start, end, label: d.category });
    }
    yield { id: doc.id, author: doc.author, text: doc.text, spans };
  }
  if (options.documents !== undefined) assertSameReading('silver labels', read, options.documents);
}
