/**
 * Tried, not adopted: dropping a term only public-ner-en found when many of the corpus's individuals write
 * it (a word of the corpus's vocabulary, not one person's name), on the development sets only (PhysioNet
 * patients 1-80 with the default blacklist, WNUT17's dev file with direct terms):
 *   npx tsx bench/experiments/model-spread.ts ../shared/data notes|wnut-dev [THRESHOLD]
 * Prints the rules alone, the blacklist with the model as built, then without the model-only terms that at least max(floor, share × individuals)
 * individuals write, for shares 0.02, 0.05, 0.1 and floors 3, 5.
 */
import { blacklistProtection, evaluateProtection, formatProportion } from '../../src/audit/index.js';
import { readSpanCorpus, type SpanDocument } from '../../src/corpus/index.js';
import { DeidModelRecognizer, resolveModelDir } from '../../src/deid/index.js';
import { selectBackend } from '../../src/engine/index.js';
import { BlacklistMatcher, buildBlacklist, defaultRecognizers, MODEL_SOURCE, type Blacklist } from '../../src/identifiers/index.js';
import { developmentNotes } from './physionetSplit.js';

const [data = '../shared/data', which = 'notes', threshold] = process.argv.slice(2);
await selectBackend('auto');
const docs: SpanDocument[] =
  which === 'notes'
    ? developmentNotes(await readSpanCorpus(`${data}/physionet-deid`, 'physionet'))
    : await readSpanCorpus(`${data}/english-ner/WNUT17/CONLL-format/data/dev/emerging.dev.conll`, 'conll');
const model = await DeidModelRecognizer.load(resolveModelDir('public-ner-en'), undefined, threshold === undefined ? {} : { piiThreshold: Number(threshold) });
const built = await buildBlacklist(docs, { recognizers: [...defaultRecognizers(), model] });
await built.engine.close();
await model.close();
const list: Blacklist = which === 'notes' ? built.blacklist : { ...built.blacklist, entries: built.blacklist.entries.filter((e) => e.kind === 'direct') };
const modelOnly = list.entries.filter((e) => e.kind === 'direct' && e.sources.every((s) => s.startsWith(MODEL_SOURCE)));
const matcher = new BlacklistMatcher(modelOnly);
const writers = modelOnly.map(() => new Set<string>());
for (const d of docs) for (const f of await matcher.match(d.text)) writers[f.entry]!.add(d.author);
const individuals = new Set(docs.map((d) => d.author)).size;

async function row(label: string, blacklist: Blacklist): Promise<void> {
  const ev = await evaluateProtection(docs, blacklistProtection(blacklist));
  const full = (type: string) => {
    const r = ev.types.find((t) => t.type === type);
    return r ? formatProportion(r.full) : '–';
  };
  console.log(`| ${label} | ${full('PERSON')} | ${full('LOCATION')} | ${full('all')} | ${formatProportion(ev.otherTextProtected)} |`);
}
console.log(`${which}, threshold ${model.piiThreshold}, ${individuals} individuals, ${modelOnly.length} terms only the model found\n`);
console.log('| blacklist | persons | places | all gold spans | other text |\n|---|---:|---:|---:|---:|');
const rules = await buildBlacklist(docs);
await rules.engine.close();
await row('the rules alone', which === 'notes' ? rules.blacklist : { ...rules.blacklist, entries: rules.blacklist.entries.filter((e) => e.kind === 'direct') });
await row('with the model, as built', list);
for (const share of [0.02, 0.05, 0.1]) {
  for (const floor of [3, 5]) {
    const limit = Math.max(floor, Math.ceil(share * individuals));
    const dropped = new Set(modelOnly.filter((_, i) => writers[i]!.size >= limit).map((e) => e.term));
    await row(`without the ${dropped.size} written by ≥ ${limit} individuals (share ${share}, floor ${floor})`, { ...list, entries: list.entries.filter((e) => !dropped.has(e.term)) });
  }
}
