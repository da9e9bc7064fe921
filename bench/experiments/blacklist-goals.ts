/**
 * The default blacklist against gold identifiers on public corpora, with the figures `ppmlm blacklist eval`
 * prints (same library calls), and the trade-off of the indirect rule:
 *   npx tsx bench/experiments/blacklist-goals.ts ../shared/data > bench/experiments/blacklist-goals/results.md
 * PhysioNet rows: patients 1-80 (where the rules were developed and errors analysed), 81-163 (untouched),
 * all; KMOU-NER likewise: the first 400 files (read for errors), the others (untouched), all. Each build
 * sees only the documents of its row. Intervals: 95% over individuals.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzerForLanguage } from '../../src/text/index.js';
import { blacklistProtection, evaluateProtection, occurrenceProtection, ownTextProtection, type ProtectionEvaluation } from '../../src/audit/index.js';
import { goldType, readSpanCorpus, type SpanDocument } from '../../src/corpus/index.js';
import { buildBlacklist, defaultRecognizers, readCorpusReference, type BuildBlacklistOptions, type PublicReference } from '../../src/identifiers/index.js';
import { readKmou } from './kmou.js';
import { withoutPlaceholders } from './placeholders.js';
import { thunderGold } from './thunderGold.js';
import { pct, physionetParts } from './physionetSplit.js';

const data = process.argv[2] ?? '../shared/data';
const type = (e: ProtectionEvaluation, t: string) => e.types.find((r) => r.type === t);

async function measure(docs: SpanDocument[], options: BuildBlacklistOptions & { only?: 'direct'; occurrences?: boolean }, typeOf = goldType) {
  const t0 = Date.now();
  const { blacklist } = await buildBlacklist(docs, options);
  const seconds = (Date.now() - t0) / 1000;
  // The matcher reads Korean words with the build's analyser, as fine-tuning and `blacklist eval` do.
  const protect = options.occurrences ? occurrenceProtection(options.recognizers ?? defaultRecognizers(), blacklist, { analyzer: options.analyzer }) : blacklistProtection(blacklist, { only: options.only, analyzer: options.analyzer });
  return { e: await evaluateProtection(docs, protect, { typeOf }), seconds, protect };
}

/** Each patient's own text against public data only: the protection DP allows (`--protect-own-text`). */
async function measureOwnText(docs: SpanDocument[], reference?: PublicReference) {
  const t0 = Date.now();
  const protect = await ownTextProtection(docs, { reference });
  const seconds = (Date.now() - t0) / 1000;
  return { e: await evaluateProtection(docs, protect, { typeOf: goldType }), seconds };
}

const out: string[] = [];
/** Rows of the last table: what protects the other text, for the rows whose other text a goal bounds. */
const composition: string[] = [];
const compose = (name: string, e: ProtectionEvaluation) =>
  composition.push(`| ${name} | ${pct(e.otherTextProtected)} | ${e.otherTextProtectedBy.filter((b) => b.share.value >= 0.0005).slice(0, 5).map((b) => `${b.protectedBy} ${(100 * b.share.value).toFixed(1)}`).join(', ')} |`);
