/**
 * How many member and non-member individuals a membership attack needs before TPR at 1% FPR means
 * anything (issue #19, item 4): the paper's ~2% (PPmlm) against ~31% (standard), and a halving of 31%.
 *   npx tsx bench/experiments/tpr-resolution.ts
 * TPR is a share of n members: its 95% Wilson interval at the true rate says what n can tell apart.
 * The 1% FPR threshold is an order statistic of m non-members: with m non-members it rests on the
 * floor(m / 100) highest-scoring ones (below 100 non-members, TPR "at 1% FPR" is TPR at FPR 0, set by a
 * single non-member). Pure arithmetic on the sample sizes; no model involved.
 */
const Z = 1.959964;

/** Wilson score interval of a binomial proportion p observed over n trials. */
function wilson(p: number, n: number): [number, number] {
  const centre = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n);
  const half = (Z / (1 + (Z * Z) / n)) * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

const pct = ([lo, hi]: [number, number]) => `[${(100 * lo).toFixed(1)}%, ${(100 * hi).toFixed(1)}%]`;
const separated = (low: number, high: number, n: number) => wilson(low, n)[1] < wilson(high, n)[0];
const smallestN = (low: number, high: number) => {
  let n = 2;
  while (!separated(low, high, n)) n++;
  return n;
};

console.log('| members n | TPR 2% [95% CI] | TPR 15.5% [95% CI] | TPR 31% [95% CI] | 2% vs 31% separated | 15.5% vs 31% separated |');
console.log('|---:|---:|---:|---:|---|---|');
for (const n of [7, 10, 30, 100, 300, 1000]) {
  console.log(`| ${n} | ${pct(wilson(0.02, n))} | ${pct(wilson(0.155, n))} | ${pct(wilson(0.31, n))} | ${separated(0.02, 0.31, n) ? 'yes' : 'no'} | ${separated(0.155, 0.31, n) ? 'yes' : 'no'} |`);
}
console.log(`\nsmallest n whose Wilson intervals separate 2% from 31%: ${smallestN(0.02, 0.31)}; 15.5% from 31%: ${smallestN(0.155, 0.31)}`);
console.log('non-members m above the 1% FPR threshold: ' + [20, 100, 450, 1000, 3000].map((m) => `${m} → ${Math.floor(m / 100)}`).join(', '));
