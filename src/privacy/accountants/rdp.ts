import { Accountant } from './history.js';
import { DEFAULT_ORDERS, epsilonFromRdp, rdpSampledGaussian, type Conversion } from './rdpMath.js';

/** The RDP accountant for DP-SGD (Mironov et al. 2019): per-order RDP adds up over releases. */
export class RdpAccountant extends Accountant {
  readonly mechanism = 'rdp';

  constructor(
    readonly orders: readonly number[] = DEFAULT_ORDERS,
    readonly conversion: Conversion = 'improved',
  ) {
    super();
  }

  rdp(): number[] {
    return this.orders.map((a) => this.history.reduce((sum, h) => sum + h.steps * rdpSampledGaussian(h.q, h.sigma, a), 0));
  }

  getEpsilon(delta: number): number {
    return epsilonFromRdp(this.orders, this.rdp(), delta, this.conversion).epsilon;
  }
}