const row = (name: string, label: string, e: ProtectionEvaluation, seconds: number) => `| ${name} | ${label} | ${type(e, 'all')?.gold} | ${pct(type(e, 'all')?.full)} | ${pct(type(e, 'PERSON')?.full)} | ${pct(type(e, 'LOCATION')?.full)} | ${pct(type(e, 'DATE')?.full)} | ${pct(e.otherTextProtected)} | ${seconds.toFixed(1)} |`;
const abstracts = await readCorpusReference(join(data, 'medical-abstracts', 'medical_tc_test.csv'), { textCol: 'medical_abstract' });
const physionet = await readSpanCorpus(join(data, 'physionet-deid'), 'physionet');
const parts = physionetParts(physionet);
out.push('### PhysioNet nursing notes (gold PHI, author = patient)', '', '| notes | blacklist | gold spans | all spans | names | locations | dates | other text protected | build s |', '|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [name, docs] of parts) {
  for (const [label, options] of [['recognisers alone', { only: 'direct' as const }], ['default (recognisers + indirect)', {}]] as const) {
    const { e, seconds } = await measure(docs, options);
    out.push(row(name, label, e, seconds));
    if (name === 'all 163 patients') compose(`PhysioNet, all 163 patients, ${label}`, e);
  }
  for (const [label, reference] of [['own text only (DP-compatible)', undefined], ['own text only, medical abstracts as reference', abstracts]] as const) {
    const { e, seconds } = await measureOwnText(docs, reference);
    out.push(row(name, label, e, seconds));
  }
}
out.push('', '### Trade-off on all 163 patients: recall against the share of the other text protected', '', '| setting | all spans | other text protected |', '|---|---:|---:|');
const settings: [string, BuildBlacklistOptions & { only?: 'direct'; occurrences?: boolean }][] = [
  ['recognisers alone', { only: 'direct' }],
  ['recognisers, direct terms only where found (occurrence level)', { only: 'direct', occurrences: true, ngrams: [1, 1], k: 1 }],
  ['+ indirect unigrams, k=2 (`--ngrams 1-1`)', { ngrams: [1, 1] }],
  ['+ indirect unigrams (English words only where written as names, never in lower case) and 1-3-grams anchored on names, k=2 (default)', {}],
  ['+ indirect 1-3-grams anchored on names, k=2, every English word as a unigram (`--common-words all`, the rule of the paper)', { commonWords: 'all' }],
  ['+ indirect 1-3-grams anchored on names, k=2, no English word as a unigram (`--common-words none`)', { commonWords: 'none' }],
  ['+ indirect 1-3-grams anchored on names, k=3', { k: 3 }],
  ['+ every rare 1-3-gram, k=2 (`--all-ngrams`)', { allNgrams: true }],
  ['patterns only (no bundled lists), every rare 1-3-gram, k=2 (the first default)', { allNgrams: true, recognizers: defaultRecognizers('email,url,ip,rrn,ssn,credit-card,iban,phone,phone-context,pager,date,date-ko-dotted,date-ko,date-us,date-month-name,year,car-plate,account,case-number,age') }],
];
for (const [label, options] of settings) {
  const { e } = await measure(physionet, options);
  out.push(`| ${label} | ${pct(type(e, 'all')?.full)} | ${pct(e.otherTextProtected)} |`);
}

/** presidio-synth's labels of identifiers HIPAA's Safe Harbor counts, beside persons and places. */
const NUMBER_LABELS = ['DATE_TIME', 'PHONE_NUMBER', 'ZIP_CODE', 'US_DRIVER_LICENSE', 'CREDIT_CARD', 'IBAN_CODE', 'US_SSN', 'IP_ADDRESS', 'EMAIL_ADDRESS'];
const numberRows: string[] = [];
out.push('', '### Public text (each sentence its own individual; in wikigold each article)', '', '| corpus | blacklist | persons | places | other text protected |', '|---|---|---:|---:|---:|');
const publicRow = (name: string, label: string, e: ProtectionEvaluation) => `| ${name} | ${label} | ${pct(type(e, 'PERSON')?.full)} | ${pct(type(e, 'LOCATION')?.full)} | ${pct(e.otherTextProtected)} |`;
// The rules were developed on synth_dataset_v2's even templates only; its odd ones were measured, never
// read. generated_large (the same templates, other fake identities) likewise: its even templates were
// read once, its odd ones never.
for (const file of ['synth_dataset_v2', 'generated_large']) {
  const path = join(data, 'presidio-synth', `${file}.json`);
  const presidio = await readSpanCorpus(path, 'presidio');
  const templates = (JSON.parse(await readFile(path, 'utf8')) as { template_id: number }[]).map((r) => r.template_id);
  const { e } = await measure(presidio, { only: 'direct' });
  out.push(publicRow(`presidio-synth ${file} (${presidio.length} sentences)`, 'recognisers alone', e));
  for (const [half, parity] of [['even', 0], ['odd', 1]] as const) {
    const docs = presidio.filter((_, i) => templates[i]! % 2 === parity);
    const { e: part, protect } = await measure(docs, { only: 'direct' });
    out.push(publicRow(`presidio-synth ${file}, ${half} templates (${docs.length} sentences)`, 'recognisers alone', part));
    const byLabel = await evaluateProtection(docs, protect, { typeOf: (label) => label });
    const cell = (label: string) => {
      const r = type(byLabel, label);
      return r === undefined ? '–' : `${pct(r.full)} (${r.gold})`;
    };
    numberRows.push(`| ${file}, ${half} templates | ${NUMBER_LABELS.map(cell).join(' | ')} |`);
  }
}
for (const [name, file] of [
  ['WNUT17 test', 'english-ner/WNUT17/CONLL-format/data/test/emerging.test.annotated'],
  ['wikigold', 'english-ner/wikigold/CONLL-format/data/wikigold.conll.txt'],
] as const) {
  const docs = await readSpanCorpus(join(data, file), 'conll');
  const unit = name === 'wikigold' ? 'articles, each one document' : 'sentences';
  const { e } = await measure(docs, { only: 'direct' });
  out.push(publicRow(`${name} (${docs.length} ${unit})`, 'recognisers alone', e));
  if (name === 'WNUT17 test') compose('WNUT17 test, recognisers alone', e);
  if (name === 'wikigold') {
    for (const [label, options] of [['default (recognisers + indirect)', {}], ['recognisers + indirect, every English word (`--common-words all`)', { commonWords: 'all' as const }], ['recognisers + indirect, no English word (`--common-words none`)', { commonWords: 'none' as const }]] as const) {
      const { e: withIndirect } = await measure(docs, options);
      out.push(publicRow(`${name} (${docs.length} ${unit})`, label, withIndirect));
      if (label.startsWith('default')) compose(`wikigold, ${label}`, withIndirect);
    }
  }
}

