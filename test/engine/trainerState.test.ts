import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { checkResumePoint, parseTrainerState, type TrainingPlan } from '../../src/engine/trainerState.js';
import type { TrainerState } from '../../src/engine/index.js';

/** The state after 5 steps of a run of 2 epochs × 4 batches, saved mid-epoch 1. */
const saved: TrainerState = { step: 5, epoch: 1, batch: 1, totalSteps: 8, seed: 42, protectedTargets: 3, targets: 40, skippedBatches: 0, lastLoss: 2.5, epochLosses: [3.1], epochLossSum: 2.5, epochSteps: 1, evalLosses: [], releases: 0 };
const plan: TrainingPlan = { epochs: 2, batchesPerEpoch: 4, totalSteps: 8, accumulate: 1, seed: 42 };
const FILE = 'run.checkpoint/checkpoint/trainer_state.json';
const FIX = 'delete run.checkpoint';
const parse = (value: unknown) => parseTrainerState(typeof value === 'string' ? value : JSON.stringify(value), FILE, FIX);

/** The FormatError `run` throws, for its message and file. */
function formatError(run: () => unknown): FormatError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(FormatError);
    return err as FormatError;
  }
  throw new Error('no error thrown');
}

describe('parseTrainerState', () => {
  it('reads back what the trainer writes, null losses as NaN', () => {
    expect(parse(saved)).toEqual(saved);
    expect(parse({ ...saved, lastLoss: null, epochLosses: [null] })).toMatchObject({ lastLoss: NaN, epochLosses: [NaN] });
    expect(parse({ ...saved, evalLosses: [1.5], bestEpoch: 0 })).toMatchObject({ bestEpoch: 0 });
  });

  it('refuses a file that is not a trainer state, naming the file, the field and the fix', () => {
    const cases: [unknown, RegExp][] = [
      ['{"step": 5', /not valid JSON/],
      [null, /must be a JSON object, got null/],
      [[], /must be a JSON object/],
      [{}, /"step" must be an integer ≥ 0, got nothing/],
      [{ ...saved, epoch: '1' }, /"epoch" must be an integer ≥ 0, got "1"/],
      [{ ...saved, batch: 1.5 }, /"batch" must be an integer/],
      [{ ...saved, step: -1 }, /"step" must be an integer ≥ 0, got -1/],
      [{ ...saved, lastLoss: 'low' }, /"lastLoss" must hold numbers/],
      [{ ...saved, epochLosses: 3 }, /"epochLosses" must be an array of numbers/],
      [{ ...saved, evalLosses: ['x'] }, /"evalLosses" must hold numbers/],
      [{ ...saved, step: 9 }, /"step" 9 is past "totalSteps" 8/],
      [{ ...saved, protectedTargets: 41 }, /"protectedTargets" 41 exceeds "targets" 40/],
      [{ ...saved, epochLosses: [] }, /"epoch" 1 does not fit the 0 epoch losses of "epochLosses"/],
      [{ ...saved, bestEpoch: 0 }, /"bestEpoch" 0 has no evaluation loss/],
    ];
    for (const [value, message] of cases) {
      const err = formatError(() => parse(value));
      expect(err.message, JSON.stringify(value)).toMatch(message);
      expect(err.message).toMatch(/; delete run\.checkpoint$/);
      expect(err.file).toBe(FILE);
    }
  });
});

describe('checkResumePoint', () => {
  it('accepts a point of the run, its end included', () => {
    expect(() => checkResumePoint(saved, plan, FILE, FIX)).not.toThrow();
    expect(() => checkResumePoint({ ...saved, step: 8, epoch: 2, batch: 0, epochLosses: [3.1, 2.4] }, plan, FILE, FIX)).not.toThrow();
  });

  it('refuses a state outside the run or of another schedule', () => {
    const cases: [Partial<TrainerState>, RegExp][] = [
      [{ epoch: 99 }, /"epoch" is 99 but the run has 2 epochs/],
      [{ batch: 99999 }, /"batch" is 99999 but an epoch has 4 batches/],
      [{ epoch: 2, batch: 1 }, /"batch" is 1 after the last epoch/],
      [{ totalSteps: 16 }, /"totalSteps" is 16 but the run has 8 steps/],
      [{ step: 6 }, /"step" 6 is more than the 5 steps before epoch 1, batch 1/],
      [{ seed: 7 }, /"seed" is 7 but the run's seed is 42/],
    ];
    for (const [change, message] of cases) {
      const err = formatError(() => checkResumePoint({ ...saved, ...change }, plan, FILE, FIX));
      expect(err.message).toMatch(message);
      expect(err.file).toBe(FILE);
    }
  });
});
