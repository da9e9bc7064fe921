/**
 * The review estimator against a simulated reviewer on a gold corpus: many seeded samples of the PhysioNet
 * notes reviewed by an oracle that knows the gold spans; how often the 95% interval of the miss rate covers
 * the corpus's true miss rate, and its mean width against a plain cluster bootstrap's on the same samples.
 *   npx tsx bench/experiments/review-coverage.ts ../shared/data [samples=1000] [size=200]
 * Writes Markdown to stdout (bench/experiments/review-coverage/results.md).
 */
import { join } from 'node:path';
import { clusterBootstrap } from '../../src/audit/metrics.js';
import { readSpanCorpus, type SpanDocument } from '../../src/corpus/index.js';
import { Rng } from '../../src/engine/random.js';
import { BlacklistMatcher, buildBlacklist, type TermMatch } from '../../src/identifiers/index.js';
import { corpusPassages, drawPassages, estimateReview, goldReviewer, passageSpans, REVIEW_FIGURES, reviewClusters, reviewItem, type Passage, type ReviewFigureName, type ReviewSample } from '../../src/review/index.js';

const data = process.argv[2] ?? '../shared/data';
const samples = Number(process.argv[3] ?? 1000);
const size = Number(process.argv[4] ?? 200);
const t0 = Date.now();
const docs = await readSpanCorpus(join(data, 'physionet-deid'), 'physionet');
const { blacklist } = await buildBlacklist(docs);
const matcher = new BlacklistMatcher(blacklist.entries);
const matches: TermMatch[][] = [];
for (const d of docs) matches.push(await matcher.match(d.text));
const gold = new Map<string, SpanDocument>(docs.map((d) => [d.id, d]));

const sampleOf = (passages: readonly Passage[], seed: number): ReviewSample => ({
  format: 'ppmlm-review-sample',
  version: 1,
  fingerprint: `seed-${seed}`,
  corpus: 'physionet',
  blacklist: 'default',
  seed,
  passageWords: 40,
  population: { passages: passages.length, individuals: 0, words: 0 },
  items: passages.map((p) => reviewItem(docs[p.doc]!, p, passageSpans(matches[p.doc]!, blacklist, p))),
});

// The census: every passage reviewed by the oracle gives the true figures.
const census = corpusPassages(docs, 0);
const truth = estimateReview(sampleOf(census, 0), goldReviewer(sampleOf(census, 0), gold));
const figures = REVIEW_FIGURES;
type Figure = ReviewFigureName;
const stats = Object.fromEntries(figures.map((f) => [f, { covered: 0, width: 0, bootCovered: 0, bootWidth: 0, defined: 0 }])) as Record<Figure, { covered: number; width: number; bootCovered: number; bootWidth: number; defined: number }>;
let identifiers = 0;
let missed = 0;
const rng = new Rng(12345);
for (let s = 1; s <= samples; s++) {
  const sample = sampleOf(drawPassages(corpusPassages(docs, s), size, s), s);
  const marks = goldReviewer(sample, gold);
  const e = estimateReview(sample, marks);
  identifiers += e.identifiers;
  missed += e.missed;
  for (const f of figures) {
    const fig = e[f];
    if (!Number.isFinite(fig.value)) continue;
    const st = stats[f];
    st.defined++;
    const truthValue = truth[f].value;
    // The same clusters, for the plain percentile bootstrap over individuals.
    const { clusters, scale } = reviewClusters(sample, marks, f);
    const boot = clusterBootstrap(clusters, rng, 1000).map((x) => x * scale);
    if (fig.interval[0] <= truthValue && truthValue <= fig.interval[1]) st.covered++;
    st.width += fig.interval[1] - fig.interval[0];
    if (boot[0]! <= truthValue && truthValue <= boot[1]!) st.bootCovered++;
    st.bootWidth += boot[1]! - boot[0]!;
  }
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const out = [
  `PhysioNet nursing notes (${docs.length} notes, ${new Set(docs.map((d) => d.author)).size} patients), default blacklist built from all of them; ${census.length} passages of about 40 words. ${samples} samples of ${size} passages (seeds 1-${samples}), each reviewed by an oracle that knows the gold spans. ${((Date.now() - t0) / 1000).toFixed(0)} s on 2 cores.`,
  '',
  `True figures (every passage reviewed): miss rate ${pct(truth.missRate.value)} (${truth.missed} of ${truth.identifiers} identifier occurrences), ${truth.missedPer1000Words.value.toFixed(2)} missed per 1,000 words, direct precision ${pct(truth.directPrecision.value)}, other text protected ${pct(truth.otherTextProtected.value)}. Mean per sample: ${(identifiers / samples).toFixed(1)} identifiers, ${(missed / samples).toFixed(2)} missed.`,
  '',
  '| figure | samples with a value | design interval covers the truth | its mean width | cluster bootstrap covers | its mean width | width ratio |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...figures.map((f) => {
    const st = stats[f];
    const scale = f === 'missedPer1000Words' ? 1 : 100;
    const unit = f === 'missedPer1000Words' ? '' : ' pts';
    return `| ${f} | ${st.defined} | ${pct(st.covered / st.defined)} | ${((scale * st.width) / st.defined).toFixed(2)}${unit} | ${pct(st.bootCovered / st.defined)} | ${((scale * st.bootWidth) / st.defined).toFixed(2)}${unit} | ${(st.width / st.bootWidth).toFixed(2)} |`;
  }),
];
console.log(out.join('\n'));
