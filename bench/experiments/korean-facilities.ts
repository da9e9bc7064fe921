/**
 * The Korean recognisers alone on the violence judgments (the type the Korean rules are read on), by
 * selection: what keeping the facilities (`korean-facilities`) buys when a standard leaves the Korean
 * places and the dates out, as Thunder-DeID's gold does:
 *   npx tsx bench/experiments/korean-facilities.ts ../shared/data > bench/experiments/korean-facilities/results.md
 * The judgments are filled with surrogates as the cross-crime recipe fills its gold (`deid generate`, seed 7,
 * Thunder-DeID's replacement map), and measured on the spans that hold text (placeholders.ts) and on all
 * PII spans. Direct terms only, every term everywhere, mecab; intervals 95% over judgments.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blacklistProtection, evaluateProtection } from '../../src/audit/index.js';
import { goldType } from '../../src/corpus/index.js';
import { buildBlacklist, defaultRecognizers } from '../../src/identifiers/index.js';
import { analyzerForLanguage } from '../../src/text/index.js';
import { pct } from './physionetSplit.js';
import { withoutPlaceholders } from './placeholders.js';
import { thunderGold } from './thunderGold.js';

const data = process.argv[2] ?? '../shared/data';
const thunder = join(data, 'thunder-deid');
const tmp = await mkdtemp(join(tmpdir(), 'ppmlm-facilities-'));
const analyzer = analyzerForLanguage('ko', 'mecab');
try {
  const all = await thunderGold(thunder, join(tmp, 'violence.jsonl'), { crime: 'crime_of_violence', replaceMap: true, seed: 7 });
  const text = withoutPlaceholders(all);
  console.log('| recognisers (`--recognizers`) | spans holding text | their other text | all PII spans | their other text |\n|---|---:|---:|---:|---:|');
  for (const [label, selection] of [
    ['every rule but dates, Korean places and facilities', '-DATE,-korean-places,-korean-facilities'],
    ['every rule but dates and Korean places (facilities kept)', '-DATE,-korean-places'],
    ['every rule but dates', '-DATE'],
  ]) {
    // One build per selection: the two golds hold the same texts, only their spans differ.
    const { blacklist } = await buildBlacklist(all, { ...(analyzer && { analyzer }), recognizers: defaultRecognizers(selection, analyzer) });
    const protect = blacklistProtection(blacklist, { only: 'direct', analyzer });
    const row: string[] = [];
    for (const docs of [text, all]) {
      const e = await evaluateProtection(docs, protect, { typeOf: goldType });
      row.push(pct(e.types.find((t) => t.type === 'all')?.full), pct(e.otherTextProtected));
    }
    console.log(`| ${label} (\`${selection}\`) | ${row.join(' | ')} |`);
  }
} finally {
  await analyzer?.close();
  await rm(tmp, { recursive: true, force: true });
}
