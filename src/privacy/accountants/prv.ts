import { Accountant } from './history.js';
import { composePrv, epsilonOfComposed, prvGrid } from './prvMath.js';

/**
 * The PRV accountant (Gopi et al. 2021; Opacus' default): composes the privacy loss distributions
 * numerically and reports an upper bound on ε, tighter than RDP's. `epsError` is the bound's slack in ε,
 * `deltaError` (default δ/1000) its slack in δ.
 */
export class PrvAccountant extends Accountant {
  readonly mechanism = 'prv';

  constructor(readonly epsError = 0.01) {
    super();
  }

  getEpsilon(delta: number, deltaError = delta / 1000): number {
    if (this.history.every((h) => h.steps === 0 || h.q === 0)) return 0;
    const history = this.history.filter((h) => h.steps > 0 && h.q > 0);
    const composed = composePrv(history, prvGrid(history, this.epsError, deltaError));
    // The estimate at δ - δerr, plus εerr, bounds the true ε at δ from above (their Theorem 5.5).
    return epsilonOfComposed(composed, delta - deltaError) + this.epsError;
  }
}
