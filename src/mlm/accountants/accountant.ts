import { BudgetError } from '../../errors.js';
import { DEFAULT_ORDERS, epsilonFromRdp, rdpSampledGaussian, type Conversion } from './rdpMath.js';

/** A privacy accountant (Opacus' IAccountant): records steps of a mechanism and reports epsilon at delta. */
export interface Accountant {
  readonly mechanism: string;
  step(noiseMultiplier: number, sampleRate: number, steps?: number): void;
  getEpsilon(delta: number): number;
  stateDict(): unknown;
}

/** The RDP accountant for DP-SGD: per-order RDP adds up over steps (composition). */
export class RdpAccountant implements Accountant {
  readonly mechanism = 'rdp';
  private readonly history: { sigma: number; q: number; steps: number }[] = [];

  constructor(
    readonly orders: readonly number[] = DEFAULT_ORDERS,
    readonly conversion: Conversion = 'improved',
  ) {}

  step(noiseMultiplier: number, sampleRate: number, steps = 1): void {
    const last = this.history.at(-1);
    if (last && last.sigma === noiseMultiplier && last.q === sampleRate) last.steps += steps;
    else this.history.push({ sigma: noiseMultiplier, q: sampleRate, steps });
  }

  rdp(): number[] {
    return this.orders.map((a) => this.history.reduce((sum, h) => sum + h.steps * rdpSampledGaussian(h.q, h.sigma, a), 0));
  }

  getEpsilon(delta: number): number {
    return epsilonFromRdp(this.orders, this.rdp(), delta, this.conversion).epsilon;
  }

  stateDict(): unknown {
    return { history: this.history, conversion: this.conversion };
  }
}

/** Accountants by name (Opacus' registry); only RDP so far. */
export const ACCOUNTANTS = { rdp: () => new RdpAccountant() } as const;

/** Epsilon of DP-SGD after `steps` steps at sample rate q and noise sigma. */
export function dpSgdEpsilon(q: number, sigma: number, steps: number, delta: number, conversion: Conversion = 'improved'): number {
  const acc = new RdpAccountant(DEFAULT_ORDERS, conversion);
  acc.step(sigma, q, steps);
  return acc.getEpsilon(delta);
}

/**
 * The smallest noise multiplier (to 0.01) whose epsilon after `steps` steps is at most `targetEpsilon`,
 * by bisection (epsilon decreases as noise grows).
 */
export function noiseForEpsilon(targetEpsilon: number, q: number, steps: number, delta: number): number {
  let lo = 0.3;
  let hi = 50;
  if (dpSgdEpsilon(q, hi, steps, delta) > targetEpsilon) {
    throw new BudgetError(`epsilon ${targetEpsilon} is out of reach even with noise multiplier ${hi} for ${steps} steps at sample rate ${q.toFixed(4)}; train fewer epochs, use smaller batches or accept a larger epsilon`);
  }
  if (dpSgdEpsilon(q, lo, steps, delta) <= targetEpsilon) return lo;
  while (hi - lo > 0.01) {
    const mid = (lo + hi) / 2;
    if (dpSgdEpsilon(q, mid, steps, delta) > targetEpsilon) lo = mid;
    else hi = mid;
  }
  return hi;
}
