/**
 * How large a share of the fine-tuning text each planted canary secret is, and which kind of secret carries
 * the leak (issue #19: why the judgments leak through the tied embeddings and the nursing notes do not):
 *   npx tsx bench/experiments/canary-dose.ts MEMBERS CONFIG MODEL_DIR [REPORT.json ...]
 * MEMBERS and CONFIG are an experiment's member corpus and config (the canaries are planted as `ppmlm
 * experiment` plants them), MODEL_DIR the model whose tokenizer fine-tuning uses, each REPORT a cell's
 * report.json. Prints the member text's tokens, the planted secrets' tokens, the share of the text one
 * secret's copies take, and per kind of secret its subwords and how often they occur outside the secrets;
 * then per report the exposure of planted minus control secrets by kind ± SE. Prints no document text;
 * the canaries are invented.
 */
import { readFile } from 'node:fs/promises';
import { exposureDifference, type AuditReport } from '../../src/audit/index.js';
import { loadCorpus } from '../../src/corpus/index.js';
import { CANARY_SECRET_KINDS, canaryCounts, plantCanaries, secretKindOf, type PlantedSpan } from '../../src/experiment/canaries.js';
import { readExperimentConfig } from '../../src/experiment/config.js';
import { readProvenance } from '../../src/model/index.js';
import { analyzerForLanguage } from '../../src/text/index.js';
import { loadTokenizer, morphemesFor, tokenizeAtMorphemes } from '../../src/tokenizer/index.js';

const [membersPath, configPath, modelDir, ...reportPaths] = process.argv.slice(2);
if (membersPath === undefined || configPath === undefined || modelDir === undefined) throw new Error('usage: canary-dose.ts MEMBERS CONFIG MODEL_DIR [REPORT.json ...]');
const config = await readExperimentConfig(configPath);
if (config.canaries === undefined) throw new Error(`${configPath} plants no canaries`);
const planted = plantCanaries(await loadCorpus(membersPath, config.columns === undefined ? {} : { columns: config.columns }), config.canaries);
const tokenizer = await loadTokenizer(modelDir);
const { docs } = planted;
// The secrets are what the probes rank; a protected sentence's context words are not secrets.
const secrets = planted.probes;
const spans = planted.spans.filter((s) => secretKindOf(s.label) !== undefined);
const { count, repeats } = canaryCounts(config.canaries);
// Read as fine-tuning reads it: cut into morphemes where the vocabulary was learnt on them.
const analyzer = analyzerForLanguage(config.lang ?? 'auto', config.analyzer);
const { morphemes } = morphemesFor((await readProvenance(modelDir))?.vocabulary?.morphemes, analyzer, docs.map((d) => d.text));
const tokenize = (text: string) => tokenizeAtMorphemes(tokenizer, text, morphemes);

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Tokens of the member text as fine-tuning reads it, split into those inside a planted secret and the rest.
const outside = new Map<number, number>();
let total = 0;
let inSecrets = 0;
const overlaps = (s: PlantedSpan, [a, b]: readonly [number, number]) => a < s.end && b > s.start;
for (const [d, doc] of docs.entries()) {
  const mine = spans.filter((s) => s.doc === d);
  const { ids, offsets } = await tokenize(doc.text);
  total += ids.length;
  ids.forEach((id, i) => {
    if (mine.some((s) => overlaps(s, offsets[i]!))) inSecrets++;
    else outside.set(id, (outside.get(id) ?? 0) + 1);
  });
}
console.log(`${docs.length} member documents (${new Set(spans.map((s) => s.doc)).size} with canaries), ${total} tokens; ${count} canaries x ${repeats} copies: ${inSecrets} tokens in planted secrets (${((100 * inSecrets) / total).toFixed(1)}% of the text), one secret's copies ${((100 * inSecrets) / secrets.length / total).toFixed(3)}% on average`);
console.log('| kind | subwords per secret | median occurrences of a secret subword outside the secrets | secrets with every subword rarer than 10 outside |\n|---|---:|---:|---:|');
for (const kind of CANARY_SECRET_KINDS) {
  const pieces = await Promise.all(secrets.filter((p) => secretKindOf(p.label) === kind).map(async (p) => (await tokenize(p.secret)).ids.map((id) => outside.get(id) ?? 0)));
  console.log(`| ${kind} | ${mean(pieces.map((p) => p.length)).toFixed(1)} | ${median(pieces.flat())} | ${pieces.filter((p) => Math.max(...p) < 10).length} of ${pieces.length} |`);
}
await analyzer?.close();

if (reportPaths.length > 0) {
  console.log('\n| report | name: planted − control (bits) ± SE | reference: planted − control ± SE |\n|---|---:|---:|');
  for (const path of reportPaths) {
    const report = JSON.parse(await readFile(path, 'utf8')) as AuditReport;
    if (report.exposure === undefined || report.canaries === undefined) throw new Error(`${path}: the report has no canary exposure against controls`);
    const byKind = (probes: readonly { label: string; exposure: number; cluster?: string }[], kind: string) => probes.filter((p) => secretKindOf(p.label) === kind);
    const cells = CANARY_SECRET_KINDS.map((kind) => exposureDifference(byKind(report.exposure!.probes, kind), byKind(report.canaries!.control.probes, kind)).difference);
    console.log(`| ${path} | ${cells.map((d) => `${d.value.toFixed(2)} ± ${d.se.toFixed(2)}`).join(' | ')} |`);
  }
}
