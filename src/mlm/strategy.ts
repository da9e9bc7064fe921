import { UsageError } from '../errors.js';
import type { TrainingWindow } from './windows.js';

export type StrategyName = 'standard' | 'constrained' | 'pseudonymized' | 'dp';
export const STRATEGIES: readonly StrategyName[] = ['standard', 'constrained', 'pseudonymized', 'dp'];

/**
 * Which positions each strategy may choose as targets. Only `constrained` excludes protected positions;
 * `pseudonymized` changes the input text instead, `dp` the optimizer (DP-SGD).
 */
export function eligiblePositions(strategy: StrategyName, window: TrainingWindow): Uint8Array {
  const n = window.ids.length;
  const eligible = new Uint8Array(n);
  const constrained = strategy === 'constrained';
  for (let i = 0; i < n; i++) eligible[i] = window.special[i] || (constrained && window.protectedMask[i]) ? 0 : 1;
  return eligible;
}

export function parseStrategy(value: string): StrategyName {
  if (!(STRATEGIES as readonly string[]).includes(value)) throw new UsageError(`unknown --strategy "${value}"; use one of ${STRATEGIES.join(', ')}`);
  return value as StrategyName;
}
