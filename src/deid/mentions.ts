import { goldType, type SpanDocument } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import { contentFingerprint } from '../engine/runConfig.js';
import { publicLists } from '../identifiers/index.js';
import type { LabelledText } from './classifier.js';

interface SurrogateLists {
  first: string[];
  last: string[];
  places: string[];
}
let drawn: SurrogateLists | undefined;

/** The bundled lists as arrays to draw from, in the lists' own (deterministic) order. */
function surrogateLists(): SurrogateLists {
  const lists = publicLists();
  drawn ??= { first: [...lists.firstNames], last: [...lists.lastNames], places: [...lists.places].filter((p) => /^[\p{L} .'-]+$/u.test(p)) };
  return drawn;
}

/** What the surrogates are drawn from, for a resumed run to check it draws the same (the lists come from npm packages). */
export function surrogateListsFingerprint(): string {
  const { first, last, places } = surrogateLists();
  return contentFingerprint([first.join('\n'), last.join('\n'), places.join('\n')]);
}

/** `value` written as `like` was: in lower case, in capitals, or each word capitalised (St. John's, Winston-Salem, O'Brien). */
function inCasingOf(value: string, like: string): string {
  if (like === like.toLowerCase()) return value.toLowerCase();
  if (like === like.toUpperCase()) return value.toUpperCase();
  // A capital at each word's start and after O' or D' (O'Brien), not after a possessive (St. John's).
  return value.toLowerCase().replace(/(?<=^|[\s-]|(?:^|[\s-])\p{L}')\p{L}/gu, (letter) => letter.toUpperCase());
}

/**
 * Gold labels of a place a city, state or country may stand in for. A street address or a hospital keeps
 * its text: a city is not its like.
 */
const PLACE_LABELS = new Set(['location', 'loc', 'gpe', 'geo-loc', 'city', 'lc', 'country', 'state']);

/**
 * What a surrogate may stand in for: a person (by {@link goldType}) or a place ({@link PLACE_LABELS})
 * written in Latin letters without digits. Korean names keep their text: a census name is not their like.
 */
function replaceable(doc: SpanDocument, span: SpanDocument['spans'][number]): 'PERSON' | 'PLACE' | undefined {
  const text = doc.text.slice(span.start, span.end);
  if (!/\p{Script=Latin}/u.test(text) || /\p{N}/u.test(text)) return undefined;
  if (goldType(span.label) === 'PERSON') return 'PERSON';
  return PLACE_LABELS.has(span.label.toLowerCase()) ? 'PLACE' : undefined;
}

function overlapping(spans: readonly { start: number; end: number }[]): boolean {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  return sorted.some((s, i) => i > 0 && s.start < sorted[i - 1]!.end);
}

/** Whether {@link withSurrogateMentions} would change `doc`: a replaceable mention and no overlapping spans. */
export function hasReplaceableMention(doc: SpanDocument): boolean {
  return doc.spans.some((s) => replaceable(doc, s)) && !overlapping(doc.spans);
}

/**
 * Mention replacement (Dai & Adel 2020): `doc` with each person mention replaced by a name of the bundled
 * census and Moby lists (a first or a last name for one word, both for more) and each place by a place of
 * the bundled gazetteer, in the casing the mention was written in (tweets write names in lower case). The
 * context stays the document's own; the model learns it with names it did not see there, which is what it
 * meets on a corpus it was not trained on. Every span is kept, in its input order, its offsets moved; a
 * document whose spans overlap is returned as it is.
 *
 * @example
 * withSurrogateMentions({ id: '1', author: 'a', text: 'omg justin in Toronto', spans: [{ start: 4, end: 10, label: 'person' }, { start: 14, end: 21, label: 'location' }] }, new Rng(1))
 * // { text: 'omg carla in Mount Vernon', spans: [{ start: 4, end: 9, label: 'person' }, { start: 13, end: 25, label: 'location' }] } (names vary with the seed)
 */
export function withSurrogateMentions(doc: SpanDocument, rng: Rng): LabelledText {
  if (overlapping(doc.spans)) return { text: doc.text, spans: doc.spans.map((s) => ({ ...s })) };
  const { first, last, places } = surrogateLists();
  const order = doc.spans.map((_, i) => i).sort((a, b) => doc.spans[a]!.start - doc.spans[b]!.start);
  const out: LabelledText['spans'] = new Array(doc.spans.length);
  let text = '';
  let at = 0;
  for (const i of order) {
    const span = doc.spans[i]!;
    const original = doc.text.slice(span.start, span.end);
    const kind = replaceable(doc, span);
    let value = original;
    if (kind === 'PLACE') value = inCasingOf(rng.pick(places), original);
    else if (kind === 'PERSON') value = inCasingOf(/\s/.test(original.trim()) ? `${rng.pick(first)} ${rng.pick(last)}` : rng.next() < 0.6 ? rng.pick(first) : rng.pick(last), original);
    text += doc.text.slice(at, span.start);
    out[i] = { start: text.length, end: text.length + value.length, label: span.label };
    text += value;
    at = span.end;
  }
  return { text: text + doc.text.slice(at), spans: out };
}

/**
 * The surrogate-mention copies a training run adds: `copies` of each of `docs` that names someone
 * ({@link hasReplaceableMention}), drawn afresh each epoch, and the same again for the same seed and epoch,
 * so a resumed run trains on what it would have.
 */
export function mentionCopies(docs: readonly SpanDocument[], copies: number, seed: number): { count: number; forEpoch: (epoch: number) => LabelledText[] } {
  const named = docs.flatMap((doc, i) => (hasReplaceableMention(doc) ? [{ doc, i }] : []));
  return {
    count: named.length * copies,
    forEpoch: (epoch) => named.flatMap(({ doc, i }) => Array.from({ length: copies }, (_, c) => withSurrogateMentions(doc, new Rng(seed).fork((i * copies + c) * 7919 + epoch)))),
  };
}
