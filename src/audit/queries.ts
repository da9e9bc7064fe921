import type { Document } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import { BlacklistMatcher, mentionOnly, occurrenceTokens, protectedMask, type BlacklistEntry } from '../identifiers/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import type { Encoding, Tokenizer } from '../tokenizer/index.js';
import type { MaskedQuery } from './inference.js';

/** Special ids a query needs. */
export interface QueryTokens {
  cls: number;
  sep: number;
  mask: number;
}

export function queryTokens(tokenizer: Tokenizer): QueryTokens {
  return { cls: tokenizer.idOf(tokenizer.specials.cls)!, sep: tokenizer.idOf(tokenizer.specials.sep)!, mask: tokenizer.idOf(tokenizer.specials.mask)! };
}

/** A window of `body` of at most seqLen - 2 tokens around token positions [a, b], framed by [CLS] and [SEP]. */
export function windowAround(body: Encoding, a: number, b: number, seqLen: number, t: QueryTokens): { ids: Int32Array; offset: number } {
  const inner = seqLen - 2;
  const center = Math.floor((a + b) / 2);
  const start = Math.max(0, Math.min(body.ids.length - inner, center - Math.floor(inner / 2)));
  const slice = body.ids.slice(Math.max(0, start), Math.max(0, start) + inner);
  return { ids: Int32Array.from([t.cls, ...slice, t.sep]), offset: Math.max(0, start) - 1 };
}

/** A blacklisted occurrence in a document, as the token positions that cover it. */
export interface Occurrence {
  doc: number;
  entry: number;
  tokens: number[];
}

/**
 * Every occurrence of a blacklist term the audit attacks, with the subword tokens covering it, and each
 * document's protected positions: the definition fine-tuning uses (identifiers' protectedMask), so the
 * audit measures exactly what training excluded. A mention's title and credentials ({@link mentionOnly})
 * are protected, never attacked: its name is an occurrence of its own, and the privacy score and
 * membership inference both read these occurrences.
 */
export async function findOccurrences(docs: readonly Document[], bodies: readonly Encoding[], entries: readonly BlacklistEntry[], analyzer?: MorphAnalyzer): Promise<{ occurrences: Occurrence[]; protectedMasks: Uint8Array[] }> {
  const matcher = entries.length > 0 ? new BlacklistMatcher(entries) : undefined;
  const occurrences: Occurrence[] = [];
  const protectedMasks: Uint8Array[] = [];
  for (let d = 0; d < docs.length; d++) {
    const body = bodies[d]!;
    const matches = matcher ? await matcher.match(docs[d]!.text, analyzer) : [];
    for (const m of matches) {
      const tokens = occurrenceTokens(body.offsets, m, body.special);
      if (tokens.length > 0 && !mentionOnly(entries[m.entry]!)) occurrences.push({ doc: d, entry: m.entry, tokens });
    }
    protectedMasks.push(protectedMask(body.offsets, matches, body.special));
  }
  return { occurrences, protectedMasks };
}

/** A query that masks all subwords of one occurrence at once. */
export function occurrenceQuery(body: Encoding, occ: Occurrence, seqLen: number, t: QueryTokens): MaskedQuery | undefined {
  const a = occ.tokens[0]!;
  const b = occ.tokens.at(-1)!;
  if (b - a + 1 > seqLen - 2) return undefined;
  const { ids, offset } = windowAround(body, a, b, seqLen, t);
  const positions = occ.tokens.map((i) => i - offset);
  const labels = occ.tokens.map((i) => body.ids[i]!);
  for (const p of positions) ids[p] = t.mask;
  return { ids, positions, labels };
}

/**
 * What an asked position is: unprotected, protected (its occurrence drawn like any token), or protected and
 * added only so that a window with occurrences asks about one (counted for the protected variant alone, so
 * that the `all` variant keeps one rate for every token: the blacklist may cover members and non-members
 * unequally).
 */
export type PositionKind = 'unprotected' | 'protected' | 'protectedExtra';

/** A document's fixed membership-inference queries, and what each asked position is. */
export interface DocumentQueries {
  queries: MaskedQuery[];
  kinds: PositionKind[][];
}

/**
 * Fixed, seeded masks over whole documents (consecutive windows of seqLen - 2 tokens), one query per
 * window: a share p of the unprotected positions and a share p of the occurrences, each occurrence masked
 * whole (all its tokens), as whole-word masking would; a window with positions of a kind but none drawn
 * gets one. The same queries go to every model compared, so their losses are paired.
 */
export function documentQueries(body: Encoding, protectedTokens: ArrayLike<number>, occurrences: readonly (readonly number[])[], seqLen: number, p: number, seed: number, t: QueryTokens): DocumentQueries {
  const rng = new Rng(seed);
  const inner = seqLen - 2;
  const out: DocumentQueries = { queries: [], kinds: [] };
  // One draw per token, protected or not, so that a token's draw does not depend on the blacklist.
  const chosen = body.ids.map(() => rng.next() < p);
  const drawn = occurrences.map(() => rng.next() < p);
  const within = (start: number, end: number) => (i: number) => i >= start && i < end;
  for (let start = 0; start < body.ids.length; start += inner) {
    const end = Math.min(body.ids.length, start + inner);
    const inside = within(start, end);
    const open: number[] = [];
    for (let i = start; i < end; i++) if (!protectedTokens[i]) open.push(i);
    const picked = open.filter((i) => chosen[i]);
    if (picked.length === 0 && open.length > 0) picked.push(open[rng.int(open.length)]!);
    const here = occurrences.flatMap((tokens, o) => (tokens.some(inside) ? [o] : []));
    const kinds = new Map<number, PositionKind>(picked.map((i) => [i, 'unprotected']));
    for (const o of here.filter((x) => drawn[x])) for (const i of occurrences[o]!.filter(inside)) kinds.set(i, 'protected');
    if (here.length > 0 && !here.some((x) => drawn[x])) for (const i of occurrences[here[rng.int(here.length)]!]!.filter(inside)) kinds.set(i, 'protectedExtra');
    const positions = [...kinds.keys()].sort((a, b) => a - b);
    if (positions.length === 0) continue;
    const ids = Int32Array.from([t.cls, ...body.ids.slice(start, end), t.sep]);
    for (const i of positions) ids[i - start + 1] = t.mask;
    out.queries.push({ ids, positions: positions.map((i) => i - start + 1), labels: positions.map((i) => body.ids[i]!) });
    out.kinds.push(positions.map((i) => kinds.get(i)!));
  }
  return out;
}
