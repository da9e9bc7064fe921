import type { EncoderModel } from '../model/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { tokenizeAtMorphemes, type Encoding, type Tokenizer } from '../tokenizer/index.js';
import { predictMasked, type MaskedQuery } from './inference.js';
import { queryTokens, windowAround } from './queries.js';

/**
 * A planted secret to measure: the training text that holds it, and other values drawn from the same
 * distribution that the model never saw (Carlini et al., "The Secret Sharer", 2019).
 */
export interface ExposureProbe {
  /** How reports name the probe (never the secret itself). */
  label: string;
  text: string;
  secret: string;
  candidates: readonly string[];
  /**
   * What the probe's error is clustered by: probes of one cluster are not independent (a canary's name and
   * reference share a sentence; canaries planted in one member share that member's text). Default: itself.
   */
  cluster?: string;
}

export interface ExposureResult {
  label: string;
  /** 1 + the candidates the model finds more likely than the secret + half those it finds as likely (a mid-rank). */
  rank: number;
  /** The candidates that could be scored (a value whose tokens do not fit a window is left out). */
  candidates: number;
  /** log2(candidates + 1) − log2(rank): 0 when the secret is no more likely than a fresh value; NaN when unscored. */
  exposure: number;
  cluster?: string;
  /** The secret yields no query (its tokens do not fit a window): left out of every mean. */
  unscored?: 'no query';
}

/**
 * The masked-LM log-likelihood of a value in a text: the value's subwords are masked one at a time
 * (the others visible, as in pseudo-log-likelihood scoring, Salazar et al. 2020) and their
 * log-probabilities summed. Returns the queries; the score is the sum over their predictions.
 */
function valueQueries(tokenizer: Tokenizer, body: Encoding, start: number, end: number, seqLen: number): MaskedQuery[] {
  const t = queryTokens(tokenizer);
  const covered: number[] = [];
  body.offsets.forEach(([s, e], i) => {
    if (s < end && e > start) covered.push(i);
  });
  if (covered.length === 0 || covered.at(-1)! - covered[0]! + 1 > seqLen - 2) return [];
  const window = windowAround(body, covered[0]!, covered.at(-1)!, seqLen, t);
  return covered.map((i) => {
    const ids = window.ids.slice();
    ids[i - window.offset] = t.mask;
    return { ids, positions: [i - window.offset], labels: [body.ids[i]!] };
  });
}

/**
 * Exposure of each probe's secret: its rank, by the model's likelihood in the training text, among the
 * secret and its candidates put in the same place. A model that memorised the secret ranks it first
 * (exposure log2(candidates + 1)); one that did not ranks it uniformly (expected exposure ~log2 e = 1.44 bits).
 * Ties take the mid-rank, so a model that cannot tell the values apart gives ~1 bit (near a random
 * ranking's ~1.44), not the maximum;
 * a candidate that yields no query is left out, and a secret that yields none is marked `unscored`.
 */
export async function secretExposure(model: EncoderModel, tokenizer: Tokenizer, probes: readonly ExposureProbe[], options: { seqLen: number; padId: number; morphemes?: MorphAnalyzer }): Promise<ExposureResult[]> {
  const out: ExposureResult[] = [];
  for (const probe of probes) {
    const at = probe.text.indexOf(probe.secret);
    if (at < 0) throw new RangeError(`exposure probe ${probe.label}: the secret is not in its text`);
    const values = [probe.secret, ...probe.candidates.filter((c) => c !== probe.secret)];
    const perValue = await Promise.all(values.map(async (v) => {
      const text = probe.text.slice(0, at) + v + probe.text.slice(at + probe.secret.length);
      return valueQueries(tokenizer, await tokenizeAtMorphemes(tokenizer, text, options.morphemes), at, at + v.length, options.seqLen);
    }));
    const preds = await predictMasked(model, perValue.flat(), { padId: options.padId, topK: 1 });
    let next = 0;
    const scores = perValue.map((qs) => {
      let sum = 0;
      for (let k = 0; k < qs.length; k++) sum += preds[next++]![0]!.logProb;
      return qs.length > 0 ? sum : undefined;
    });
    const cluster = probe.cluster === undefined ? {} : { cluster: probe.cluster };
    const secret = scores[0];
    const others = scores.slice(1).filter((s): s is number => s !== undefined);
    if (secret === undefined) {
      out.push({ label: probe.label, rank: NaN, candidates: others.length, exposure: NaN, ...cluster, unscored: 'no query' });
      continue;
    }
    const rank = 1 + others.filter((s) => s > secret).length + others.filter((s) => s === secret).length / 2;
    out.push({ label: probe.label, rank, candidates: others.length, exposure: Math.log2(others.length + 1) - Math.log2(rank), ...cluster });
  }
  return out;
}
