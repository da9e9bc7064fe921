import type { EncoderModel } from '../model/index.js';
import type { Tokenizer } from '../tokenizer/index.js';
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
}

export interface ExposureResult {
  label: string;
  /** 1 + the number of candidates the model finds more likely than the secret. */
  rank: number;
  candidates: number;
  /** log2(candidates + 1) − log2(rank): 0 when the secret is no more likely than a fresh value. */
  exposure: number;
}

/**
 * The masked-LM log-likelihood of a value in a text: the value's subwords are masked one at a time
 * (the others visible, as in pseudo-log-likelihood scoring, Salazar et al. 2020) and their
 * log-probabilities summed. Returns the queries; the score is the sum over their predictions.
 */
function valueQueries(tokenizer: Tokenizer, text: string, start: number, end: number, seqLen: number): MaskedQuery[] {
  const t = queryTokens(tokenizer);
  const body = tokenizer.tokenize(text);
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
 */
export async function secretExposure(model: EncoderModel, tokenizer: Tokenizer, probes: readonly ExposureProbe[], options: { seqLen: number; padId: number }): Promise<ExposureResult[]> {
  const out: ExposureResult[] = [];
  for (const probe of probes) {
    const at = probe.text.indexOf(probe.secret);
    if (at < 0) throw new RangeError(`exposure probe ${probe.label}: the secret is not in its text`);
    const values = [probe.secret, ...probe.candidates.filter((c) => c !== probe.secret)];
    const perValue = values.map((v) => valueQueries(tokenizer, probe.text.slice(0, at) + v + probe.text.slice(at + probe.secret.length), at, at + v.length, options.seqLen));
    const preds = await predictMasked(model, perValue.flat(), { padId: options.padId, topK: 1 });
    let next = 0;
    const scores = perValue.map((qs) => {
      let sum = 0;
      for (let k = 0; k < qs.length; k++) sum += preds[next++]![0]!.logProb;
      return qs.length > 0 ? sum : -Infinity;
    });
    const rank = 1 + scores.slice(1).filter((s) => s > scores[0]!).length;
    out.push({ label: probe.label, rank, candidates: values.length - 1, exposure: Math.log2(values.length) - Math.log2(rank) });
  }
  return out;
}
