import { describe, expect, it } from 'vitest';
import { dpSgdEpsilon, noiseForEpsilon, erfc, logErfc, RdpAccountant, DEFAULT_ORDERS } from '../../src/privacy/index.js';
import { BudgetError } from '../../src/errors.js';

/** Epsilon with the classic RDP-to-DP conversion, the one TensorFlow Privacy's published figures use. */
function classic(q: number, sigma: number, steps: number, delta: number): number {
  const acc = new RdpAccountant(DEFAULT_ORDERS, 'classic');
  acc.step(sigma, q, steps);
  return acc.getEpsilon(delta);
}

describe('RDP accountant', () => {
  it('reproduces TensorFlow Privacy\'s published MNIST figures (classic conversion)', () => {
    // tensorflow/privacy tutorials/README.md: 60,000 examples, batch 256, delta 1e-5.
    const q = 256 / 60000;
    const steps = (epochs: number) => Math.floor((epochs * 60000) / 256);
    expect(classic(q, 1.12, steps(60), 1e-5)).toBeCloseTo(2.92, 1);
    expect(classic(q, 0.6, steps(30), 1e-5)).toBeCloseTo(9.74, 1);
    expect(classic(q, 1.2, steps(10), 1e-5)).toBeCloseTo(1.2, 1);
    // The tutorial's expected output after 1 and 2 epochs of the default run.
    expect(classic(q, 1.12, steps(1), 1e-5)).toBeCloseTo(1.0, 2);
    expect(classic(q, 1.12, steps(2), 1e-5)).toBeCloseTo(1.04, 2);
  });

  it("reproduces Opacus' RDP accountant figure (improved conversion)", () => {
    // opacus/tests/accountants_test.py test_rdp_accountant: sigma 1.5, q 0.04, 2250 steps, delta 1e-5.
    expect(dpSgdEpsilon(0.04, 1.5, 2250, 1e-5)).toBeCloseTo(7.32911117143, 6);
  });

  it('gives a smaller epsilon with the improved conversion and more noise', () => {
    const q = 0.01;
    expect(dpSgdEpsilon(q, 1, 1000, 1e-5)).toBeLessThan(classic(q, 1, 1000, 1e-5));
    expect(dpSgdEpsilon(q, 2, 1000, 1e-5)).toBeLessThan(dpSgdEpsilon(q, 1, 1000, 1e-5));
  });

  it('solves for the noise multiplier of a target epsilon, or says it is out of reach', () => {
    const sigma = noiseForEpsilon(3, 0.01, 1000, 1e-5);
    expect(dpSgdEpsilon(0.01, sigma, 1000, 1e-5)).toBeLessThanOrEqual(3);
    expect(dpSgdEpsilon(0.01, sigma - 0.02, 1000, 1e-5)).toBeGreaterThan(3);
    expect(() => noiseForEpsilon(1e-4, 0.5, 100000, 1e-5)).toThrow(BudgetError);
  });

  it('computes erfc and its log in the far tail', () => {
    expect(erfc(0)).toBeCloseTo(1, 12);
    expect(erfc(1)).toBeCloseTo(0.15729920705028513, 12);
    expect(erfc(-1)).toBeCloseTo(1.8427007929497148, 12);
    expect(logErfc(10)).toBeCloseTo(Math.log(2.088487583762545e-45), 8);
    expect(logErfc(2.5)).toBeCloseTo(Math.log(0.0004069520174449590), 10);
  });
});
