import { UsageError } from '../errors.js';
import { DP_UNITS, parseAccountant, type DpOptions, type DpUnit } from '../privacy/index.js';
import { FINETUNE_RANGES } from '../mlm/index.js';
import { parseRangedFlag } from './parseFlags.js';

/** The DP flags `dpOptions` declares, as commander hands them over (none has a default: given means asked for). */
export interface DpFlags {
  dpUnit?: string;
  dpClip?: string;
  dpNoise?: string;
  targetEpsilon?: string;
  delta?: string;
  dpMaxWindows?: string;
  accountant?: string;
  dpInsecureSeededNoise?: boolean;
  dpReleaseStats?: boolean;
  dpAllowPrivatePreprocessing?: boolean;
}

const FLAGS: readonly [keyof DpFlags, string][] = [
  ['dpUnit', '--dp-unit'],
  ['dpClip', '--dp-clip'],
  ['dpNoise', '--dp-noise'],
  ['targetEpsilon', '--target-epsilon'],
  ['delta', '--delta'],
  ['dpMaxWindows', '--dp-max-windows'],
  ['accountant', '--accountant'],
  ['dpInsecureSeededNoise', '--dp-insecure-seeded-noise'],
  ['dpReleaseStats', '--dp-release-stats'],
  ['dpAllowPrivatePreprocessing', '--dp-allow-private-preprocessing'],
];

/**
 * Parses the DP flags of a run whose privacy axis is `privacy`: any of them without `dp` is a UsageError
 * naming the flag (exit 2), as is a missing or doubled noise setting, before any corpus is read.
 */
export function parseDpFlags(flags: DpFlags, privacy: 'none' | 'dp'): DpOptions | undefined {
  const given = FLAGS.filter(([key]) => flags[key] !== undefined && flags[key] !== false);
  if (privacy !== 'dp') {
    if (given.length > 0) throw new UsageError(`${given[0]![1]} needs --privacy dp (or --strategy dp); drop it or add --privacy dp`);
    return undefined;
  }
  if (flags.dpUnit !== undefined && !(DP_UNITS as readonly string[]).includes(flags.dpUnit)) throw new UsageError(`unknown --dp-unit "${flags.dpUnit}"; use one of ${DP_UNITS.join(', ')}`);
  if (flags.dpNoise !== undefined && flags.targetEpsilon !== undefined) throw new UsageError('give either --dp-noise or --target-epsilon, not both');
  if (flags.dpNoise === undefined && flags.targetEpsilon === undefined) throw new UsageError('--privacy dp needs --dp-noise S or --target-epsilon E');
  const unit = flags.dpUnit as DpUnit | undefined;
  if (unit === 'window' && flags.dpMaxWindows !== undefined) throw new UsageError('--dp-max-windows is for --dp-unit author or document; a window unit is one window');
  return {
    unit,
    clip: flags.dpClip === undefined ? undefined : parseRangedFlag(flags.dpClip, '--dp-clip', FINETUNE_RANGES.dpClip),
    noiseMultiplier: flags.dpNoise === undefined ? undefined : parseRangedFlag(flags.dpNoise, '--dp-noise', FINETUNE_RANGES.dpNoise),
    targetEpsilon: flags.targetEpsilon === undefined ? undefined : parseRangedFlag(flags.targetEpsilon, '--target-epsilon', FINETUNE_RANGES.targetEpsilon),
    delta: flags.delta === undefined ? undefined : parseRangedFlag(flags.delta, '--delta', FINETUNE_RANGES.delta),
    maxWindows: flags.dpMaxWindows === undefined ? undefined : parseRangedFlag(flags.dpMaxWindows, '--dp-max-windows', FINETUNE_RANGES.dpMaxWindows),
    accountant: flags.accountant === undefined ? undefined : parseAccountant(flags.accountant),
    insecureSeededNoise: flags.dpInsecureSeededNoise === true,
    releaseStats: flags.dpReleaseStats === true,
    allowPrivatePreprocessing: flags.dpAllowPrivatePreprocessing === true,
  };
}
