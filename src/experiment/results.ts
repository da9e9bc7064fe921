/** One cell of an experiment: a strategy after some epochs with one seed. */
export interface ResultRow {
  strategy: string;
  epochs: number;
  seed: number;
  privacyAll: number;
  privacyDirect: number;
  privacyIndirect: number;
  miaAuc: number;
  miaTpr1: number;
  calibratedTpr1: number;
  calibratedAuc: number;
  utility: number;
  /** The base model's utility on the same positions: what fine-tuning gained or cost. */
  utilityBase: number;
  /** Utility of always answering the most frequent token: a model at or below it has not learned. */
  utilityBaseline: number;
  /** Privacy score on the planted canaries (NaN without canaries). */
  privacyCanary: number;
  /** Mean exposure of the canaries' secrets in bits (NaN without canaries). */
  canaryExposure: number;
  /** DP epsilon when the strategy has privacy dp. */
  epsilon: number;
  /** What that epsilon protects: `author` (an individual) or `window`; empty without DP. */
  epsilonUnit: string;
}

const COLUMNS: (keyof ResultRow)[] = ['strategy', 'epochs', 'seed', 'privacyAll', 'privacyDirect', 'privacyIndirect', 'privacyCanary', 'canaryExposure', 'miaAuc', 'miaTpr1', 'calibratedAuc', 'calibratedTpr1', 'utility', 'utilityBase', 'utilityBaseline', 'epsilon', 'epsilonUnit'];
const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : Number.isFinite(v) ? v.toFixed(4) : '') : v);

export function resultsCsv(rows: readonly ResultRow[]): string {
  return `${[COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => cell(r[c])).join(','))].join('\n')}\n`;
}

export function resultsMarkdown(rows: readonly ResultRow[]): string {
  const head = ['strategy', 'epochs', 'seed', 'privacy (all)', 'privacy (direct)', 'privacy (indirect)', 'privacy (canaries)', 'canary exposure (bits)', 'MIA AUC', 'MIA TPR@1%FPR', 'calibrated AUC', 'calibrated TPR@1%FPR', 'utility', 'utility (base model)', 'utility (most frequent token)', 'DP ε', 'ε per'];
  return `${[`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 3 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${COLUMNS.map((c) => cell(r[c])).join(' | ')} |`)].join('\n')}\n`;
}

const COLORS = ['#c0392b', '#2e86c1', '#27ae60', '#8e44ad', '#d35400'];

/** Plots of privacy vs epochs, MIA TPR per strategy and utility vs privacy, as one self-contained page. */
export function resultsSvg(rows: readonly ResultRow[]): string {
  const strategies = [...new Set(rows.map((r) => r.strategy))];
  const epochs = [...new Set(rows.map((r) => r.epochs))].sort((a, b) => a - b);
  const W = 380;
  const H = 260;
  const L = 50;
  const B = 40;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const x = (e: number) => L + ((epochs.indexOf(e) + 0.5) / epochs.length) * (W - L - 10);
  const y = (v: number) => H - B - v * (H - B - 16);
  const legend = strategies.map((s, i) => `<text x="${L + 6}" y="${22 + i * 14}" font-size="11" fill="${COLORS[i % COLORS.length]}">${s}</text>`).join('');
  const axes = (xl: string, yl: string) =>
    `<line x1="${L}" y1="${H - B}" x2="${W - 10}" y2="${H - B}" stroke="#333"/><line x1="${L}" y1="16" x2="${L}" y2="${H - B}" stroke="#333"/><text x="${(L + W) / 2}" y="${H - 8}" font-size="11" text-anchor="middle">${xl}</text><text x="12" y="${H / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 12 ${H / 2})">${yl}</text><text x="${L - 4}" y="${y(0) + 3}" font-size="10" text-anchor="end">0</text><text x="${L - 4}" y="${y(1) + 3}" font-size="10" text-anchor="end">1</text>`;
  const byStrategy = (metric: (r: ResultRow) => number) =>
    strategies.map((s, i) => {
      // Only the epoch counts the strategy has rows for (the base model has one point, at 0 epochs).
      const cells = epochs.map((e) => [e, rows.filter((r) => r.strategy === s && r.epochs === e)] as const).filter(([, rs]) => rs.length > 0);
      const pts = cells.map(([e, rs]) => [x(e), y(mean(rs.map(metric)))] as const);
      if (pts.length === 1) return `<circle cx="${pts[0]![0].toFixed(1)}" cy="${pts[0]![1].toFixed(1)}" r="4" fill="${COLORS[i % COLORS.length]}"/>`;
      return `<polyline fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="2" points="${pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ')}"/>`;
    });
  const ticks = epochs.map((e) => `<text x="${x(e)}" y="${H - B + 14}" font-size="10" text-anchor="middle">${e}</text>`).join('');
  const privacy = `<svg class="plot privacy" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${axes('epochs', 'privacy score')}${ticks}${byStrategy((r) => r.privacyAll).join('')}${legend}</svg>`;
  const tpr = `<svg class="plot mia" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${axes('epochs', 'MIA TPR @ 1% FPR')}${ticks}${byStrategy((r) => r.miaTpr1).join('')}${legend}</svg>`;
  const scatter = rows
    .map((r) => `<circle cx="${(L + r.privacyAll * (W - L - 10)).toFixed(1)}" cy="${y(r.utility).toFixed(1)}" r="4" fill="${COLORS[strategies.indexOf(r.strategy) % COLORS.length]}"><title>${r.strategy} e${r.epochs} s${r.seed}</title></circle>`)
    .join('');
  const tradeoff = `<svg class="plot tradeoff" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${axes('privacy score', 'utility (fill-mask top-1)')}${scatter}${legend}</svg>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ppmlm experiment</title></head><body style="font:14px system-ui,sans-serif"><h1>ppmlm experiment</h1><div style="display:flex;gap:20px;flex-wrap:wrap">${privacy}${tpr}${tradeoff}</div></body></html>\n`;
}
