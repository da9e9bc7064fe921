/**
 * The table of bench/experiments/korean-cross-crime.sh from its `blacklist eval --json` outputs, in the
 * order the recipe measured them (OUT_DIR/rows/index.tsv: number, title), and each model's threshold:
 *   npx tsx bench/experiments/korean-cross-crime-table.ts OUT_DIR MODEL_DIR [SELF_TRAINED_MODEL_DIR...]
 * Rows measured on the halves of a cross-fitted run (titles with "half 1" and "half 2", otherwise the same)
 * are followed by both halves pooled: gold spans, detections and word characters summed, so the figure is the
 * share over every judgment, each measured with its own half's blacklist; no bootstrap ran over the pool,
 * so no interval is printed.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatProportion, type Proportion, type ProtectionEvaluation } from '../../src/audit/index.js';

const [out, ...models] = process.argv.slice(2) as [string, string, ...string[]];
const full = (r: ProtectionEvaluation, type: string) => r.types.find((t) => t.type === type)?.full;
const cell = (p: Proportion | undefined) => (p === undefined ? '–' : formatProportion(p));
const threshold = (model: string) => (JSON.parse(readFileSync(join(model, 'ppmlm.json'), 'utf8')) as { piiThreshold?: number }).piiThreshold?.toFixed(2) ?? 'none recorded';
// The output folder's own path says nothing to a reader of the table.
const shown = (title: string) => title.split(`${out.replace(/\/$/, '')}/`).join('OUT/');
const pooled = (parts: (Proportion | undefined)[]) => {
  // A half with nothing to count (no detection for a precision) adds nothing, and is NaN with n 0.
  const counted = parts.filter((p): p is Proportion => p !== undefined && p.n > 0);
  const n = counted.reduce((sum, p) => sum + p.n, 0);
  return n === 0 ? '–' : `${((100 * counted.reduce((sum, p) => sum + p.value * p.n, 0)) / n).toFixed(1)}%`;
};
const halves = new Map<string, ProtectionEvaluation[]>();
const rows: string[] = [];
for (const line of readFileSync(join(out, 'rows', 'index.tsv'), 'utf8').trim().split('\n')) {
  const [n, title] = line.split('\t') as [string, string];
  const r = JSON.parse(readFileSync(join(out, 'rows', `${n}.json`), 'utf8')) as ProtectionEvaluation;
  rows.push(`| ${shown(title)} | ${cell(full(r, 'PERSON'))} | ${cell(full(r, 'LOCATION'))} | ${cell(full(r, 'all'))} | ${cell(r.otherTextProtected)} | ${cell(r.precision)} |`);
  if (!/half [12]/.test(title)) continue;
  const key = title.replace(/half [12]/g, 'half N').replace(/-half[12]/g, '-halfN');
  const both = [...(halves.get(key) ?? []), r];
  halves.set(key, both);
  if (both.length === 2) {
    const title = shown(key).replace(/half N, /, 'both halves pooled, ');
    rows.push(`| ${title} | ${pooled(both.map((e) => full(e, 'PERSON')))} | ${pooled(both.map((e) => full(e, 'LOCATION')))} | ${pooled(both.map((e) => full(e, 'all')))} | ${pooled(both.map((e) => e.otherTextProtected))} | ${pooled(both.map((e) => e.precision))} |`);
  }
}
console.log(`Gold spans fully protected, the share of the other text's word characters protected, the precision of
direct detections, each with its 95% interval over judgments. Each model's own threshold, from its dev split: ${models.map((m) => `${basename(m)} ${threshold(m)}`).join(', ')}.

| run | persons | places | all PII spans | other text | precision |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}`);
