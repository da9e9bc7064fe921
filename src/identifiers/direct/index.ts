import { UsageError } from '../../errors.js';
import { PATTERNS, PATTERN_NAMES, PatternRecognizer } from './patterns.js';
import type { Detection, Recognizer } from './recognizer.js';

export type { Detection, Recognizer } from './recognizer.js';
export { PATTERNS, PATTERN_NAMES, PatternRecognizer } from './patterns.js';
export type { PatternSpec } from './patterns.js';
export { GazetteerRecognizer, readGazetteer, categoryForList } from './gazetteer.js';
export type { GazetteerOptions } from './gazetteer.js';
export * from './validators.js';

/** Pattern recognisers by `--recognizers` value: `all`, `none` or a comma list of names. */
export function patternRecognizers(selection = 'all'): Recognizer[] {
  if (selection === 'none') return [];
  if (selection === 'all') return PATTERNS.map((p) => new PatternRecognizer(p));
  const names = selection.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !PATTERN_NAMES.includes(n));
  if (unknown.length > 0) throw new UsageError(`unknown recogniser(s) ${unknown.join(', ')}; available: ${PATTERN_NAMES.join(', ')} (or all, none)`);
  return PATTERNS.filter((p) => names.includes(p.name)).map((p) => new PatternRecognizer(p));
}

/**
 * Runs every recogniser and keeps the longest detections: one inside a longer one is dropped, and of
 * two identical spans the earlier recogniser wins (validated patterns come first).
 */
export async function detectDirect(text: string, recognizers: readonly Recognizer[]): Promise<Detection[]> {
  const all: Detection[] = [];
  for (const r of recognizers) all.push(...(await r.find(text)));
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Detection[] = [];
  let reach = -1;
  for (const d of all) {
    if (d.end <= reach) continue;
    kept.push(d);
    reach = d.end;
  }
  return kept;
}
