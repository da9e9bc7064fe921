/**
 * Rényi-DP of the sampled Gaussian mechanism (Mironov, Talwar & Zhang, "Rényi Differential Privacy of the
 * Sampled Gaussian Mechanism", 2019): each step includes every example with probability q and adds
 * Gaussian noise of standard deviation sigma times the clipping norm. Pure functions of numbers.
 */

/** log(exp(a) + exp(b)) without overflow. */
export function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const m = Math.max(a, b);
  return m + Math.log1p(Math.exp(-Math.abs(a - b)));
}

/** log(exp(a) - exp(b)) for a >= b. */
export function logSub(a: number, b: number): number {
  if (b === -Infinity) return a;
  if (a === b) return -Infinity;
  return a + Math.log1p(-Math.exp(b - a));
}

/** log Γ(x) for x > 0 (Lanczos, g = 7). */
export function logGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** log |C(alpha, i)| for real alpha and integer i, and its sign. */
function logAbsBinomial(alpha: number, i: number): { log: number; sign: number } {
  let log = 0;
  let sign = 1;
  for (let k = 0; k < i; k++) {
    const f = (alpha - k) / (k + 1);
    if (f === 0) return { log: -Infinity, sign: 0 };
    if (f < 0) sign = -sign;
    log += Math.log(Math.abs(f));
  }
  return { log, sign };
}

/**
 * log erfc(x), accurate in the far tail where erfc underflows: a continued fraction for x > 3, else
 * erfc from a high-precision rational approximation (W. J. Cody's, as used by most math libraries).
 */
export function logErfc(x: number): number {
  if (x > 3) {
    // erfc(x) = exp(-x²)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...))))
    let f = x;
    for (let k = 60; k >= 1; k--) f = x + k / 2 / f;
    return -x * x - 0.5 * Math.log(Math.PI) - Math.log(f);
  }
  return Math.log(erfc(x));
}

/** erfc(x) with about 1e-15 relative error for x <= 3 (Chebyshev fit of erfc, Numerical Recipes 3rd ed. §6.2). */
export function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x);
  const cof = [
    -1.3026537197817094, 6.4196979235649026e-1, 1.9476473204185836e-2, -9.561514786808631e-3, -9.46595344482036e-4, 3.66839497852761e-4, 4.2523324806907e-5, -2.0278578112534e-5, -1.624290004647e-6, 1.30365583558e-6,
    1.5626441722e-8, -8.5238095915e-8, 6.529054439e-9, 5.059343495e-9, -9.91364156e-10, -2.27365122e-10, 9.6467911e-11, 2.394038e-12, -6.886027e-12, 8.94487e-13, 3.13092e-13, -1.12708e-13, 3.81e-16, 7.106e-15, -1.523e-15,
    -9.4e-17, 1.21e-16, -2.8e-17,
  ];
  const t = 2 / (2 + x);
  const ty = 4 * t - 2;
  let d = 0;
  let dd = 0;
  for (let j = cof.length - 1; j > 0; j--) {
    const tmp = d;
    d = ty * d - dd + cof[j]!;
    dd = tmp;
  }
  return t * Math.exp(-x * x + 0.5 * (cof[0]! + ty * d) - dd);
}

/** log A_alpha for integer alpha: a finite binomial sum. */
function logAInt(q: number, sigma: number, alpha: number): number {
  let logA = -Infinity;
  for (let i = 0; i <= alpha; i++) {
    const { log } = logAbsBinomial(alpha, i);
    const term = log + i * Math.log(q) + (alpha - i) * Math.log1p(-q) + (i * i - i) / (2 * sigma * sigma);
    logA = logAdd(logA, term);
  }
  return logA;
}

/** log A_alpha for fractional alpha: the two convergent series of Section 3.3, summed until negligible. */
function logAFrac(q: number, sigma: number, alpha: number): number {
  let log0 = -Infinity;
  let log1 = -Infinity;
  const z0 = sigma * sigma * Math.log(1 / q - 1) + 0.5;
  for (let i = 0; i < 10_000; i++) {
    const { log: coef, sign } = logAbsBinomial(alpha, i);
    const j = alpha - i;
    const logT0 = coef + i * Math.log(q) + j * Math.log1p(-q);
    const logT1 = coef + j * Math.log(q) + i * Math.log1p(-q);
    const logE0 = Math.log(0.5) + logErfc((i - z0) / (Math.SQRT2 * sigma));
    const logE1 = Math.log(0.5) + logErfc((z0 - j) / (Math.SQRT2 * sigma));
    const logS0 = logT0 + (i * i - i) / (2 * sigma * sigma) + logE0;
    const logS1 = logT1 + (j * j - j) / (2 * sigma * sigma) + logE1;
    if (sign > 0) {
      log0 = logAdd(log0, logS0);
      log1 = logAdd(log1, logS1);
    } else if (sign < 0) {
      log0 = logSub(log0, logS0);
      log1 = logSub(log1, logS1);
    }
    if (Math.max(logS0, logS1) < -30) break;
  }
  return logAdd(log0, log1);
}

/** RDP epsilon at order alpha of one step of the sampled Gaussian mechanism. */
export function rdpSampledGaussian(q: number, sigma: number, alpha: number): number {
  if (q === 0) return 0;
  if (sigma === 0) return Infinity;
  if (q === 1) return alpha / (2 * sigma * sigma);
  const logA = Number.isInteger(alpha) ? logAInt(q, sigma, alpha) : logAFrac(q, sigma, alpha);
  return logA / (alpha - 1);
}

/** The orders searched, as TensorFlow Privacy and Opacus do: 1.1 .. 10.9 in steps of 0.1, then 12 .. 63. */
export const DEFAULT_ORDERS: readonly number[] = [...Array.from({ length: 99 }, (_, x) => 1 + (x + 1) / 10), ...Array.from({ length: 52 }, (_, x) => 12 + x)];

export type Conversion = 'classic' | 'improved';

/**
 * (epsilon, delta)-DP from RDP curves: `classic` is eps = rdp - log(delta)/(alpha-1) (Mironov 2017, what
 * TensorFlow Privacy's published figures use); `improved` is Balle et al. 2020's tighter bound (Opacus).
 */
export function epsilonFromRdp(orders: readonly number[], rdp: readonly number[], delta: number, conversion: Conversion = 'improved'): { epsilon: number; order: number } {
  let best = { epsilon: Infinity, order: NaN };
  orders.forEach((alpha, i) => {
    const r = rdp[i]!;
    const eps = conversion === 'classic' ? r - Math.log(delta) / (alpha - 1) : r + Math.log1p(-1 / alpha) - (Math.log(delta) + Math.log(alpha)) / (alpha - 1);
    if (eps < best.epsilon) best = { epsilon: Math.max(0, eps), order: alpha };
  });
  return best;
}
