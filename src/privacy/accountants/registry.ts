import { BudgetError, UsageError } from '../../errors.js';
import type { Accountant } from './history.js';
import { PrvAccountant } from './prv.js';
import { RdpAccountant } from './rdp.js';

/** Accountants by name (Opacus' registry): `rdp` (Rényi DP, Mironov et al. 2019) and `prv` (Gopi et al. 2021). */
export const ACCOUNTANTS = { rdp: () => new RdpAccountant(), prv: () => new PrvAccountant() } as const;
export type AccountantName = keyof typeof ACCOUNTANTS;
export const ACCOUNTANT_NAMES = Object.keys(ACCOUNTANTS) as AccountantName[];

export function makeAccountant(name: AccountantName): Accountant {
  return ACCOUNTANTS[name]();
}

export function parseAccountant(value: string): AccountantName {
  if (!(ACCOUNTANT_NAMES as string[]).includes(value)) throw new UsageError(`unknown --accountant "${value}"; use one of ${ACCOUNTANT_NAMES.join(', ')}`);
  return value as AccountantName;
}

/** Epsilon of DP-SGD after `steps` releases at sample rate q and noise sigma, by the named accountant. */
export function dpSgdEpsilon(q: number, sigma: number, steps: number, delta: number, accountant: AccountantName = 'rdp'): number {
  const acc = makeAccountant(accountant);
  acc.step(sigma, q, steps);
  return acc.getEpsilon(delta);
}

/** Bisection (to 0.01) for the smallest sigma in [lo, hi] with epsilon(sigma) <= target, given epsilon(hi) <= target. */
function bisect(epsilon: (sigma: number) => number, target: number, lo: number, hi: number): number {
  if (epsilon(lo) <= target) return lo;
  while (hi - lo > 0.01) {
    const mid = (lo + hi) / 2;
    if (epsilon(mid) > target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The smallest noise multiplier (to 0.01) whose epsilon after `steps` releases is at most `targetEpsilon`
 * (epsilon decreases as noise grows). With `prv` the search runs below RDP's answer, which bounds PRV's
 * from above, down to half of it (a noise PRV would allow lower still is not looked for: it costs grids
 * whose size grows with RDP's epsilon at that noise); out of reach is a BudgetError (exit 4).
 */
export function noiseForEpsilon(targetEpsilon: number, q: number, steps: number, delta: number, accountant: AccountantName = 'rdp'): number {
  const hi = 50;
  const rdp = (sigma: number) => dpSgdEpsilon(q, sigma, steps, delta, 'rdp');
  if (rdp(hi) > targetEpsilon) {
    throw new BudgetError(`epsilon ${targetEpsilon} is out of reach even with noise multiplier ${hi} for ${steps} releases at sample rate ${q.toFixed(4)}; train fewer epochs, sample fewer individuals per release (--batch-size) or accept a larger epsilon`);
  }
  const sigmaRdp = bisect(rdp, targetEpsilon, 0.3, hi);
  if (accountant === 'rdp') return sigmaRdp;
  return bisect((sigma) => dpSgdEpsilon(q, sigma, steps, delta, accountant), targetEpsilon, Math.max(0.3, sigmaRdp / 2), sigmaRdp);
}
