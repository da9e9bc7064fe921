/**
 * How many planted canary occurrences the blacklist matcher finds, canary by canary: the check that a
 * constrained run's canaries were protected positions and not ordinary prediction targets.
 *   npx tsx bench/experiments/canary-matches.ts MEMBERS.jsonl CONFIG.json
 * MEMBERS is the experiment's member corpus (judgments-evidence/run.sh writes it), CONFIG its config.json:
 * the canaries are planted as `ppmlm experiment` plants them and matched as its fine-tuning and audits match
 * them (the config's `lang` and `analyzer`). Prints no document text; the canaries are invented.
 */
import { loadCorpus } from '../../src/corpus/index.js';
import { canaryCounts, plantCanaries } from '../../src/experiment/canaries.js';
import { BlacklistMatcher, canonicalTerm } from '../../src/identifiers/index.js';
import { createKoreanAnalyzer, type Language } from '../../src/text/index.js';
import { readExperimentConfig } from '../../src/experiment/config.js';

const [membersPath, configPath] = process.argv.slice(2);
if (membersPath === undefined || configPath === undefined) throw new Error('usage: canary-matches.ts MEMBERS.jsonl CONFIG.json');
const config = await readExperimentConfig(configPath);
if (config.canaries === undefined) throw new Error(`${configPath} plants no canaries`);
const lang: Language = config.lang ?? 'auto';
const analyzer = lang === 'en' ? undefined : createKoreanAnalyzer(config.analyzer ?? 'auto', (why) => console.error(why));
try {
  const { docs, entries, probes } = plantCanaries(await loadCorpus(membersPath, config.columns === undefined ? {} : { columns: config.columns }), config.canaries);
  const { repeats } = canaryCounts(config.canaries);
  const matcher = new BlacklistMatcher(entries);
  const found = entries.map(() => 0);
  for (const doc of docs) for (const m of await matcher.match(doc.text, analyzer)) found[m.entry]!++;
  console.log(`analyser: ${analyzer?.name ?? 'none (lang en)'}`);
  console.log('| canary | secret | planted | matched |\n|---|---|---:|---:|');
  // Named by their probes' labels: entry order is no guide once a protected sentence adds its context words.
  const labelOf = new Map(probes.map((p) => [canonicalTerm(p.secret), p.label.replace(/^canary /, '')]));
  entries.forEach((e, i) => console.log(`| ${labelOf.get(e.term) ?? 'sentence context'} | ${e.term} | ${e.category === 'CANARY' ? repeats : '-'} | ${found[i]} |`));
  const secrets = entries.flatMap((e, i) => (e.category === 'CANARY' ? [found[i]!] : []));
  console.log(`matched ${secrets.reduce((a, b) => a + b, 0)} of ${secrets.length * repeats} planted secret occurrences`);
} finally {
  await analyzer?.close();
}
