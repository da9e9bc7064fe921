export interface PRF {
  precision: number;
  recall: number;
  f1: number;
}

export interface DeidMetrics {
  tokens: number;
  /** PII or not, per token. */
  binary: PRF;
  /** Micro-averaged over labels: a token counts as correct only with the right label. */
  micro: PRF;
  perLabel: Record<string, PRF & { support: number }>;
  /** The most frequent (gold, predicted) disagreements. */
  confusions: { gold: string; predicted: string; count: number }[];
}

const prf = (tp: number, fp: number, fn: number): PRF => {
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
};

/** Token-level metrics of the Thunder-DeID paper: binary P/R/F1 and micro F1 over labels ("O" is no PII). */
export function tokenMetrics(gold: readonly string[], predicted: readonly string[]): DeidMetrics {
  if (gold.length !== predicted.length) throw new RangeError(`gold has ${gold.length} tokens, predictions ${predicted.length}`);
  let btp = 0;
  let bfp = 0;
  let bfn = 0;
  let mtp = 0;
  let mfp = 0;
  let mfn = 0;
  const per = new Map<string, { tp: number; fp: number; fn: number }>();
  const row = (l: string) => per.get(l) ?? (per.set(l, { tp: 0, fp: 0, fn: 0 }), per.get(l)!);
  const confusion = new Map<string, number>();
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i]!;
    const p = predicted[i]!;
    if (g !== 'O' && p !== 'O') btp++;
    else if (p !== 'O') bfp++;
    else if (g !== 'O') bfn++;
    if (g === p) {
      if (g !== 'O') {
        mtp++;
        row(g).tp++;
      }
      continue;
    }
    if (p !== 'O') {
      mfp++;
      row(p).fp++;
    }
    if (g !== 'O') {
      mfn++;
      row(g).fn++;
    }
    const key = `${g}\u0000${p}`;
    confusion.set(key, (confusion.get(key) ?? 0) + 1);
  }
  const perLabel: DeidMetrics['perLabel'] = {};
  for (const [label, c] of [...per].sort((a, b) => (a[0] < b[0] ? -1 : 1))) perLabel[label] = { ...prf(c.tp, c.fp, c.fn), support: c.tp + c.fn };
  const confusions = [...confusion]
    .map(([k, count]) => {
      const [g, p] = k.split('\u0000') as [string, string];
      return { gold: g, predicted: p, count };
    })
    .sort((a, b) => b.count - a.count)
    .slice(0, 10);
  return { tokens: gold.length, binary: prf(btp, bfp, bfn), micro: prf(mtp, mfp, mfn), perLabel, confusions };
}
