import { Rng, type RandomSource } from '../engine/index.js';
import { UsageError } from '../errors.js';
import type { Accountant } from './accountants/history.js';
import { noiseForEpsilon, type AccountantName } from './accountants/registry.js';
import { SecureRng } from './secureRandom.js';

/**
 * Who the guarantee protects: an individual (all the windows of one author), a document (all its windows;
 * for data without authors, e.g. court judgments), or one window (for comparison only).
 */
export type DpUnit = 'author' | 'document' | 'window';
export const DP_UNITS: readonly DpUnit[] = ['author', 'document', 'window'];

/** The privacy options of a DP run, as the CLI's --dp-* flags name them. */
export interface DpOptions {
  /** Default `author` (fine-tuning) or `document` (de-identification training). */
  unit?: DpUnit;
  /** L2 bound on one unit's contribution (default 1.0). */
  clip?: number;
  /** The noise multiplier; or `targetEpsilon` to solve for it. */
  noiseMultiplier?: number;
  targetEpsilon?: number;
  /** Default min(1e-5, 1/(10 · units)): below 1/units, as a δ that lets one unit in n leak must be. */
  delta?: number;
  /** At most this many windows of a sampled individual make its contribution (default 4; 1 with unit window). */
  maxWindows?: number;
  /** Default `rdp`. */
  accountant?: AccountantName;
  /** Draw sampling and noise from the seed (tests only): reproducible noise gives no privacy. */
  insecureSeededNoise?: boolean;
  /** Also write the run's loss curve and target counts into the model folder (outside the guarantee). */
  releaseStats?: boolean;
  /**
   * Let inputs derived from private data through (`--dp-allow-private-preprocessing`): recorded in the dp
   * block as `privatePreprocessing`, and ε is then not a guarantee.
   */
  allowPrivatePreprocessing?: boolean;
}

/** An input of a DP run other than each unit's own text, and why it is not data-independent. */
export interface PrivateInput {
  name: string;
  why: string;
}

/**
 * Under DP every input to a unit's gradient other than that unit's own text must be public or fixed before
 * the private data was seen: a blacklist, tokenizer or de-identification model made from the private corpus
 * makes each unit's gradient depend on other people's data, and the clip no longer bounds the sensitivity.
 * Throws naming them unless `allow`; returns what the dp block records.
 *
 * @example
 * const recorded = checkPrivateInputs([{ name: 'blacklist bl.tsv', why: 'built from a corpus not declared public' }], false); // throws
 */
export function checkPrivateInputs(inputs: readonly PrivateInput[], allow: boolean | undefined, override = 'pass --dp-allow-private-preprocessing'): string[] | undefined {
  if (inputs.length === 0) return undefined;
  const named = inputs.map((i) => `${i.name} (${i.why})`);
  if (!allow) {
    throw new UsageError(`under --privacy dp every input but each individual's own text must be public or fixed before the private data was seen, and ${named.join('; ')} ${named.length === 1 ? 'is' : 'are'} not: epsilon would not bound what one person's data changes; build it from public data (blacklist build --public-corpus, tokenizer train --public-corpus, or a Hugging Face model's tokenizer), or ${override} to train anyway (recorded: epsilon is then not a guarantee)`);
  }
  return named;
}

/** The resolved mechanism of a DP run. */
export interface DpPlan {
  unit: DpUnit;
  /** Units of the training data (individuals, or windows). */
  individuals: number;
  sampleRate: number;
  releasesPerEpoch: number;
  /** Releases the run is planned for (an upper bound with maxSteps). */
  releases: number;
  delta: number;
  noiseMultiplier: number;
  clip: number;
  maxWindows: number;
  accountant: AccountantName;
  secureNoise: boolean;
}

export const defaultDelta = (units: number) => Math.min(1e-5, 1 / (10 * units));

/**
 * Resolves a DP run: Poisson sampling of `expectedUnits` units per release out of `units` (rate
 * q = expectedUnits/units, capped at 1), as many releases per epoch as make one pass over the units in
 * expectation, and the noise given or solved for `targetEpsilon` over the planned releases (each batch
 * of an accumulated step is a release of its own).
 */
