import type { BatchStep, RandomSource, ReleaseAccountant, TrainerTask } from '../engine/index.js';
import { PrivateGradient, poissonSample, randomSubset } from './dpsgd.js';
import type { Accountant } from './accountants/history.js';

/** A training task seen one example at a time, with the privacy unit of each example. */
export interface PrivateData {
  /** How many units (individuals, documents or windows) the data holds: the population Poisson sampling draws from. */
  units: number;
  /** The examples (e.g. windows) of a unit in an epoch, as indices for {@link example} (they may change by epoch, e.g. fresh surrogates). */
  examplesOf(unit: number, epoch: number): readonly number[];
  /**
   * Example `index` as a batch of one in release (epoch, release), e.g. a masked window; undefined when it
   * holds no target. Its own randomness (masks) may be seeded: DP does not rest on it.
   */
  example(index: number, epoch: number, release: number): (Pick<BatchStep, 'loss' | 'segments' | 'tokens' | 'targets' | 'protectedTargets'>) | undefined;
}

export interface PrivateTaskOptions {
  clip: number;
  noiseMultiplier: number;
  /** Probability that a unit joins a release (Poisson sampling). */
  sampleRate: number;
  /** At most this many of a sampled unit's examples (a random subset) make its contribution. */
  maxExamples: number;
  releasesPerEpoch: number;
  recompute?: boolean;
  /** The generator of release (epoch, release)'s sampling, subsets and noise: a CSPRNG unless testing. */
  random(epoch: number, release: number): RandomSource;
}

/**
 * Wraps a task into DP-SGD, in the shape of Opacus' make_private: every batch is one noisy release
 * (marked for the trainer, which steps the accountant) of the units Poisson-sampled for it, each unit's
 * examples (at most `maxExamples`, drawn at random) summed and clipped together, then noised.
 */
export function makePrivate(data: PrivateData, options: PrivateTaskOptions): TrainerTask {
  const gradient = new PrivateGradient({ clip: options.clip, noiseMultiplier: options.noiseMultiplier, expectedUnits: Math.max(options.sampleRate * data.units, 1e-12) }, options.recompute === true);
  return {
    batchesPerEpoch: options.releasesPerEpoch,
    batch(epoch, index): BatchStep {
      const rng = options.random(epoch, index);
      const sampled = poissonSample(data.units, options.sampleRate, rng).map((u) =>
        randomSubset(data.examplesOf(u, epoch), options.maxExamples, rng)
          .map((i) => data.example(i, epoch, index))
          .filter((e) => e !== undefined),
      );
      const all = sampled.flat();
      return {
        release: true,
        // The noisy sum is already divided by the expected units: accumulated releases count alike.
        weight: 1,
        tokens: all.reduce((a, e) => a + e.tokens, 0),
        targets: all.reduce((a, e) => a + e.targets, 0),
        protectedTargets: all.reduce((a, e) => a + e.protectedTargets, 0),
        async gradients(params, add) {
          let loss = 0;
          for (const examples of sampled) loss += (await gradient.addUnit(params, examples)).loss;
          gradient.release(params, rng, add);
          return all.length ? loss / all.length : 0;
        },
      };
    },
  };
}

/** An accountant bound to one mechanism's (sigma, q), stepped by the trainer once per release. */
export function releaseAccountant(accountant: Accountant, noiseMultiplier: number, sampleRate: number): ReleaseAccountant {
  return {
    step: () => accountant.step(noiseMultiplier, sampleRate),
    stateDict: () => accountant.stateDict(),
    loadStateDict: (state) => accountant.loadStateDict(state),
  };
}
