import type { Document, SpanDocument } from '../corpus/index.js';
import { contentWords, type MorphAnalyzer } from '../text/index.js';
import type { Blacklist } from './blacklist/types.js';
import { detectionTerms } from './build.js';
import { detectDirect, type Recognizer } from './direct/index.js';

/**
 * Silver labels a token classifier can be trained on (`blacklist build --silver-out`, then `deid train
 * --spans`): each document's direct detections, widened to whole words, where the built blacklist kept
 * the term as a direct identifier. A detection the corpus overruled is no label: a drug a rule took for a
 * name where it was capitalised, written in lower case elsewhere (Albuterol), or a term only a model found
 * at too few of its places. Learnt as found, those became the model's steady false alarms on the notes.
 * `recognizers` and `analyzer` must be the build's; a later detection overlapping an earlier one is left out.
 */
export async function* silverLabels(docs: AsyncIterable<Document> | Iterable<Document>, blacklist: Blacklist, options: { recognizers: readonly Recognizer[]; analyzer?: MorphAnalyzer }): AsyncGenerator<SpanDocument> {
  const direct = new Set(blacklist.entries.filter((e) => e.kind === 'direct').map((e) => e.term));
  for await (const doc of docs) {
    const words = await contentWords(doc.text, options.analyzer);
    const spans: SpanDocument['spans'] = [];
    for (const d of await detectDirect(doc.text, options.recognizers)) {
      const { term, start, end } = detectionTerms(doc.text, words, d)[0]!;
      if (direct.has(term) && (spans.length === 0 || start >= spans.at(-1)!.end)) spans.push({ start, end, label: d.category });
    }
    yield { id: doc.id, author: doc.author, text: doc.text, spans };
  }
}