out.push('', "### presidio-synth's other identifiers, recognisers alone (gold spans fully protected, and their count)", '', `| templates | ${NUMBER_LABELS.join(' | ')} |`, `|---|${NUMBER_LABELS.map(() => '---:').join('|')}|`, ...numberRows);

// Korean: Thunder-DeID judgments with surrogates filled in by `deid generate` (spans from the tags), per
// crime type, and KMOU-NER news sentences (PER/LOC/DAT). Recognisers alone: no de-identification model.
const analyzer = analyzerForLanguage('ko', 'auto');
const tmp = await mkdtemp(join(tmpdir(), 'ppmlm-goals-'));
try {
  const judgments = await thunderGold(join(data, 'thunder-deid'), join(tmp, 'generated.jsonl'));
  out.push('', '### Korean, recognisers alone (mecab analyser; no de-identification model)', '', '| corpus | persons | places | all spans | spans holding text (no placeholder) | other text protected |', '|---|---:|---:|---:|---:|---:|');
  for (const crime of ['crime_of_violence', 'fraud']) {
    const docs = judgments.filter((d) => d.id.startsWith(crime));
    const { e, protect } = await measure(docs, { only: 'direct', analyzer });
    const withText = await evaluateProtection(withoutPlaceholders(docs), protect, { typeOf: goldType });
    out.push(`| Thunder-DeID ${crime} (${docs.length} judgments, surrogates) | ${pct(type(e, 'PERSON')?.full)} | ${pct(type(e, 'LOCATION')?.full)} | ${pct(type(e, 'all')?.full)} | ${pct(type(withText, 'all')?.full)} (${type(withText, 'all')?.gold} of ${type(e, 'all')?.gold}) | ${pct(e.otherTextProtected)} |`);
    compose(`Thunder-DeID ${crime}, recognisers alone`, e);
  }
  // KMOU-NER's first 400 files (in name order) were read for errors; the others are reported untouched,
  // each part built from its own sentences, as PhysioNet's halves are.
  const files = (await readdir(join(data, 'kmou-ner', 'corpus_morph_ner'))).filter((f) => f.endsWith('.txt')).sort();
  const kmou = (await readKmou(join(data, 'kmou-ner', 'corpus_morph_ner'), files)).map((s) => s.doc);
  const read = new Set(files.slice(0, 400));
  const fileOf = (d: SpanDocument) => d.id.slice(0, d.id.lastIndexOf(':'));
  for (const [name, docs] of [
    ['first 400 files, read for errors', kmou.filter((d) => read.has(fileOf(d)))],
    [`the other ${files.length - 400} files, untouched`, kmou.filter((d) => !read.has(fileOf(d)))],
    ['all', kmou],
  ] as const) {
    const { e } = await measure(docs, { only: 'direct', analyzer });
    out.push(`| KMOU-NER, ${name} (${docs.length} sentences, each its own individual) | ${pct(type(e, 'PERSON')?.full)} | ${pct(type(e, 'LOCATION')?.full)} | ${pct(type(e, 'all')?.full)} | – | ${pct(e.otherTextProtected)} |`);
    if (name === 'all') compose('KMOU-NER, recognisers alone', e);
  }
} finally {
  await analyzer?.close();
  await rm(tmp, { recursive: true, force: true });
}
out.push(
  '',
  '### What protects the other text (percent of the word characters outside gold spans; a character protected by two kinds counts under each)',
  '',
  '| corpus, blacklist | other text protected | by what protects it, largest first |',
  '|---|---:|---|',
  ...composition,
);
console.log(out.join('\n'));

