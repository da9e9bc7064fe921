import type { Document } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import { BlacklistMatcher, type BlacklistEntry } from '../identifiers/index.js';
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

/** Every occurrence of a blacklist term in the documents, with the subword tokens overlapping it. */
export async function findOccurrences(docs: readonly Document[], bodies: readonly Encoding[], entries: readonly BlacklistEntry[], analyzer?: MorphAnalyzer): Promise<Occurrence[]> {
  const matcher = new BlacklistMatcher(entries);
  const out: Occurrence[] = [];
  for (let d = 0; d < docs.length; d++) {
    const body = bodies[d]!;
    for (const m of await matcher.match(docs[d]!.text, analyzer)) {
      const tokens: number[] = [];
      for (let i = 0; i < body.offsets.length; i++) {
        const [s, e] = body.offsets[i]!;
        if (s < m.end && e > m.start) tokens.push(i);
      }
      if (tokens.length > 0) out.push({ doc: d, entry: m.entry, tokens });
    }
  }
  return out;
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
 * Fixed, seeded masks over whole documents (all windows): a share p of eligible positions replaced by the
 * mask token. The same queries go to every model compared, so their losses are paired.
 */
export function documentQueries(body: Encoding, protectedTokens: ReadonlySet<number>, seqLen: number, p: number, seed: number, t: QueryTokens): MaskedQuery[] {
  const rng = new Rng(seed);
  const inner = seqLen - 2;
  const out: MaskedQuery[] = [];
  for (let start = 0; start < body.ids.length; start += inner) {
    const slice = body.ids.slice(start, start + inner);
    const ids = Int32Array.from([t.cls, ...slice, t.sep]);
    const positions: number[] = [];
    const labels: number[] = [];
    for (let i = 0; i < slice.length; i++) {
      const chosen = rng.next() < p;
      if (!chosen || protectedTokens.has(start + i)) continue;
      positions.push(i + 1);
      labels.push(slice[i]!);
      ids[i + 1] = t.mask;
    }
    if (positions.length === 0 && slice.length > 0) {
      const i = rng.int(slice.length);
      if (!protectedTokens.has(start + i)) {
        positions.push(i + 1);
        labels.push(slice[i]!);
        ids[i + 1] = t.mask;
      }
    }
    if (positions.length > 0) out.push({ ids, positions, labels });
  }
  return out;
}
