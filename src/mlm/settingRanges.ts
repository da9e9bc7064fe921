/** The values a numeric fine-tuning setting may take: a flag on the command line, a key of an experiment config. */
export interface SettingRange {
  min: number;
  max?: number;
  /** Neither bound itself (a learning rate of 0 trains nothing). */
  exclusive?: boolean;
  integer?: boolean;
}

/** Tokens per training window when none is given: BERT's pretraining windows, and what fine-tuning recipes use. */
export const DEFAULT_SEQ_LEN = 128;

/**
 * The ranges of fine-tuning's numeric settings, checked the same way wherever they are given: `finetune`'s
 * flags, an experiment config's `finetune` object, and the library's `finetune` options (its DP settings
 * under `dp`, by their own names).
 */
export const FINETUNE_RANGES = {
  seqLen: { min: 8, max: 4096, integer: true },
  batchSize: { min: 1, integer: true },
  lr: { min: 0, max: 1, exclusive: true },
  maskProb: { min: 0.001, max: 1 },
  dropout: { min: 0, max: 0.9 },
  dpClip: { min: 1e-6 },
  dpNoise: { min: 0.01 },
  targetEpsilon: { min: 1e-3 },
  delta: { min: 1e-12, max: 0.5 },
  dpMaxWindows: { min: 1, integer: true },
  epochs: { min: 1, integer: true },
  maxSteps: { min: 1, integer: true },
  accumulate: { min: 1, integer: true },
  warmupRatio: { min: 0, max: 1 },
  weightDecay: { min: 0, max: 1 },
  stride: { min: 0, integer: true },
  saveSteps: { min: 1, integer: true },
} as const satisfies Record<string, SettingRange>;

/** What a value of the range must be, as an error says it: "an integer between 8 and 4096". */
export function rangeText(range: SettingRange): string {
  const max = range.max ?? (range.integer ? Number.MAX_SAFE_INTEGER : Infinity);
  return `${range.integer ? 'an integer' : 'a number'} between ${range.min} and ${max}${range.exclusive ? ' (exclusive)' : ''}`;
}

/** Whether `value` lies in the range. */
export function inRange(value: unknown, range: SettingRange): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || (range.integer && !Number.isInteger(value))) return false;
  const max = range.max ?? Infinity;
  return range.exclusive ? value > range.min && value < max : value >= range.min && value <= max;
}
