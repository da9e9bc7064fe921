/**
 * The table of bench/experiments/korean-cross-crime.sh from its `blacklist eval --json` outputs, in the
 * order the recipe measured them (OUT_DIR/rows/index.tsv: number, title):
 *   npx tsx bench/experiments/korean-cross-crime-table.ts OUT_DIR MODEL_DIR
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProportion, type ProtectionEvaluation } from '../../src/audit/index.js';

const [out, model] = process.argv.slice(2) as [string, string];
const full = (r: ProtectionEvaluation, type: string) => {
  const row = r.types.find((t) => t.type === type);
  return row === undefined ? '–' : formatProportion(row.full);
};
const own = JSON.parse(readFileSync(join(model, 'ppmlm.json'), 'utf8')) as { piiThreshold?: number };
const rows = readFileSync(join(out, 'rows', 'index.tsv'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => {
    const [n, title] = line.split('\t') as [string, string];
    const r = JSON.parse(readFileSync(join(out, 'rows', `${n}.json`), 'utf8')) as ProtectionEvaluation;
    // The output folder's own path says nothing to a reader of the table.
    return `| ${title.split(`${out.replace(/\/$/, '')}/`).join('OUT/')} | ${full(r, 'PERSON')} | ${full(r, 'LOCATION')} | ${full(r, 'all')} | ${formatProportion(r.otherTextProtected)} | ${formatProportion(r.precision)} |`;
  });
console.log(`Gold spans fully protected, the share of the other text's word characters protected, the precision of
direct detections, each with its 95% interval over judgments. The model's own threshold, from its dev split: ${own.piiThreshold?.toFixed(2) ?? 'none recorded'}.

| run | persons | places | all PII spans | other text | precision |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}`);