export function planDp(options: DpOptions, units: number, expectedUnits: number, run: { epochs: number; maxSteps?: number; accumulate?: number }, defaultUnit: DpUnit = 'author'): DpPlan {
  const unit = options.unit ?? defaultUnit;
  if (units < 1) throw new UsageError('a DP run needs at least one training unit');
  if (options.noiseMultiplier === undefined && options.targetEpsilon === undefined) throw new UsageError('--privacy dp needs --dp-noise S or --target-epsilon E');
  if (options.noiseMultiplier !== undefined && options.targetEpsilon !== undefined) throw new UsageError('give either --dp-noise or --target-epsilon, not both');
  const sampleRate = Math.min(1, expectedUnits / units);
  const releasesPerEpoch = Math.max(1, Math.round(units / expectedUnits));
  const releases = run.maxSteps !== undefined ? run.maxSteps * Math.max(1, run.accumulate ?? 1) : releasesPerEpoch * run.epochs;
  const delta = options.delta ?? defaultDelta(units);
  const accountant = options.accountant ?? 'rdp';
  const noiseMultiplier = options.noiseMultiplier ?? noiseForEpsilon(options.targetEpsilon!, sampleRate, releases, delta, accountant);
  return { unit, individuals: units, sampleRate, releasesPerEpoch, releases, delta, noiseMultiplier, clip: options.clip ?? 1.0, maxWindows: unit === 'window' ? 1 : (options.maxWindows ?? 4), accountant, secureNoise: options.insecureSeededNoise !== true };
}

/** Example indices grouped by their unit's key (e.g. the author of each window), in order of first appearance. */
export function groupUnits(keys: readonly string[]): number[][] {
  const groups = new Map<string, number[]>();
  keys.forEach((k, i) => {
    let g = groups.get(k);
    if (g === undefined) groups.set(k, (g = []));
    g.push(i);
  });
  return [...groups.values()];
}

/**
 * The generator of each release's sampling, window subsets and noise: the OS CSPRNG, or with the insecure
 * flag a generator forked from the seed by (epoch, release), which makes a run (and its resume) reproducible.
 */
export function releaseRandom(plan: Pick<DpPlan, 'secureNoise'>, seed: number): (epoch: number, release: number) => RandomSource {
  if (plan.secureNoise) {
    const secure = new SecureRng();
    return () => secure;
  }
  const base = new Rng(seed ^ 0x2545f491);
  return (epoch, release) => base.fork(epoch * 1_000_003 + release);
}

/** What ppmlm.json records of a DP run (these key names exactly). */
export interface DpRecord {
  unit: DpUnit;
  epsilon: number;
  delta: number;
  individuals: number;
  noiseMultiplier: number;
  clip: number;
  sampleRate: number;
  releases: number;
  accountant: AccountantName;
  secureNoise: boolean;
  /** Inputs derived from private data that the run was allowed to use: epsilon is then not a guarantee. */
  privatePreprocessing?: string[];
}

/** The record of a run whose accountant holds its releases so far (or, before any, the plan's epsilon). */
export function dpRecord(plan: DpPlan, accountant: Accountant): DpRecord {
  return {
    unit: plan.unit,
    epsilon: accountant.getEpsilon(plan.delta),
    delta: plan.delta,
    individuals: plan.individuals,
    noiseMultiplier: plan.noiseMultiplier,
    clip: plan.clip,
    sampleRate: plan.sampleRate,
    releases: accountant.releases,
    accountant: plan.accountant,
    secureNoise: plan.secureNoise,
  };
}

/** What stderr says of a run with --dp-insecure-seeded-noise. */
export const INSECURE_NOISE_WARNING = '--dp-insecure-seeded-noise: DP sampling and noise come from the seed, so anyone with the seed can replay them: this run has NO differential privacy (recorded as secureNoise: false)';

/**
 * What an epsilon is per, for every place that prints one: "per individual (12 authors)". Takes a record as
 * read back from any ppmlm.json, whose unit may be one this version does not know.
 */
export function epsilonUnitLabel(record: { unit: string; individuals: number }): string {
  const labels: Record<string, string> = {
    author: `per individual (${record.individuals} authors)`,
    document: `per document (${record.individuals} documents; not per individual where one person has several)`,
    window: `per window (${record.individuals} windows; NOT per individual: one person's windows add up)`,
  };
  return labels[record.unit] ?? `per ${record.unit} (${record.individuals})`;
}

/** One line saying what a DP run's epsilon is about, for the log and the CLI. */
export function describeDp(plan: DpPlan): string {
  const who = `${epsilonUnitLabel(plan)}${plan.unit === 'window' ? '' : `, at most ${plan.maxWindows} windows each per release`}`;
  return `DP-SGD ${who}: sample rate ${plan.sampleRate.toFixed(4)}, noise multiplier ${plan.noiseMultiplier.toFixed(2)}, clip ${plan.clip}, delta ${plan.delta.toExponential(2)}, ${plan.releases} releases, ${plan.accountant} accountant${plan.secureNoise ? '' : ', INSECURE seeded noise'}`;
}
