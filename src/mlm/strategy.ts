import { UsageError } from '../errors.js';
import type { TrainingWindow } from './windows.js';

/** Which positions may be targets: all but special tokens, or (`constrained`, PPmlm) never a protected one. */
export type MaskingPolicy = 'standard' | 'constrained';
/** The text before tokenization: as written, or with direct identifiers rewritten (placeholders or surrogates). */
export type InputRewrite = 'original' | 'pseudonymized';
/** How gradients become an update: plain, or DP-SGD (clipping per individual, noise, accounting). */
export type PrivacyMechanism = 'none' | 'dp';

/** A fine-tuning run's three independent choices (DESIGN.md: "A fine-tuning run = three independent choices"). */
export interface TrainingAxes {
  masking: MaskingPolicy;
  input: InputRewrite;
  privacy: PrivacyMechanism;
}

export const MASKING_POLICIES: readonly MaskingPolicy[] = ['standard', 'constrained'];
export const INPUT_REWRITES: readonly InputRewrite[] = ['original', 'pseudonymized'];
export const PRIVACY_MECHANISMS: readonly PrivacyMechanism[] = ['none', 'dp'];

export type StrategyName = 'standard' | 'constrained' | 'pseudonymized' | 'dp';
export const STRATEGIES: readonly StrategyName[] = ['standard', 'constrained', 'pseudonymized', 'dp'];

/** The paper's four strategies as points of the three axes; every other point runs too (e.g. constrained + dp). */
export const PRESETS: Readonly<Record<StrategyName, TrainingAxes>> = {
  standard: { masking: 'standard', input: 'original', privacy: 'none' },
  constrained: { masking: 'constrained', input: 'original', privacy: 'none' },
  pseudonymized: { masking: 'standard', input: 'pseudonymized', privacy: 'none' },
  dp: { masking: 'standard', input: 'original', privacy: 'dp' },
};

/**
 * The name of a point of the axes: its preset's name, else the values that differ from `standard` joined
 * by `+` (`constrained+dp`, `constrained+pseudonymized+dp`): the label ppmlm.json, logs and the
 * experiment's cells use, and what {@link parseAxes} reads back.
 */
export function axesName(axes: TrainingAxes): string {
  const preset = STRATEGIES.find((s) => PRESETS[s].masking === axes.masking && PRESETS[s].input === axes.input && PRESETS[s].privacy === axes.privacy);
  if (preset) return preset;
  return [axes.masking === 'constrained' && 'constrained', axes.input === 'pseudonymized' && 'pseudonymized', axes.privacy === 'dp' && 'dp'].filter(Boolean).join('+');
}

/**
 * Reads a strategy: a preset name, or `+`-joined axis values (`constrained+dp`; each of `constrained`,
 * `pseudonymized`, `dp` at most once, the unnamed axes at their `standard` value). `what` names the flag
 * or config key in the error.
 */
export function parseAxes(value: string, what = '--strategy'): TrainingAxes {
  if ((STRATEGIES as readonly string[]).includes(value)) return { ...PRESETS[value as StrategyName] };
  const parts = value.split('+');
  const known = ['constrained', 'pseudonymized', 'dp'];
  const bad = parts.find((p) => !known.includes(p));
  if (bad !== undefined || new Set(parts).size !== parts.length) {
    throw new UsageError(`unknown ${what} "${value}"; use one of ${STRATEGIES.join(', ')} or a combination such as constrained+dp (of ${known.join(', ')})`);
  }
  return { masking: parts.includes('constrained') ? 'constrained' : 'standard', input: parts.includes('pseudonymized') ? 'pseudonymized' : 'original', privacy: parts.includes('dp') ? 'dp' : 'none' };
}

/**
 * The axes of a run from `--strategy` (a preset or a combination, see {@link parseAxes}) and the per-axis
 * flags: each given axis flag overrides the strategy's value on its axis (`--strategy constrained
 * --privacy dp` is `constrained+dp`).
 */
export function resolveAxes(strategy: string, overrides: Partial<TrainingAxes> = {}): TrainingAxes {
  const axes = parseAxes(strategy);
  const check = <T extends string>(value: T | undefined, allowed: readonly T[], flag: string) => {
    if (value !== undefined && !allowed.includes(value)) throw new UsageError(`unknown ${flag} "${value}"; use one of ${allowed.join(', ')}`);
    return value;
  };
  return {
    masking: check(overrides.masking, MASKING_POLICIES, '--masking') ?? axes.masking,
    input: check(overrides.input, INPUT_REWRITES, '--input') ?? axes.input,
    privacy: check(overrides.privacy, PRIVACY_MECHANISMS, '--privacy') ?? axes.privacy,
  };
}

/**
 * Refuses axes that need a blacklist when there is none: constrained masking without one would train
 * standard MLM under a "constrained" label, and pseudonymisation would rewrite nothing.
 */
export function assertBlacklistFor(axes: TrainingAxes, hasBlacklist: boolean): void {
  if (hasBlacklist || (axes.masking !== 'constrained' && axes.input !== 'pseudonymized')) return;
  throw new UsageError(`--strategy ${axesName(axes)} needs --blacklist FILE for its ${axes.masking === 'constrained' ? 'constrained masking' : 'pseudonymized input'} (build one with "ppmlm blacklist build")`);
}

/** Which positions a masking policy may choose as targets: never special tokens; under `constrained`, never protected ones. */
export function eligiblePositions(masking: MaskingPolicy, window: TrainingWindow): Uint8Array {
  const n = window.ids.length;
  const eligible = new Uint8Array(n);
  const constrained = masking === 'constrained';
  for (let i = 0; i < n; i++) eligible[i] = window.special[i] || (constrained && window.protectedMask[i]) ? 0 : 1;
  return eligible;
}
