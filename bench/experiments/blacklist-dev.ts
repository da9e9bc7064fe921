/**
 * Error analysis of the default blacklist on PhysioNet patients 1-80 only (the development half; patients
 * 81-163 stay untouched):
 *   npx tsx bench/experiments/blacklist-dev.ts ../shared/data/physionet-deid [misses|alarms|collateral]
 * misses: gold spans not fully protected, in context; alarms: direct detections outside gold, by source;
 * collateral: word characters outside gold protected, by the kind of term that protects them.
 */
import { blacklistProtection, evaluateProtection } from '../../src/audit/index.js';
import { readSpanCorpus } from '../../src/corpus/index.js';
import { BlacklistMatcher, buildBlacklist, publicLists } from '../../src/identifiers/index.js';
import { evaluationText } from '../../src/cli/commands/blacklistEval.js';
import { developmentNotes } from './physionetSplit.js';

const [dir = '../shared/data/physionet-deid', show = ''] = process.argv.slice(2);
const docs = developmentNotes(await readSpanCorpus(dir, 'physionet'));
const { blacklist } = await buildBlacklist(docs);
console.log(evaluationText(await evaluateProtection(docs, blacklistProtection(blacklist)), 'patients 1-80, default'));
const lists = publicLists();
const kindOf = (term: string) =>
  term.includes(' ') ? 'n-gram' : /\d/.test(term) ? 'unigram with digits' : lists.rareWords.has(term) ? 'unigram, rarer English word' : lists.firstNames.has(term) || lists.lastNames.has(term) ? 'unigram, listed name' : 'unigram, in no list';
const m = new BlacklistMatcher(blacklist.entries);
const misses: string[] = [];
const tally = new Map<string, number>();
for (const d of docs) {
  const found = await m.match(d.text);
  const owner = new Array<string | undefined>(d.text.length);
  for (const f of found) {
    const e = blacklist.entries[f.entry]!;
    const key = show === 'indirect' ? (e.kind === 'indirect' && !e.term.includes(' ') ? `${kindOf(e.term)}: ${e.term}` : 'other') : show === 'alarms' ? `${e.sources.join(',')} ${d.text.slice(f.start, f.end).toLowerCase()}` : e.kind === 'direct' ? `direct ${e.sources[0]}` : `indirect ${kindOf(e.term)}`;
    for (let i = f.start; i < f.end; i++) owner[i] ??= key;
  }
  const gold = new Uint8Array(d.text.length);
  for (const g of d.spans) gold.fill(1, g.start, g.end);
  if (show === 'gain') {
    const direct = new Uint8Array(d.text.length);
    for (const f of found) if (blacklist.entries[f.entry]!.kind === 'direct') direct.fill(1, f.start, f.end);
    for (const g of d.spans) {
      const chars = [...Array(g.end - g.start).keys()].map((k) => g.start + k).filter((i) => /[\p{L}\p{N}]/u.test(d.text[i]!));
      if (chars.every((i) => direct[i]) || !chars.every((i) => owner[i] !== undefined)) continue;
      const kinds = new Set(chars.filter((i) => !direct[i]).map((i) => owner[i]!));
      for (const k of kinds) tally.set(`${g.label} ${k}`, (tally.get(`${g.label} ${k}`) ?? 0) + 1);
    }
  }
  for (const g of d.spans) {
    let full = true;
    for (let i = g.start; i < g.end; i++) if (/[\p{L}\p{N}]/u.test(d.text[i]!) && owner[i] === undefined) full = false;
    if (!full) misses.push(`${g.label}\t${JSON.stringify(d.text.slice(Math.max(0, g.start - 30), g.start) + '[[' + d.text.slice(g.start, g.end) + ']]' + d.text.slice(g.end, g.end + 20))}`);
  }
  if (show !== 'gain') for (let i = 0; i < d.text.length; i++) if (!gold[i] && owner[i] !== undefined && /[\p{L}\p{N}]/u.test(d.text[i]!)) tally.set(owner[i]!, (tally.get(owner[i]!) ?? 0) + 1);
}
if (show === 'misses') console.log(misses.join('\n'));
else if (show) console.log([...tally].sort((a, b) => b[1] - a[1]).slice(0, 80).map(([k, n]) => `${n}\t${k}`).join('\n'));
