/**
 * `npm run bench [-- suite...]`: speed and memory figures, each against a baseline measured in the
 * same run (this machine is shared and noisy, so only ratios are comparable across runs).
 */
import { renderTable, type BenchRow, type BenchSuite } from './table.js';
import { matmulSuite } from './suites/matmul.js';
import { csvSuite } from './suites/csv.js';
import { blacklistSuite } from './suites/blacklist.js';
import { mecabSuite } from './suites/mecab.js';
import { trainingSuite } from './suites/training.js';
import { maskingSuite } from './suites/masking.js';

const SUITES: BenchSuite[] = [matmulSuite, trainingSuite, maskingSuite, csvSuite, blacklistSuite, mecabSuite];

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
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
