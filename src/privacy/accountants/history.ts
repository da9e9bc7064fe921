import { FormatError } from '../../errors.js';

/** One run of identical releases: `steps` compositions of the sampled Gaussian at (sigma, q). */
export interface Release {
  sigma: number;
  q: number;
  steps: number;
}

/** What a checkpoint keeps of an accountant. */
export interface AccountantState {
  mechanism: string;
  history: Release[];
}

/**
 * A privacy accountant (Opacus' IAccountant): records the releases of the Poisson-subsampled Gaussian
 * mechanism and reports epsilon at delta. Implementations differ only in how they compose the history.
 */
export abstract class Accountant {
  abstract readonly mechanism: string;
  protected history: Release[] = [];

  /** Records `steps` releases at noise multiplier sigma and sample rate q. */
  step(noiseMultiplier: number, sampleRate: number, steps = 1): void {
    const last = this.history.at(-1);
    if (last && last.sigma === noiseMultiplier && last.q === sampleRate) last.steps += steps;
    else this.history.push({ sigma: noiseMultiplier, q: sampleRate, steps });
  }

  /** Releases recorded so far. */
  get releases(): number {
    return this.history.reduce((a, h) => a + h.steps, 0);
  }

  abstract getEpsilon(delta: number): number;

  stateDict(): AccountantState {
    return { mechanism: this.mechanism, history: this.history.map((h) => ({ ...h })) };
  }

  /** Restores a {@link stateDict}; a state of another accountant or a malformed one is a FormatError. */
  loadStateDict(state: unknown): void {
    const s = state as Partial<AccountantState> | undefined;
    const ok = s?.mechanism === this.mechanism && Array.isArray(s.history) && s.history.every((h: Partial<Release>) => [h.sigma, h.q, h.steps].every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0));
    if (!ok) throw new FormatError(`the checkpoint's accountant state is not a ${this.mechanism} accountant's (got ${JSON.stringify(state)?.slice(0, 80)}); start over with --force`);
    this.history = s.history!.map((h) => ({ ...h }));
  }
}
