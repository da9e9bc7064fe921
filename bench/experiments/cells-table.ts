/**
 * The evidence rows (docs/evidence.md) from an experiment's cell reports, with the intervals `results.csv` leaves out:
 *   npx tsx bench/experiments/cells-table.ts EXPERIMENT_DIR [privacy|membership]
 * `privacy` (default): per cell, privacy per occurrence and per subword with their 95% bootstrap intervals
 * over individuals, the blacklist's recall of gold occurrences and privacy on those it missed (when the
 * experiment has gold spans), canary exposure minus control ± SE, the loss attack's AUC per individual on
 * every masked position, the unprotected and the protected ones, the calibrated attack's TPR at 1% FPR
 * (all with intervals), utility, ε.
 * `membership`: per cell, the loss attack per individual on every masked position, the unprotected and the
 * protected ones (AUC and TPR at 1% FPR with their intervals), and the reference-calibrated attack.
 * Reads only aggregate figures: no identifier is printed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VARIANTS, type AuditReport } from '../../src/audit/index.js';

const [dir, view = 'privacy'] = process.argv.slice(2);
if (dir === undefined || !['privacy', 'membership'].includes(view)) throw new Error('usage: cells-table.ts EXPERIMENT_DIR [privacy|membership]');

const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const interval = ([lo, hi]: readonly [number, number], f: (x: number) => string) => `[${f(lo)}, ${f(hi)}]`;

/** Cells in the order an experiment writes them: base first, then by strategy, seed and epochs. */
const cells = (await readdir(join(dir, 'cells')))
  .map((name) => ({ name, m: /^(.+)-e(\d+)-s(\d+)$/.exec(name) }))
  .filter((c): c is { name: string; m: RegExpExecArray } => c.m !== null)
  .map(({ name, m }) => ({ name, strategy: m[1]!, epochs: Number(m[2]), seed: Number(m[3]) }))
  .sort((a, b) => Number(b.strategy === 'base') - Number(a.strategy === 'base') || a.strategy.localeCompare(b.strategy) || a.seed - b.seed || a.epochs - b.epochs);

if (view === 'privacy') {
  console.log('| strategy | epochs | seed | privacy per occurrence [95% CI] | per subword [95% CI] | gold recall [95% CI] | privacy on gold missed | canary − control (bits) ± SE | MIA AUC per individual, all [95% CI] | unprotected [95% CI] | protected [95% CI] | calibrated TPR@1%FPR [95% CI] | utility | ε |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
} else {
  console.log('| strategy | epochs | seed | members / non-members | AUC all [95% CI] | TPR@1%FPR all [95% CI] | AUC unprotected | AUC protected [95% CI] | TPR@1%FPR protected | calibrated AUC [95% CI] | calibrated TPR@1%FPR [95% CI] |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
}
for (const cell of cells) {
  let report: AuditReport;
  try {
    report = JSON.parse(await readFile(join(dir, 'cells', cell.name, 'report.json'), 'utf8')) as AuditReport;
  } catch {
    continue; // a cell still being audited
  }
  const head = `| ${cell.strategy} | ${cell.epochs} | ${cell.seed} |`;
  const individual = report.membership.byIndividual;
  if (view === 'privacy') {
    const p = report.privacy.all;
    const gold = report.gold ? `${f2(report.gold.recall)} ${interval(report.gold.ci, f2)} | ${f3(report.gold.missed.score)}` : ' | ';
    const canary = report.canaries ? `${f2(report.canaries.difference.value)} ± ${f2(report.canaries.difference.se)}` : '';
    const mia = VARIANTS.map((v) => individual[v]).map((r) => (r ? `${f2(r.loss.auc)} ${interval(r.loss.ci.auc, f2)}` : '')).join(' | ');
    const cal = individual.all?.calibrated;
    const eps = report.target.provenance?.dp?.epsilon;
    console.log(
      `${head} ${f3(p.score)} ${interval(p.ci, f3)} | ${f3(p.subword.score)} ${interval(p.subword.ci, f3)} | ${gold} | ${canary} | ${mia} | ` +
        `${cal ? `${pct(cal.tprAt1)} ${interval(cal.ci.tprAt1, pct)}` : ''} | ${f3(report.utility.accuracy)} | ${eps === undefined ? '' : f2(eps)} |`,
    );
  } else {
    const [all, unprotected, protectedOnly] = VARIANTS.map((v) => individual[v]);
    if (all === undefined) continue;
    const cal = all.calibrated;
    console.log(
      `${head} ${all.members} / ${all.nonMembers} | ${f2(all.loss.auc)} ${interval(all.loss.ci.auc, f2)} | ${pct(all.loss.tprAt1)} ${interval(all.loss.ci.tprAt1, pct)} | ` +
        `${unprotected ? f2(unprotected.loss.auc) : ''} | ${protectedOnly ? `${f2(protectedOnly.loss.auc)} ${interval(protectedOnly.loss.ci.auc, f2)}` : ''} | ${protectedOnly ? pct(protectedOnly.loss.tprAt1) : ''} | ` +
        `${cal ? `${f2(cal.auc)} ${interval(cal.ci.auc, f2)}` : ''} | ${cal ? `${pct(cal.tprAt1)} ${interval(cal.ci.tprAt1, pct)}` : ''} |`,
    );
  }
}
