/**
 * Development view of the default blacklist on PhysioNet patients 1-80 only (the error-analysis half):
 *   npx tsx bench/experiments/blacklist-dev.ts ../shared/data/physionet-deid [direct|all] [misses]
 */
import { blacklistProtection, evaluateProtection } from '../../src/audit/index.js';
import { readSpanCorpus } from '../../src/corpus/index.js';
import { BlacklistMatcher, buildBlacklist, mergeSpans } from '../../src/identifiers/index.js';
import { evaluationText } from '../../src/cli/commands/blacklistEval.js';

const [dir = '../shared/data/physionet-deid', only = 'all', show = ''] = process.argv.slice(2);
const docs = (await readSpanCorpus(dir, 'physionet')).filter((d) => Number(d.id.split('/')[0]) <= 80);
const t0 = Date.now();
const { blacklist } = await buildBlacklist(docs);
console.log(`build ${((Date.now() - t0) / 1000).toFixed(1)} s, ${blacklist.entries.length} terms`);
const kind = only === 'direct' ? 'direct' : undefined;
console.log(evaluationText(await evaluateProtection(docs, blacklistProtection(blacklist, { only: kind })), `patients 1-80, ${only}`));
if (show) {
  const entries = kind ? blacklist.entries.filter((e) => e.kind === kind) : blacklist.entries;
  const m = new BlacklistMatcher(entries);
  const misses: string[] = [];
  const alarms = new Map<string, number>();
  for (const d of docs) {
    const found = await m.match(d.text);
    const cov = new Uint8Array(d.text.length);
    for (const [s, e] of mergeSpans(found)) cov.fill(1, s, e);
    for (const g of d.spans) {
      let full = true;
      for (let i = g.start; i < g.end; i++) if (/[\p{L}\p{N}]/u.test(d.text[i]!) && !cov[i]) full = false;
      if (!full) misses.push(`${g.label}\t${JSON.stringify(d.text.slice(Math.max(0, g.start - 30), g.start) + '[[' + d.text.slice(g.start, g.end) + ']]' + d.text.slice(g.end, g.end + 20))}`);
    }
    if (show === 'alarms') for (const f of found) {
      const e = entries[f.entry]!;
      if (e.kind !== 'direct' || d.spans.some((g) => g.start < f.end && f.start < g.end)) continue;
      const key = `${e.sources.join(',')} ${d.text.slice(f.start, f.end).toLowerCase()}`;
      alarms.set(key, (alarms.get(key) ?? 0) + 1);
    }
  }
  if (show === 'misses') console.log(misses.join('\n'));
  else console.log([...alarms].sort((a, b) => b[1] - a[1]).slice(0, 120).map(([k, n]) => `${n}\t${k}`).join('\n'));
}
