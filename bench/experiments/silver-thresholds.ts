/**
 * The default blacklist with a silver-trained recogniser (bench/experiments/silver-recogniser.sh) at
 * several probability thresholds, on PhysioNet patients 1-80 (where a threshold may be chosen) and 81-163
 * (untouched), against the rules alone:
 *   npx tsx bench/experiments/silver-thresholds.ts ../shared/data/physionet-deid MODEL_DIR [0.28,0.5,0.7,0.9,0.95,0.99]
 */
import { blacklistProtection, evaluateProtection, type ProtectionEvaluation } from '../../src/audit/index.js';
import { readSpanCorpus } from '../../src/corpus/index.js';
import { DeidModelRecognizer } from '../../src/deid/index.js';
import { selectBackend } from '../../src/engine/index.js';
import { buildBlacklist, defaultRecognizers } from '../../src/identifiers/index.js';
import { pct, physionetParts } from './physionetSplit.js';

const [dir = '../shared/data/physionet-deid', modelDir, list = '0.28,0.5,0.7,0.9,0.95,0.99'] = process.argv.slice(2);
if (modelDir === undefined) throw new Error('usage: silver-thresholds.ts PHYSIONET_DIR MODEL_DIR [THRESHOLDS]');
await selectBackend('auto');
const notes = await readSpanCorpus(dir, 'physionet');
const parts = physionetParts(notes);
const type = (e: ProtectionEvaluation, t: string) => e.types.find((r) => r.type === t)?.full;
console.log('| notes | recognisers | all spans | names | locations | dates | other text protected | build s |\n|---|---|---:|---:|---:|---:|---:|---:|');
for (const threshold of [undefined, ...list.split(',').map(Number)]) {
  const model = threshold === undefined ? undefined : await DeidModelRecognizer.load(modelDir, undefined, { piiThreshold: threshold });
  for (const [name, docs] of parts) {
    const t0 = Date.now();
    const { blacklist, engine } = await buildBlacklist(docs, { recognizers: [...defaultRecognizers(), ...(model ? [model] : [])] });
    await engine.close();
    const seconds = (Date.now() - t0) / 1000;
    const e = await evaluateProtection(docs, blacklistProtection(blacklist));
    const label = threshold === undefined ? 'the rules (default)' : `the rules + the silver model at ${threshold}`;
    console.log(`| ${name} | ${label} | ${pct(type(e, 'all'))} | ${pct(type(e, 'PERSON'))} | ${pct(type(e, 'LOCATION'))} | ${pct(type(e, 'DATE'))} | ${pct(e.otherTextProtected)} | ${seconds.toFixed(0)} |`);
  }
}
