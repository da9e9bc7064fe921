/**
 * The table of bench/experiments/public-ner-recogniser.sh from its `blacklist eval --json` outputs:
 *   npx tsx bench/experiments/public-ner-table.ts OUT_DIR
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProportion, type ProtectionEvaluation } from '../../src/audit/index.js';

const out = process.argv[2]!;
const read = (name: string) => JSON.parse(readFileSync(join(out, `${name}.json`), 'utf8')) as ProtectionEvaluation;
const full = (r: ProtectionEvaluation, type: string) => formatProportion(r.types.find((t) => t.type === type)!.full);
const other = (r: ProtectionEvaluation) => formatProportion(r.otherTextProtected);
const all = (r: ProtectionEvaluation) => full(r, 'all');
const own = JSON.parse(readFileSync(join(out, 'model', 'ppmlm.json'), 'utf8'));

const rows = [
  '| direct terms | wikigold persons | wikigold places | wikigold other text | WNUT17 test persons | WNUT17 test places | WNUT17 test other text | PhysioNet all spans (default blacklist) | PhysioNet other text |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
];
// The thresholds the recipe measured, read from its outputs (one list, in the recipe), lowest first.
const thresholdOf = (t: string) => (t === 'own' ? own.piiThreshold : Number(t));
const thresholds = readdirSync(out)
  .map((f) => /^wikigold-(own|[\d.]+)\.json$/.exec(f)?.[1])
  .filter((t): t is string => t !== undefined)
  .sort((a, b) => thresholdOf(a) - thresholdOf(b));
const label = (t: string) =>
  t === 'rules' ? 'the rules alone' : t === 'own-every' ? `the rules and the model at its own threshold, every term it found (\`--model-agreement 0\`)` : `the rules and the model at ${t === 'own' ? `${own.piiThreshold.toFixed(3)} (its own)` : t}`;
for (const t of ['rules', ...thresholds, 'own-every']) {
  const [w, n, p] = [read(`wikigold-${t}`), read(`wnut17-test-${t}`), read(`physionet-${t}`)];
  rows.push(`| ${label(t)} | ${full(w, 'PERSON')} | ${full(w, 'LOCATION')} | ${other(w)} | ${full(n, 'PERSON')} | ${full(n, 'LOCATION')} | ${other(n)} | ${all(p)} | ${other(p)} |`);
}
const alone = read('wikigold-model-alone');
const [devRules, devOwn] = [read('wnut17-dev-rules'), read('wnut17-dev-own')];
const seconds = readFileSync(join(out, 'train-seconds.txt'), 'utf8').trim();
console.log(`# The public NER recogniser (models/public-ner-en) beside the rules

Trained with ${own.surrogateMentions ?? 0} surrogate-mention copies per epoch, ${own.epochs} epochs, ${own.split.documents.train} training sentences (${seconds} on 2 CPU cores); its dev split chose the threshold ${own.piiThreshold.toFixed(3)} (binary F1 ${own.calibration.binaryF1.toFixed(3)}).
Percentages of gold spans fully protected, or of the word characters outside gold spans; 95% bootstrap intervals over
wikigold's articles, WNUT17's tweets and the notes' patients. A term only the model found enters where the model
marked at least 0.2 of its occurrences in the corpus (\`--model-agreement\`, the default), but in the last row.

${rows.join('\n')}

The model alone on wikigold (no rule): persons ${full(alone, 'PERSON')}, places ${full(alone, 'LOCATION')}, other text ${other(alone)}.

On WNUT17's dev file, where the settings were chosen: the rules alone persons ${full(devRules, 'PERSON')}, places ${full(devRules, 'LOCATION')}, other text ${other(devRules)}; with the model at its own threshold ${full(devOwn, 'PERSON')}, ${full(devOwn, 'LOCATION')}, ${other(devOwn)}.`);
