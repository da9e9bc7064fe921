import { join } from 'node:path';
import { PRIVATE_FILE_MODE, writeFileAtomic } from '../io/index.js';
import type { AuditReport } from './audit.js';
import type { RocResult } from './metrics.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');
const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

const W = 360;
const H = 260;
const M = { l: 48, r: 12, t: 16, b: 40 };

function axes(xLabel: string, yLabel: string, xTicks: [number, string][], yTicks: [number, string][]): string {
  const x0 = M.l;
  const y0 = H - M.b;
  const parts = [`<line x1="${x0}" y1="${y0}" x2="${W - M.r}" y2="${y0}" stroke="#333"/>`, `<line x1="${x0}" y1="${M.t}" x2="${x0}" y2="${y0}" stroke="#333"/>`];
  for (const [x, text] of xTicks) parts.push(`<text x="${x}" y="${y0 + 14}" font-size="10" text-anchor="middle">${text}</text>`);
  for (const [y, text] of yTicks) parts.push(`<text x="${x0 - 4}" y="${y + 3}" font-size="10" text-anchor="end">${text}</text>`);
  parts.push(`<text x="${(x0 + W - M.r) / 2}" y="${H - 6}" font-size="11" text-anchor="middle">${xLabel}</text>`);
  parts.push(`<text x="12" y="${(M.t + y0) / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 12 ${(M.t + y0) / 2})">${yLabel}</text>`);
  return parts.join('');
}

/** ROC curves on a log-scale FPR axis (10^-3 .. 1), the region that matters for membership inference. */
export function rocSvg(curves: { name: string; color: string; roc: RocResult }[]): string {
  const minLog = -3;
  const sx = (fpr: number) => M.l + ((Math.log10(Math.max(fpr, 10 ** minLog)) - minLog) / -minLog) * (W - M.l - M.r);
  const sy = (tpr: number) => H - M.b - tpr * (H - M.t - M.b);
  const lines = curves.map(({ color, roc }) => `<polyline fill="none" stroke="${color}" stroke-width="2" points="${roc.curve.map(([f, t]) => `${sx(f).toFixed(1)},${sy(t).toFixed(1)}`).join(' ')}"/>`);
  const diag = Array.from({ length: 31 }, (_, i) => 10 ** (minLog + (i / 30) * -minLog)).map((f) => `${sx(f).toFixed(1)},${sy(f).toFixed(1)}`).join(' ');
  const legend = curves.map(({ name, color, roc }, i) => `<text x="${M.l + 8}" y="${M.t + 12 + i * 14}" font-size="11" fill="${color}">${esc(name)} (AUC ${num(roc.auc)})</text>`);
  return `<svg class="plot roc" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="ROC curve">${axes('false positive rate (log)', 'true positive rate', [[sx(0.001), '0.001'], [sx(0.01), '0.01'], [sx(0.1), '0.1'], [sx(1), '1']], [[sy(0), '0'], [sy(0.5), '0.5'], [sy(1), '1']])}<polyline fill="none" stroke="#aaa" stroke-dasharray="4 3" points="${diag}"/>${lines.join('')}${legend.join('')}</svg>`;
}

/** Top-1 regurgitation rate per term against its frequency in the training data. */
export function regurgitationSvg(rows: AuditReport['regurgitation']['rows']): string {
  const maxOcc = Math.max(2, ...rows.map((r) => r.trainingOccurrences));
  const sx = (n: number) => M.l + (Math.log10(Math.max(1, n)) / Math.log10(maxOcc)) * (W - M.l - M.r);
  const sy = (v: number) => H - M.b - v * (H - M.t - M.b);
  const dots = rows.map((r) => `<circle cx="${sx(r.trainingOccurrences).toFixed(1)}" cy="${sy(r.top1).toFixed(1)}" r="3" fill="${r.kind === 'direct' ? '#c0392b' : '#2e86c1'}" fill-opacity="0.6"><title>${esc(r.term)} (${esc(r.category)}): ${r.trainingOccurrences} in training, top-1 ${pct(r.top1)}</title></circle>`);
  return `<svg class="plot regurgitation" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="regurgitation scatter">${axes('occurrences in training data (log)', 'recovered top-1', [[sx(1), '1'], [sx(maxOcc), String(maxOcc)]], [[sy(0), '0'], [sy(1), '1']])}${dots.join('')}<text x="${W - M.r - 4}" y="${M.t + 12}" font-size="11" text-anchor="end"><tspan fill="#c0392b">● direct</tspan> <tspan fill="#2e86c1">● indirect</tspan></text></svg>`;
}

