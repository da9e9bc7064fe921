/**
 * The split every blacklist experiment on the PhysioNet notes keeps: rules are developed and their errors
 * read on patients 1-80 only; patients 81-163 are measured, never read. Defined once so that no script
 * draws the line elsewhere.
 */
import type { Proportion } from '../../src/audit/index.js';
import type { SpanDocument } from '../../src/corpus/index.js';

/** The last patient of the development half. */
const LAST_DEVELOPMENT_PATIENT = 80;
const patient = (d: SpanDocument) => Number(d.id.split('/')[0]);

/** The development notes (patients 1-80): the only ones error analysis may read. */
export const developmentNotes = (notes: readonly SpanDocument[]) => notes.filter((d) => patient(d) <= LAST_DEVELOPMENT_PATIENT);

/** The rows of a results table: the development half, the untouched half, and all patients. */
export function physionetParts(notes: readonly SpanDocument[]): [string, SpanDocument[]][] {
  return [
    ['patients 1-80 (development)', developmentNotes(notes)],
    ['patients 81-163 (untouched)', notes.filter((d) => patient(d) > LAST_DEVELOPMENT_PATIENT)],
    ['all 163 patients', [...notes]],
  ];
}

/** A proportion as the results tables print it: percent and its 95% interval, "–" when undefined. */
export const pct = (p: Proportion | undefined) =>
  p === undefined || Number.isNaN(p.value) ? '–' : `${(100 * p.value).toFixed(1)} [${(100 * p.interval[0]).toFixed(1)}, ${(100 * p.interval[1]).toFixed(1)}]`;
