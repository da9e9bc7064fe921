/**
 * `npm run bench [-- suite...] [-- --threads N] [-- --models BERT-base,DistilRoBERTa,RoBERTa-large] [-- --tokenizer-corpus FILE [--tokenizer-text-col C]] [-- --physionet DIR --deid-pl DIR]`: speed and memory figures, each
 * against a baseline measured in the same run (this machine is shared and noisy, so only ratios are
 * comparable across runs). `--threads` sets the wasm backend's threads (default: every core, at most 8);
 * `--tokenizer-corpus` trains the tokenizer suite on a corpus file instead of the bundled examples;
 * `--physionet DIR` and `--deid-pl DIR` (or PPMLM_DEID_PL) give the recognizers suite its notes and its peer.
 */
import { renderTable, type BenchRow, type BenchSuite } from './table.js';
import { matmulSuite } from './suites/matmul.js';
import { csvSuite } from './suites/csv.js';
import { blacklistSuite } from './suites/blacklist.js';
import { mecabSuite } from './suites/mecab.js';
import { realModelsSuite, trainingSuite } from './suites/training.js';
import { maskingSuite } from './suites/masking.js';
import { tokenizerSuite } from './suites/tokenizer.js';
import { webgpuSuite } from './suites/webgpu.js';
import { recognizersSuite } from './suites/recognizers.js';
import { reviewSuite } from './suites/review.js';
import { MAX_WASM_THREADS, setWasmThreads } from '../src/engine/index.js';
import { parseIntFlag } from '../src/cli/parseFlags.js';

const args = process.argv.slice(2);
const threadsAt = args.indexOf('--threads');
if (threadsAt >= 0) setWasmThreads(parseIntFlag(args.splice(threadsAt, 2)[1], '--threads', { min: 1, max: MAX_WASM_THREADS }));
const flagValue = (flag: string) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const tokenizerCorpus = flagValue('--tokenizer-corpus');
const tokenizerTextCol = flagValue('--tokenizer-text-col');
const physionet = flagValue('--physionet');
const deidPl = flagValue('--deid-pl');
const models = flagValue('--models')?.split(',');

const SUITES: BenchSuite[] = [matmulSuite, trainingSuite, realModelsSuite(models), webgpuSuite, maskingSuite, csvSuite, blacklistSuite, recognizersSuite(physionet, deidPl), mecabSuite, tokenizerSuite(tokenizerCorpus, tokenizerTextCol), reviewSuite];
const wanted = args.filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !SUITES.some((s) => s.name === w));
if (unknown.length > 0) {
  console.error(`unknown suite(s) ${unknown.join(', ')}; available: ${SUITES.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const rows: BenchRow[] = [];
for (const suite of SUITES) {
  if (wanted.length > 0 && !wanted.includes(suite.name)) continue;
  rows.push(...(await suite.run((msg) => console.error(`[bench] ${msg}`))));
}
console.log(renderTable(rows));