/** A self-contained HTML page (inline CSS and SVG, no network) of one audit. */
export function reportHtml(report: AuditReport): string {
  const p = report.privacy;
  const m = report.membership;
  const curves = [{ name: 'loss attack', color: '#c0392b', roc: m.loss }, ...(m.calibrated ? [{ name: 'reference-calibrated', color: '#8e44ad', roc: m.calibrated }] : [])];
  const row = (name: string, s: typeof p.all) => `<tr><td>${name}</td><td>${num(s.score)}</td><td>${num(s.ci[0])} – ${num(s.ci[1])}</td><td>${s.occurrences}</td><td>${s.tokens}</td><td>${pct(s.fullyRecovered)}</td></tr>`;
  const top = report.regurgitation.rows.slice(0, 25).map((r) => `<tr><td>${esc(r.term)}</td><td>${r.kind}</td><td>${esc(r.category)}</td><td>${r.trainingOccurrences}</td><td>${r.evaluated}</td><td>${pct(r.top1)}</td><td>${pct(r.top5)}</td></tr>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ppmlm audit: ${esc(report.target.name)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;max-width:980px;margin:24px auto;padding:0 16px;color:#222}table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}.plots{display:flex;gap:24px;flex-wrap:wrap}.warn{color:#a04000}</style></head>
<body><h1>Risk audit of ${esc(report.target.name)}</h1>
<p>Created ${esc(report.createdAt)}. Strategy: <b>${esc(String(report.target.provenance?.strategy ?? 'unknown'))}</b>. Blacklist fingerprint ${esc(report.blacklistFingerprint)}.${report.reference ? ` Reference model: ${esc(report.reference.name)}.` : ''}</p>
<h2>Privacy score</h2><p>1 − top-1 accuracy at blacklisted tokens of the training documents, each occurrence masked whole. 1 means no identifier token was recovered.</p>
<table><tr><th>identifiers</th><th>score</th><th>95% CI</th><th>occurrences</th><th>tokens</th><th>fully recovered</th></tr>${row('all', p.all)}${row('direct', p.direct)}${row('indirect', p.indirect)}${Object.entries(p.byCategory ?? {}).map(([c, sc]) => row(esc(c), sc)).join('')}</table>
${report.exposure ? `<h2>Exposure of planted secrets</h2><p>Rank of each secret, by the model's likelihood in its training text, among fresh values of the same form (Secret Sharer): exposure log2(candidates + 1) − log2(rank) bits; 0 means no more likely than a fresh value. Mean <b>${num(report.exposure.mean)}</b> bits, max ${num(report.exposure.max)}.</p>
<table><tr><th>secret</th><th>rank</th><th>candidates</th><th>exposure (bits)</th></tr>${report.exposure.probes.map((x) => `<tr><td>${esc(x.label)}</td><td>${x.rank}</td><td>${x.candidates}</td><td>${num(x.exposure)}</td></tr>`).join('')}</table>` : ''}
<h2>Membership inference</h2><p>${m.members} members (training documents) vs ${m.nonMembers} non-members; per-document masked-LM loss under fixed masks.${m.nonMembers < 400 ? ' <span class="warn">Fewer than 400 non-members: TPR at 1% FPR rests on few documents.</span>' : ''}</p>
<table><tr><th>attack</th><th>AUC</th><th>TPR @ 1% FPR</th><th>TPR @ 0.1% FPR</th></tr>${curves.map((c) => `<tr><td>${c.name}</td><td>${num(c.roc.auc)}</td><td>${pct(c.roc.tprAt1)}</td><td>${pct(c.roc.tprAt01)}</td></tr>`).join('')}</table>
<p>Mean loss: members ${num(m.meanLoss.members)}, non-members ${num(m.meanLoss.nonMembers)}.</p>
<div class="plots">${rocSvg(curves)}${regurgitationSvg(report.regurgitation.rows)}</div>
<h2>Utility</h2><p>Fill-mask top-1 accuracy on non-blacklisted tokens of non-member documents: <b>${pct(report.utility.accuracy)}</b> over ${report.utility.positions} positions (most-frequent-token baseline ${pct(report.utility.unigramBaseline)}${report.utility.reference !== undefined ? `; reference model ${pct(report.utility.reference)}` : ''}).</p>
${report.utility.downstream ? `<p>Downstream classification (${report.utility.downstream.train} training, ${report.utility.downstream.test} test documents): macro F1 <b>${num(report.utility.downstream.macroF1)}</b>, micro F1 ${num(report.utility.downstream.microF1)}${report.utility.downstream.reference ? `; reference model macro F1 ${num(report.utility.downstream.reference.macroF1)}` : ''}.</p>` : ''}
<h2>Regurgitation</h2><p>${report.regurgitation.top1Terms} terms recovered top-1 at least once, ${report.regurgitation.top5Terms} within the top 5. ${report.regurgitation.identifiersShown ? 'Terms shown in clear (--show-identifiers).' : 'Terms shown as salted hashes; pass --show-identifiers to see them.'}</p>
<table><tr><th>term</th><th>kind</th><th>category</th><th>in training</th><th>evaluated</th><th>top-1</th><th>top-5</th></tr>${top.join('')}</table>
</body></html>
`;
}

/** Writes report.json and report.html into `dir`, both mode 0600 (they may hold identifiers). */
export async function writeReport(dir: string, report: AuditReport, options: { force?: boolean } = {}): Promise<{ json: string; html: string }> {
  const json = join(dir, 'report.json');
  const html = join(dir, 'report.html');
  await writeFileAtomic(json, `${JSON.stringify(report, null, 2)}\n`, { force: options.force, mode: PRIVATE_FILE_MODE });
  await writeFileAtomic(html, reportHtml(report), { force: options.force, mode: PRIVATE_FILE_MODE });
  return { json, html };
}
