import { blacklistProtection, evaluateProtection, formatProportion, occurrenceProtection, ownTextProtection, type Protection, type ProtectionEvaluation } from '../../audit/index.js';
import { goldSource, goldType, openSpanJsonlWriter, readSpanCorpus, type SpanFormat } from '../../corpus/index.js';
import { UsageError } from '../../errors.js';
import { buildBlacklist, englishReference, readBlacklist, readCorpusReference, type Blacklist } from '../../identifiers/index.js';
import { assertCanWriteFile, commitOrAbort, assertOutputsApart } from '../../io/index.js';
import { parseIntFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';
import { blacklistRules, ruleInputs, type BlacklistRuleFlags } from './blacklist.js';

export interface BlacklistEvalOptions extends BlacklistRuleFlags {
  gold: string;
  goldFormat?: SpanFormat;
  blacklist?: string;
  only?: 'direct' | 'indirect';
  protection: 'terms' | 'occurrences' | 'own-text';
  referenceCorpus?: string;
  referenceTextCol?: string;
  referenceK?: string;
  by: 'type' | 'label';
  seed: string;
  misses?: string;
  force?: boolean;
  json?: boolean;
}

/** The evaluation as the tables a privacy officer reads. */
export function evaluationText(e: ProtectionEvaluation, what: string): string {
  const lines = [
    `${what}: ${e.documents} documents, ${e.individuals} individuals; 95% intervals over individuals`,
    '',
    '| gold type | spans | protected (every word character) | touched (any overlap) |',
    '|---|---:|---:|---:|',
    ...e.types.map((t) => `| ${t.type} | ${t.gold} | ${formatProportion(t.full)} | ${formatProportion(t.anyOverlap)} |`),
    '',
    `other text protected: ${formatProportion(e.otherTextProtected)} of ${e.otherTextProtected.n} word characters outside gold spans`,
    ...e.otherTextProtectedBy.map((b) => `  by ${b.protectedBy} terms: ${formatProportion(b.share)}`),
    `precision of direct detections: ${formatProportion(e.precision)} of ${e.precision.n}`,
    ...e.precisionByCategory.map((c) => `  ${c.category}: ${formatProportion(c.precision)} of ${c.precision.n}`),
  ];
  return lines.join('\n');
}

/** `ppmlm blacklist eval`: a blacklist, or one built from the gold corpus, against gold identifier spans. */
export async function blacklistEval(options: BlacklistEvalOptions, out: Reporter): Promise<void> {
  const seed = parseIntFlag(options.seed, '--seed', { min: 0 });
  if (options.only !== undefined && options.protection === 'occurrences') throw new UsageError('--only measures one kind of term; --protection occurrences measures the recognisers where they fired: give one of them');
  if (options.protection === 'own-text' && (options.blacklist !== undefined || options.only !== undefined)) throw new UsageError('--protection own-text computes each individual\'s protection from their own text: drop --blacklist and --only');
  if (options.protection === 'occurrences' && options.blacklist !== undefined) throw new UsageError('--protection occurrences needs the recognisers to run on the gold texts; drop --blacklist (a build from the gold corpus is measured)');
  if (options.referenceCorpus !== undefined && options.protection !== 'own-text') throw new UsageError('--reference-corpus is the public reference of --protection own-text; add it or drop --reference-corpus');
  const { path: goldPath, format } = await goldSource(options.gold, options.goldFormat);
  if (options.misses !== undefined) {
    // A PhysioNet gold is a folder: nothing is written inside it.
    await assertOutputsApart({ '--gold': goldPath, '--blacklist': options.blacklist, '--reference-corpus': options.referenceCorpus, ...ruleInputs(options) }, { '--misses': options.misses });
    await assertCanWriteFile(options.misses, options.force);
  }
  const docs = await readSpanCorpus(goldPath, format);
  if (docs.length === 0) throw new UsageError(`${options.gold}: no documents; check --gold and --gold-format`);
  const { build, recognizers, analyzer, close } = await blacklistRules(options, out);
  try {
    let protect: Protection;
    let what: string;
    let reference: string | undefined;
    if (options.protection === 'own-text') {
      const widened = options.referenceCorpus === undefined ? undefined : await readCorpusReference(options.referenceCorpus, { textCol: options.referenceTextCol, k: parseIntFlag(options.referenceK, '--reference-k', { min: 1 }), analyzer });
      if (widened) out.info(`public reference ${options.referenceCorpus}: ${widened.words} words used by at least ${options.referenceK} of its individuals`);
      protect = await ownTextProtection(docs, { recognizers, analyzer, reference: widened });
      reference = widened?.name ?? englishReference().name;
      what = `protection from each individual's own text (${reference})`;
    } else {
      let list: Blacklist;
      if (options.blacklist) {
        list = await readBlacklist(options.blacklist);
        what = options.blacklist;
      } else {
        const t0 = Date.now();
        list = (await buildBlacklist(docs.map((d) => ({ id: d.id, author: d.author, text: d.text })), {
          ...build,
          onProgress: (p) => out.progress(`blacklist: ${p.documents} documents`),
        })).blacklist;
        out.progressDone();
        out.info(`built a blacklist from the gold corpus in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${list.entries.length} terms`);
        what = 'blacklist built from the gold corpus';
      }
      protect = options.protection === 'occurrences' ? occurrenceProtection(recognizers, list, { analyzer }) : blacklistProtection(list, { analyzer, only: options.only });
      what = `${what}${options.only ? `, ${options.only} terms only` : ''}${options.protection === 'occurrences' ? ', direct identifiers where found only' : ''}`;
    }
    const misses = options.misses === undefined ? undefined : await openSpanJsonlWriter(options.misses, { force: options.force });
    const missed = { documents: 0, spans: 0 };
    const evaluation: ProtectionEvaluation = await commitOrAbort(misses, () =>
      evaluateProtection(docs, protect, {
        seed,
        typeOf: options.by === 'label' ? (label) => label : goldType,
        onProgress: (n) => out.progress(`eval: ${n} of ${docs.length} documents`),
        onMissed: misses && ((doc) => {
          missed.documents++;
          missed.spans += doc.spans.length;
          return misses.write(doc);
        }),
      }),
    );
    out.progressDone();
    if (options.misses !== undefined) out.info(`wrote ${missed.spans} gold spans not fully protected, in ${missed.documents} documents, to ${options.misses} (span JSONL, mode 0600)`);
    const blacklist = options.protection === 'own-text' ? null : options.blacklist ?? 'blacklist built from the gold corpus';
    out.summary(options.json, { gold: options.gold, format, blacklist, only: options.only ?? 'all', protection: options.protection, ...(reference && { reference }), ...evaluation }, () => evaluationText(evaluation, what));
  } finally {
    await close();
  }
}
