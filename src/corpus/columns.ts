import { FormatError } from '../errors.js';
import { DEFAULT_COLUMNS, type ColumnNames, type ReadChoices } from './types.js';

/** Which field names to read, whether each was asked for explicitly (then it must exist), and how the user chooses it. */
export interface ColumnPlan {
  names: ColumnNames;
  required: Record<keyof ColumnNames, boolean>;
  choices: ReadChoices;
}

export const CLI_CHOICES: Required<ReadChoices> = { text: '--text-col', author: '--author-col', id: '--id-col', label: '--label-col', format: '--format' };

export function planColumns(columns: Partial<ColumnNames> = {}, choices: ReadChoices = CLI_CHOICES): ColumnPlan {
  return {
    choices,
    names: { ...DEFAULT_COLUMNS, ...dropUndefined(columns) },
    required: {
      text: true,
      author: columns.author !== undefined,
      id: columns.id !== undefined,
      label: columns.label !== undefined,
    },
  };
}

function dropUndefined<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `, ${verb} with X`-style advice for choosing the column, or nothing where the caller gives no way to choose it. */
export function columnChoice(plan: ColumnPlan, key: keyof ColumnNames, advice: (choice: string) => string): string {
  const choice = plan.choices[key];
  return choice === undefined ? '' : advice(choice);
}

/** Maps each field to its header index (-1 when absent and optional); a required absent column is an error. */
export function resolveHeader(header: readonly string[], plan: ColumnPlan, file: string, line?: number): Record<keyof ColumnNames, number> {
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup !== undefined) {
    throw new FormatError(looksLikeData(header) ? notAHeader(header) : `header names column "${dup}" twice; rename one of them`, { file, line });
  }
  const out = {} as Record<keyof ColumnNames, number>;
  for (const key of Object.keys(plan.names) as (keyof ColumnNames)[]) {
    const idx = header.indexOf(plan.names[key]);
    if (idx === -1 && plan.required[key]) {
      const seen = looksLikeData(header) ? notAHeader(header) : `the columns are: ${header.map((h) => `"${h}"`).join(', ')}`;
      throw new FormatError(`no column "${plan.names[key]}" for the ${key}; ${seen}${columnChoice(plan, key, (c) => ` (choose one with ${c})`)}`, { file, line });
    }
    out[key] = idx;
  }
  return out;
}

/**
 * Whether a first row is a document rather than column names: a cell of text (long, or over several
 * lines) or a bare number. A file without a header row makes its first document the header, and errors
 * must not print document text or identifiers, so such a row is described by its shape only.
 */
function looksLikeData(header: readonly string[]): boolean {
  return header.some((cell) => cell.length > 24 || cell.includes('\n') || /^\d+$/.test(cell));
}

function notAHeader(header: readonly string[]): string {
  const lengths = header.map((cell) => cell.length);
  const shape = lengths.length === 1 ? `1 cell of ${lengths[0]} characters` : `${lengths.length} cells of ${lengths.slice(0, -1).join(', ')} and ${lengths.at(-1)} characters`;
  return `the first row looks like a document, not a header (${shape}; not printed, as it may hold personal data): add a header row naming the columns, such as text, id, author, label`;
}
