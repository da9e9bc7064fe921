/**
 * The privacy random variable (PRV) of DP-SGD's mechanism and its numerical composition (Gopi, Lee & Wutschitz,
 * "Numerical Composition of Differential Privacy", NeurIPS 2021). A release's privacy loss Y = log(P(o)/Q(o)),
 * o ~ P, for P = (1-q)·N(0, σ²) + q·N(1, σ²) and Q = N(0, σ²) (add/remove one individual under Poisson
 * sampling at rate q, noise σ times the clip). The loss of T releases is the sum of T such variables: its
 * distribution is the T-fold convolution, computed on a grid by FFT, from which δ(ε) = E[(1 - e^{ε-Y})⁺]
 * follows exactly up to the grid's error, which the grid is sized to bound (εerr, δerr).
 */
import { UsageError } from '../../errors.js';
import { erfc } from './rdpMath.js';
import { fft } from './fft.js';
import type { Release } from './history.js';
import { RdpAccountant } from './rdp.js';

/** P(Y > t) for one release (the complement of Gopi et al.'s Prop. B4 CDF, kept unsubtracted for its far tail). */
export function prvSurvival(t: number, q: number, sigma: number): number {
  if (q < 1 && t <= Math.log1p(-q)) return 1;
  // z: the noisy output at which the loss equals t.
  const z = q === 1 ? t : Math.log((Math.exp(t) - (1 - q)) / q);
  const s = Math.SQRT2 * 2 * sigma;
  const zs = 2 * z * sigma * sigma;
  return (q / 2) * erfc((zs - 1) / s) + ((1 - q) / 2) * erfc((zs + 1) / s);
}

/** The grid: points (o + i)·dt for i < size, size a power of 2 (the FFT's), dt the mesh. */
export interface PrvGrid {
  dt: number;
  /** Index offset of the first point: its value is o·dt (o < 0). */
  o: number;
  size: number;
}

/**
 * The grid Gopi et al. prove enough for errors εerr and δerr (their Remark 5.6, as Opacus sizes it): the
 * domain [-L, L] with L the RDP epsilon of the whole history at δerr/4 (and of each single release at
 * δerr/(8T)) plus 3, the mesh εerr / sqrt(T·log(12/δerr)/2).
 */
export function prvGrid(history: readonly Release[], epsError: number, deltaError: number): PrvGrid {
  const total = history.reduce((a, h) => a + h.steps, 0);
  const rdpOf = (steps: (h: Release) => number, delta: number) => {
    const acc = new RdpAccountant();
    for (const h of history) acc.step(h.sigma, h.q, steps(h));
    return acc.getEpsilon(delta);
  };
  let L = rdpOf((h) => h.steps, deltaError / 4);
  for (const h of history) L = Math.max(L, rdpOf((g) => (g === h ? 1 : 0), deltaError / (8 * total)));
  L = Math.max(L, epsError) + 3;
  const dt = epsError / Math.sqrt((total * Math.log(12 / deltaError)) / 2);
  const o = Math.floor(-L / dt);
  const points = Math.ceil(L / dt) - o + 1;
  // A million-point grid is about 60 MB of working arrays; beyond a few million the accountant is unusable.
  if (points > 1 << 24) throw new UsageError(`the PRV accountant's grid would need ${points} points for ${total} releases (L = ${L.toFixed(1)}, mesh ${dt.toExponential(2)}); use --accountant rdp for so many releases`);
  return { dt, o, size: 2 ** Math.ceil(Math.log2(points)) };
}

/** ∫ f over [a, b] by composite Simpson with `n` (even) intervals. */
function simpson(f: (t: number) => number, a: number, b: number, n: number): number {
  const h = (b - a) / n;
  let sum = f(a) + f(b);
  for (let i = 1; i < n; i++) sum += (i % 2 ? 4 : 2) * f(a + i * h);
  return (sum * h) / 3;
}

/**
 * One release's loss on the grid, truncated to its cells: cell i holds P(Y in its cell) / P(Y in the grid),
 * and `shift` moves the points so that the discrete mean equals the truncated variable's mean (the
 * discretisation then adds no bias that composition would multiply by T).
 */
