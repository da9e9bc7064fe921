import { FormatError } from '../errors.js';
import type { TrainerState } from './trainer.js';

/** Where a run stands: what a resumed trainer state must fit. */
export interface TrainingPlan {
  epochs: number;
  batchesPerEpoch: number;
  totalSteps: number;
  accumulate: number;
  seed: number;
}

/**
 * Parses a checkpoint's trainer_state.json field by field: a hand-edited, truncated or foreign file is a
 * FormatError naming the field, the file and `fix`, not a crash or a silently wrong resume. Losses may be
 * `null` (JSON's NaN: an epoch without steps) and come back as NaN.
 *
 * @example
 * parseTrainerState('{}', 'ckpt/trainer_state.json', 'delete ckpt'); // throws: "step" must be an integer ≥ 0, got nothing
 */
export function parseTrainerState(text: string, file: string, fix: string): TrainerState {
  const bad = (why: string) => new FormatError(`${why}; ${fix}`, { file });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad('not valid JSON, the checkpoint is corrupt');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`a trainer state must be a JSON object, got ${JSON.stringify(value)}`);
  const o = value as Record<string, unknown>;
  const got = (name: string) => JSON.stringify(o[name]) ?? 'nothing';
  const int = (name: string, min = 0): number => {
    const x = o[name];
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < min) throw bad(`"${name}" must be an integer ≥ ${min}, got ${got(name)}`);
    return x;
  };
  const loss = (name: string, x: unknown): number => {
    if (x === null) return NaN;
    if (typeof x !== 'number') throw bad(`"${name}" must hold numbers, got ${got(name)}`);
    return x;
  };
  const losses = (name: string): number[] => {
    const x = o[name];
    if (!Array.isArray(x)) throw bad(`"${name}" must be an array of numbers, got ${got(name)}`);
    return x.map((l) => loss(name, l));
  };
  const state: TrainerState = {
    step: int('step'),
    epoch: int('epoch'),
    batch: int('batch'),
    totalSteps: int('totalSteps'),
    seed: int('seed', Number.MIN_SAFE_INTEGER),
    protectedTargets: int('protectedTargets'),
    targets: int('targets'),
    skippedBatches: int('skippedBatches'),
    lastLoss: loss('lastLoss', o.lastLoss),
    epochLosses: losses('epochLosses'),
    epochLossSum: loss('epochLossSum', o.epochLossSum),
    epochSteps: int('epochSteps'),
    evalLosses: losses('evalLosses'),
    ...(o.bestEpoch !== undefined && { bestEpoch: int('bestEpoch') }),
    // Checkpoints written before privacy accounting moved into the trainer have neither field.
    releases: o.releases === undefined ? 0 : int('releases'),
    ...(o.accountant !== undefined && { accountant: o.accountant }),
  };
  const consistent = (ok: boolean, why: string) => {
    if (!ok) throw bad(why);
  };
  consistent(state.step <= state.totalSteps, `"step" ${state.step} is past "totalSteps" ${state.totalSteps}`);
  consistent(state.protectedTargets <= state.targets, `"protectedTargets" ${state.protectedTargets} exceeds "targets" ${state.targets}`);
  consistent(state.epochSteps <= state.step, `"epochSteps" ${state.epochSteps} exceeds "step" ${state.step}`);
  // One mean per closed epoch; a maxSteps stop closes the epoch it cut short too.
  consistent(state.epochLosses.length === state.epoch || state.epochLosses.length === state.epoch + 1, `"epoch" ${state.epoch} does not fit the ${state.epochLosses.length} epoch losses of "epochLosses"`);
  consistent(state.evalLosses.length <= state.epochLosses.length, `"evalLosses" has ${state.evalLosses.length} entries for ${state.epochLosses.length} epochs`);
  consistent(state.bestEpoch === undefined || state.bestEpoch < state.evalLosses.length, `"bestEpoch" ${state.bestEpoch} has no evaluation loss`);
  return state;
}

/**
 * Checks that a parsed trainer state is a point of the run about to resume: within its epochs and
 * batches, no more steps than the batches before it allow, and the same schedule and seed.
 */
export function checkResumePoint(state: TrainerState, plan: TrainingPlan, file: string, fix: string): void {
  const check = (ok: boolean, why: string) => {
    if (!ok) throw new FormatError(`${why}; ${fix}`, { file });
  };
  check(state.epoch <= plan.epochs, `"epoch" is ${state.epoch} but the run has ${plan.epochs} epochs`);
  check(state.batch < plan.batchesPerEpoch, `"batch" is ${state.batch} but an epoch has ${plan.batchesPerEpoch} batches`);
  check(state.epoch < plan.epochs || state.batch === 0, `"batch" is ${state.batch} after the last epoch`);
  check(state.totalSteps === plan.totalSteps, `"totalSteps" is ${state.totalSteps} but the run has ${plan.totalSteps} steps`);
  const stepsPerEpoch = Math.ceil(plan.batchesPerEpoch / plan.accumulate);
  const reachable = state.epoch * stepsPerEpoch + Math.ceil(state.batch / plan.accumulate);
  check(state.step <= reachable, `"step" ${state.step} is more than the ${reachable} steps before epoch ${state.epoch}, batch ${state.batch}`);
  check(state.seed === plan.seed, `"seed" is ${state.seed} but the run's seed is ${plan.seed}`);
}
