import { chmod } from 'node:fs/promises';
import { loadCorpus, writeSpanJsonl } from '../../corpus/index.js';
import { UsageError } from '../../errors.js';
import { assertSameAnalyzer, readBlacklist, writeBlacklist } from '../../identifiers/index.js';
import { assertCanWriteFile, fileSystemError, PRIVATE_FILE_MODE, writeFileAtomic, assertOutputsApart } from '../../io/index.js';
import { applyReview, assertMarksFit, drawReviewSample, estimateReview, marksToGold, readReviewMarks, reviewPageHtml, reviewResult, writeReviewResult, type ReviewEstimate, type ReviewFigure } from '../../review/index.js';
import type { AnalyzerChoice, Language } from '../../text/index.js';
import { corpusReadOptions, type CorpusFlags } from '../corpusOptions.js';
import { parseIntFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';
import { analyzerFor } from './blacklist.js';

export interface BlacklistReviewOptions extends CorpusFlags {
  blacklist: string;
  sample?: string;
  out?: string;
  seed: string;
  passageWords: string;
  import?: string;
  toGold?: string;
  apply?: string;
  force?: boolean;
  json?: boolean;
  lang: Language;
  analyzer: AnalyzerChoice;
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');
const interval = (f: ReviewFigure, scale: (x: number) => string) => (Number.isFinite(f.interval[0]) ? `[${scale(f.interval[0])}, ${scale(f.interval[1])}]` : '–');

/** The estimate as the table a privacy officer reads. */
export function reviewText(e: ReviewEstimate, what: string): string {
  const per = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
  const rows: [string, string, string, string][] = [
    ['identifier occurrences the blacklist missed', pct(e.missRate.value), interval(e.missRate, pct), `${e.missed} of ${e.identifiers} identifiers, ${e.missRate.individuals} individuals`],
    ['missed identifiers per 1,000 words', per(e.missedPer1000Words.value), interval(e.missedPer1000Words, per), `${e.words} words`],
    ['precision of direct detections', pct(e.directPrecision.value), interval(e.directPrecision, pct), `${e.directPrecision.n} detections`],
    ['other text protected', pct(e.otherTextProtected.value), interval(e.otherTextProtected, pct), `${e.otherTextProtected.n} word characters outside identifiers`],
  ];
  return [
    `${what}: ${e.reviewed} of ${e.sampled} sampled passages reviewed (${e.words} words of ${e.individuals} individuals)`,
    '',
    '| figure | estimate | 95% interval | out of |',
    '|---|---:|---:|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    'Intervals: design-based over individuals (Korn-Graubard effective sample size, Jeffreys). What the review cannot see: identifiers the reviewer missed too.',
  ].join('\n');
}

/**
 * `ppmlm blacklist review`: writes the review page of a sample of the corpus (`--sample N --out page.html`),
 * or, with `--import marks.json`, estimates from the reviewer's marks what the blacklist misses and records
 * the estimate beside the blacklist (`--to-gold` and `--apply` convert the marks).
 */
export async function blacklistReview(options: BlacklistReviewOptions, out: Reporter): Promise<void> {
  const importing = options.import !== undefined;
  if (importing && (options.out !== undefined || options.sample !== undefined)) throw new UsageError('--import estimates from marks made on an earlier page; --sample and --out draw a new page: give one or the other');
  if (!importing && (options.out === undefined || options.sample === undefined)) throw new UsageError('give --sample N and --out page.html to draw a review page, or --import marks.json to estimate from a reviewer\'s marks');
  if (!importing && (options.toGold !== undefined || options.apply !== undefined)) throw new UsageError('--to-gold and --apply convert imported marks; add --import marks.json');
  await assertOutputsApart({ '--corpus': options.corpus, '--blacklist': options.blacklist, '--import': options.import }, { '--out': options.out, '--to-gold': options.toGold, '--apply': options.apply });
  for (const path of [options.out, options.toGold, options.apply]) if (path !== undefined) await assertCanWriteFile(path, options.force);
  const marks = importing ? await readReviewMarks(options.import!) : undefined;
  const size = marks?.size ?? parseIntFlag(options.sample, '--sample', { min: 1 });
  const seed = marks?.seed ?? parseIntFlag(options.seed, '--seed', { min: 0 });
  const passageWords = marks?.passageWords ?? parseIntFlag(options.passageWords, '--passage-words', { min: 5 });
  // The reviewer's file: marks are offsets into passages of personal data.
  if (importing) await chmod(options.import!, PRIVATE_FILE_MODE).catch((err: unknown) => { throw fileSystemError(err, options.import!, 'check --import'); });
  const blacklist = await readBlacklist(options.blacklist);
  const docs = await loadCorpus(options.corpus, corpusReadOptions(options, (err) => out.warn(`skipped ${err.located}`)));
  if (docs.length === 0) throw new UsageError(`${options.corpus}: no documents to review; check --corpus and its column flags`);
  const analyzer = analyzerFor(options.lang, options.analyzer, out);
  try {
    assertSameAnalyzer(blacklist, analyzer, docs.map((d) => d.text));
    const sample = await drawReviewSample(docs, blacklist, { size, seed, passageWords, analyzer });
    if (!importing) {
      await writeFileAtomic(options.out!, reviewPageHtml(sample), { force: options.force, mode: PRIVATE_FILE_MODE });
      const summary = { out: options.out!, sample: sample.fingerprint, passages: sample.items.length, population: sample.population, seed, passageWords };
      out.summary(options.json, summary, (s) => `wrote ${s.out} (mode 0600; it holds passages of the corpus): ${s.passages} passages of about ${passageWords} words drawn from ${s.population.passages} passages of ${s.population.individuals} individuals, seed ${seed}, sample ${s.sample}`);
      return;
    }
    assertMarksFit(marks!, sample, options.import!);
    const estimate = estimateReview(sample, marks!);
    if (estimate.reviewed === 0) throw new UsageError(`${options.import}: no passage is marked reviewed; review some on the page (Enter) and export again`);
    const recorded = await writeReviewResult(options.blacklist, reviewResult(sample, estimate), { force: options.force });
    out.info(`review recorded in ${recorded}`);
    if (options.toGold) {
      await writeSpanJsonl(options.toGold, marksToGold(sample, marks!), { force: options.force });
      out.info(`reviewed passages written as gold spans to ${options.toGold} (mode 0600)`);
    }
    if (options.apply) {
      const applied = applyReview(blacklist, sample, marks!);
      await writeBlacklist(options.apply, applied.blacklist, { force: options.force });
      out.info(`${options.apply}: the blacklist with ${applied.added} terms from the missed marks (public-corpus: no)`);
    }
    out.summary(options.json, { blacklist: options.blacklist, sample: sample.fingerprint, recorded, ...estimate }, (s) => reviewText(s, `review of ${options.blacklist}`));
  } finally {
    await analyzer?.close();
  }
}