export function discretePrv(q: number, sigma: number, grid: PrvGrid): { pmf: Float64Array; shift: number } {
  const { dt, o, size } = grid;
  const edge = (i: number) => (o + i - 0.5) * dt;
  const lo = edge(0);
  const hi = edge(size);
  const sLo = prvSurvival(lo, q, sigma);
  const sHi = prvSurvival(hi, q, sigma);
  const mass = sLo - sHi;
  const pmf = new Float64Array(size);
  let prev = sLo;
  let discreteMean = 0;
  for (let i = 0; i < size; i++) {
    const next = prvSurvival(edge(i + 1), q, sigma);
    pmf[i] = (prev - next) / mass;
    discreteMean += pmf[i]! * (o + i) * dt;
    prev = next;
  }
  // E[Y | grid] = lo + ∫ P(Y > t | grid) dt over the grid; the integrand is steep near 0 (the loss of a
  // rarely sampled release is concentrated there), hence breakpoints on a log scale around it.
  const marks = [lo, ...[-1e-1, -1e-2, -1e-3, -1e-4, -1e-5, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1].filter((m) => m > lo && m < hi), hi];
  const conditional = (t: number) => (prvSurvival(t, q, sigma) - sHi) / mass;
  let mean = lo;
  for (let k = 1; k < marks.length; k++) mean += simpson(conditional, marks[k - 1]!, marks[k]!, 4000);
  const shift = mean - discreteMean;
  if (Math.abs(shift) >= dt / 2) throw new RangeError(`the PRV's discrete mean is ${shift} off its mean, more than half the mesh ${dt}`);
  return { pmf, shift };
}

/** The composed loss of a history on its grid: probabilities and the value of each point. */
export interface ComposedPrv {
  pmf: Float64Array;
  t: Float64Array;
}

/**
 * Composes the releases of `history`: the product of the discretised releases' spectra, each raised to
 * its number of steps, transformed back. A circular convolution sums grid indices modulo the size; the
 * grid is wide enough that the mass that wraps around is below δerr.
 */
export function composePrv(history: readonly Release[], grid: PrvGrid): ComposedPrv {
  const { size, o, dt } = grid;
  const re = new Float64Array(size).fill(1);
  const im = new Float64Array(size);
  let shift = 0;
  let total = 0;
  for (const h of history) {
    const d = discretePrv(h.q, h.sigma, grid);
    const xr = Float64Array.from(d.pmf);
    const xi = new Float64Array(size);
    fft(xr, xi);
    for (let k = 0; k < size; k++) {
      const r = Math.hypot(xr[k]!, xi[k]!) ** h.steps;
      const theta = Math.atan2(xi[k]!, xr[k]!) * h.steps;
      const pr = r * Math.cos(theta);
      const pi = r * Math.sin(theta);
      const a = re[k]!;
      re[k] = a * pr - im[k]! * pi;
      im[k] = a * pi + im[k]! * pr;
    }
    shift += h.steps * d.shift;
    total += h.steps;
  }
  fft(re, im, true);
  // A sum of `total` grid values (o + i)·dt has index sum K = j - (total-1)·o for the point (o + j)·dt.
  const pmf = new Float64Array(size);
  const t = new Float64Array(size);
  const offset = (((-(total - 1) * o) % size) + size) % size;
  for (let j = 0; j < size; j++) {
    pmf[j] = re[(j + offset) % size]! / size;
    t[j] = (o + j) * dt + shift;
  }
  return { pmf, t };
}

/**
 * The smallest ε with δ(ε) = Σ_{t > ε} p·(1 - e^{ε-t}) at most `delta`, by bisection; δ(ε) is read from
 * suffix sums in O(log n) per point.
 */
export function epsilonOfComposed({ pmf, t }: ComposedPrv, delta: number): number {
  const n = pmf.length;
  const mass = new Float64Array(n + 1);
  const weighted = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--) {
    mass[i] = mass[i + 1]! + pmf[i]!;
    weighted[i] = weighted[i + 1]! + (t[i]! >= 0 ? pmf[i]! * Math.exp(-t[i]!) : 0);
  }
  const deltaAt = (eps: number) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (t[mid]! > eps) hi = mid;
      else lo = mid + 1;
    }
    return mass[lo]! - Math.exp(eps) * weighted[lo]!;
  };
  if (deltaAt(0) <= delta) return 0;
  let lo = 0;
  let hi = t[n - 1]!;
  if (deltaAt(hi) > delta) return Infinity;
  for (let k = 0; k < 100 && hi - lo > 1e-9; k++) {
    const mid = (lo + hi) / 2;
    if (deltaAt(mid) > delta) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** δ(ε) of a composed loss (for checks against published δ figures). */
export function deltaOfComposed({ pmf, t }: ComposedPrv, eps: number): number {
  let d = 0;
  for (let i = 0; i < pmf.length; i++) if (t[i]! > eps) d += pmf[i]! * (1 - Math.exp(eps - t[i]!));
  return d;
}
