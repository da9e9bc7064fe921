import { goldType, type SpanDocument } from '../corpus/index.js';
import type { Rng } from '../engine/random.js';
import { publicLists } from '../identifiers/index.js';
import type { LabelledText } from './classifier.js';

let names: { first: string[]; last: string[]; places: string[] } | undefined;

/** The bundled lists as arrays to draw from, in the lists' own (deterministic) order. */
function surrogateLists(): { first: string[]; last: string[]; places: string[] } {
  const lists = publicLists();
  names ??= { first: [...lists.firstNames], last: [...lists.lastNames], places: [...lists.places].filter((p) => /^[\p{L} .'-]+$/u.test(p)) };
  return names;
}

/** The words of `value` written as `like` was: in lower case, in capitals, or each word capitalised. */
function inCasingOf(value: string, like: string): string {
  if (like === like.toLowerCase()) return value.toLowerCase();
  if (like === like.toUpperCase()) return value.toUpperCase();
  return value.replace(/\p{L}+/gu, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

/**
 * A mention a surrogate may stand in for: a person or a place (by {@link goldType}) written in Latin
 * letters without digits. Street addresses and Korean names keep their text: an English city or census
 * name is not their like.
 */
function replaceable(doc: SpanDocument, span: SpanDocument['spans'][number]): 'PERSON' | 'LOCATION' | undefined {
  const type = goldType(span.label);
  const text = doc.text.slice(span.start, span.end);
  if ((type !== 'PERSON' && type !== 'LOCATION') || !/\p{Script=Latin}/u.test(text) || /[\p{N}]/u.test(text)) return undefined;
  return type;
}

/** Whether {@link withSurrogateMentions} would change `doc`. */
export function hasReplaceableMention(doc: SpanDocument): boolean {
  return doc.spans.some((s) => replaceable(doc, s));
}

/**
 * Mention replacement (Dai & Adel 2020): `doc` with each person mention replaced by a name of the bundled
 * census and Moby lists (a first or a last name for one word, both for more) and each place by a place of
 * the bundled gazetteer, in the casing the mention was written in (tweets write names in lower case). The
 * context stays the document's own; the model learns it with names it did not see there, which is what it
 * meets on a corpus it was not trained on. Other spans are kept, their offsets moved.
 */
export function withSurrogateMentions(doc: SpanDocument, rng: Rng): LabelledText {
  const { first, last, places } = surrogateLists();
  const spans = [...doc.spans].sort((a, b) => a.start - b.start);
  let text = '';
  let at = 0;
  const out: LabelledText['spans'] = [];
  for (const span of spans) {
    if (span.start < at) continue;
    const type = replaceable(doc, span);
    const original = doc.text.slice(span.start, span.end);
    let value = original;
    if (type === 'LOCATION') value = places[rng.int(places.length)]!;
    else if (type === 'PERSON') value = /\s/.test(original.trim()) ? `${first[rng.int(first.length)]} ${last[rng.int(last.length)]}` : rng.next() < 0.6 ? first[rng.int(first.length)]! : last[rng.int(last.length)]!;
    if (type) value = inCasingOf(value, original);
    text += doc.text.slice(at, span.start);
    out.push({ start: text.length, end: text.length + value.length, label: span.label });
    text += value;
    at = span.end;
  }
  return { text: text + doc.text.slice(at), spans: out };
}
