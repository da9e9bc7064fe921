import { join } from 'node:path';
import { PRIVATE_FILE_MODE, writeFileAtomic } from '../io/index.js';
import type { AuditReport } from './audit.js';
import type { MembershipLevel } from './membership.js';
import { VARIANTS } from './membership.js';
import type { RocResult, RocWithInterval } from './metrics.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');
const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const interval = ([lo, hi]: [number, number], f: (x: number) => string = num) => `${f(lo)} – ${f(hi)}`;
const ATTACKS = [['loss', 'loss'], ['calibrated', 'reference-calibrated'], ['pllRatio', 'PLL ratio'], ['lira', 'LiRA (offline)']] as const;

/** One membership level (documents or individuals) as table rows: variant × attack, each figure with its interval. */
function membershipRows(level: MembershipLevel): string {
  return VARIANTS.flatMap((v) => {
    const result = level[v];
    if (!result) return [`<tr><td>${v}</td><td colspan="5">no position of this kind</td></tr>`];
    return ATTACKS.flatMap(([key, name]) => {
      const r = result[key] as RocWithInterval | undefined;
      if (!r) return key === 'lira' && result.liraMissing ? [`<tr><td>${v}</td><td>${name}</td><td colspan="4" class="warn">not computed: ${esc(result.liraMissing)}</td></tr>`] : [];
      return [`<tr><td>${v}</td><td>${name}</td><td>${result.members} / ${result.nonMembers} <small>(${r.n.memberIndividuals} / ${r.n.nonMemberIndividuals} individuals)</small></td><td>${num(r.auc)} <small>[${interval(r.ci.auc)}]</small></td><td>${pct(r.tprAt1)} <small>[${interval(r.ci.tprAt1, pct)}]</small></td><td>${pct(r.tprAt01)} <small>[${interval(r.ci.tprAt01, pct)}]</small></td></tr>`];
    });
  }).join('');
}

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
  // Drawn last to first, so that the first curve (the loss attack) stays on top where curves coincide.
  const lines = [...curves].reverse().map(({ color, roc }) => `<polyline fill="none" stroke="${color}" stroke-width="2" points="${roc.curve.map(([f, t]) => `${sx(f).toFixed(1)},${sy(t).toFixed(1)}`).join(' ')}"/>`);
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
  const all = m.byDocument.all;
  const curves = [
    { name: 'loss attack (documents)', color: '#c0392b', roc: m.loss },
    ...(m.calibrated ? [{ name: 'reference-calibrated', color: '#8e44ad', roc: m.calibrated }] : []),
    ...(all?.pllRatio ? [{ name: 'PLL ratio', color: '#16a085', roc: all.pllRatio }] : []),
    ...(all?.lira ? [{ name: 'LiRA', color: '#d68910', roc: all.lira }] : []),
  ];
  const row = (name: string, s: typeof p.all) => `<tr><td>${name}</td><td>${num(s.score)}</td><td>${interval(s.ci)}</td><td>${num(s.subword.score)}</td><td>${interval(s.subword.ci)}</td><td>${s.occurrences}</td><td>${s.tokens}</td><td>${s.individuals}</td></tr>`;
  const scope = report.blacklistScope === 'members' ? ' The blacklist was built from the member documents only (the paper\'s setting).' : report.blacklistScope === 'given' ? ' The blacklist was given and used as is.' : '';
  const g = report.gold;
  const c = report.canaries;
  const miaHead = '<tr><th>positions</th><th>attack</th><th>members / non-members</th><th>AUC [95% CI]</th><th>TPR @ 1% FPR</th><th>TPR @ 0.1% FPR</th></tr>';
  const top = report.regurgitation.rows.slice(0, 25).map((r) => `<tr><td>${esc(r.term)}</td><td>${r.kind}</td><td>${esc(r.category)}</td><td>${r.trainingOccurrences}</td><td>${r.evaluated}</td><td>${pct(r.top1)}</td><td>${pct(r.top5)}</td></tr>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ppmlm audit: ${esc(report.target.name)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;max-width:980px;margin:24px auto;padding:0 16px;color:#222}table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}.plots{display:flex;gap:24px;flex-wrap:wrap}.warn{color:#a04000}</style></head>
<body><h1>Risk audit of ${esc(report.target.name)}</h1>
<p>Created ${esc(report.createdAt)}. Strategy: <b>${esc(String(report.target.provenance?.strategy ?? 'unknown'))}</b>. Blacklist fingerprint ${esc(report.blacklistFingerprint)}.${report.reference ? ` Reference model: ${esc(report.reference.name)}.` : ''}</p>
<h2>Privacy score</h2><p>Each blacklisted occurrence of the training documents masked whole (all its subwords). <b>Per occurrence</b> (the headline): 1 − the share of occurrences the model recovers entirely top-1; <b>per subword</b>: 1 − top-1 accuracy over their subwords. 1 means nothing recovered. Intervals: 95%, the hull of a percentile bootstrap over individuals (authors) and Wilson's interval on the pooled counts, which the bootstrap cannot reach at 0 and 1.${scope}</p>
<table><tr><th>identifiers</th><th>per occurrence</th><th>95% CI</th><th>per subword</th><th>95% CI</th><th>occurrences</th><th>subwords</th><th>individuals</th></tr>${row('all', p.all)}${row('direct', p.direct)}${row('indirect', p.indirect)}${Object.entries(p.byCategory ?? {}).map(([cat, sc]) => row(esc(cat), sc)).join('')}</table>
${g ? `<h2>Gold identifiers</h2><p>The blacklist protects <b>${pct(g.recall)}</b> <small>[${interval(g.ci, pct)}]</small> of ${g.occurrences} gold identifier occurrences (every subword protected). On the ${g.missed.occurrences} it missed, which training did not protect, the privacy score is <b>${num(g.missed.score)}</b> per occurrence <small>[${interval(g.missed.ci)}]</small>, ${num(g.missed.subword.score)} per subword <small>[${interval(g.missed.subword.ci)}]</small>.</p>
<table><tr><th>gold label</th><th>occurrences</th><th>blacklist recall</th></tr>${Object.entries(g.byLabel).map(([l, x]) => `<tr><td>${esc(l)}</td><td>${x.occurrences}</td><td>${pct(x.recall)}</td></tr>`).join('')}</table>` : ''}
${c ? `<h2>Canaries against controls</h2><p>Exposure of the planted secrets minus that of control secrets from the same generator that were never planted: <b>${num(c.difference.value)} ± ${num(c.difference.se)}</b> bits (± one standard error). Planted ${num(c.planted.mean)} ± ${num(c.planted.se)} bits over ${c.planted.n} secrets in ${c.planted.clusters} clusters; control ${num(c.control.mean)} ± ${num(c.control.se)} over ${c.control.n} in ${c.control.clusters}. Standard errors are clustered by the member whose text holds the secret (a canary's name and reference share a sentence, and a member may carry several canaries), not taken per secret.${c.planted.unscored + c.control.unscored ? ` <span class="warn">${c.planted.unscored + c.control.unscored} secrets yielded no query (too long for a window) and are left out.</span>` : ''} A difference within two standard errors of 0 means no measurable memorisation of the planted secrets.</p>` : ''}
${report.exposure ? `<h2>Exposure of planted secrets</h2><p>Rank of each secret, by the model's likelihood in its training text, among fresh values of the same form (Secret Sharer): exposure log2(candidates + 1) − log2(rank) bits; 0 means no more likely than a fresh value. Mean <b>${num(report.exposure.mean)}</b> bits, max ${num(report.exposure.max)}.</p>
<table><tr><th>secret</th><th>rank</th><th>candidates</th><th>exposure (bits)</th></tr>${report.exposure.probes.map((x) => `<tr><td>${esc(x.label)}</td><td>${x.rank}</td><td>${x.candidates}</td><td>${num(x.exposure)}</td></tr>`).join('')}</table>` : ''}
<h2>Membership inference</h2><p>${m.members} member documents (training) vs ${m.nonMembers} non-member documents under fixed seeded masks (a share of the tokens and of the occurrences, each occurrence masked whole): over <i>unprotected</i> positions (what constrained training may learn), <i>protected</i> positions, and <i>all</i> of them. Scores: mean log-likelihood (loss attack), minus the reference model's (calibrated), the same with one position or occurrence masked at a time (PLL ratio, Mireshghallah et al. 2022), and offline LiRA against ${m.references} reference models (Carlini et al. 2022). Intervals: 95%, the wider of a bootstrap over individuals and an analytic interval (Newcombe for the AUC, Wilson for the TPR), which stays honest where every resample agrees. An AUC below 0.5 is a signal too: members are <i>less</i> likely than non-members (a constrained model pushes down tokens it never had as targets), and the same attack with the opposite sign reaches 1 − AUC.${m.excludedDocuments ? ` ${m.excludedDocuments} member documents carrying planted canaries are left out (their template alone would mark them as members).` : ''}${m.nonMembers < 400 ? ' <span class="warn">Fewer than 400 non-members: TPR at 1% FPR rests on few documents.</span>' : ''}</p>
<div class="plots">${rocSvg(curves)}${regurgitationSvg(report.regurgitation.rows)}</div>
<h3>Per individual</h3><p>Each individual's documents pooled into one score: the unit of privacy.</p>
<table>${miaHead}${membershipRows(m.byIndividual)}</table>
<h3>Per document</h3>
<table>${miaHead}${membershipRows(m.byDocument)}</table>
<p>Mean loss: members ${num(m.meanLoss.members)}, non-members ${num(m.meanLoss.nonMembers)}.</p>
<h2>Utility</h2><p>Fill-mask top-1 accuracy on non-blacklisted tokens of non-member documents: <b>${pct(report.utility.accuracy)}</b> over ${report.utility.positions} positions (most-frequent-token baseline ${pct(report.utility.unigramBaseline)}${report.utility.reference !== undefined ? `; reference model ${pct(report.utility.reference)}` : ''}).</p>
${report.utility.downstream ? `<p>Downstream classification (${report.utility.downstream.train} training, ${report.utility.downstream.test} test documents): macro F1 <b>${num(report.utility.downstream.macroF1)}</b>, micro F1 ${num(report.utility.downstream.microF1)}${report.utility.downstream.reference ? `; reference model macro F1 ${num(report.utility.downstream.reference.macroF1)}` : ''}.</p>` : ''}
<h2>Regurgitation</h2><p>${report.regurgitation.top1Terms} terms recovered top-1 at least once, ${report.regurgitation.top5Terms} within the top 5. ${report.regurgitation.identifiersShown ? 'Terms shown in clear (--show-identifiers).' : 'Terms shown as salted hashes; pass --show-identifiers to see them.'}</p>
<table><tr><th>term</th><th>kind</th><th>category</th><th>in training</th><th>evaluated</th><th>top-1</th><th>top-5</th></tr>${top.join('')}</table>
<h2>What this audit cannot see</h2><p>The privacy score covers the blacklist's occurrences${g ? ' and the gold identifiers' : ''}; an identifier neither marks is not measured. Recovery is tested top-1 with the occurrence masked in its own training text, not by free generation or by an attacker with side knowledge. Membership figures are lower bounds for these attacks on these non-members; intervals treat individuals as independent draws and say nothing about another population.</p>
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
