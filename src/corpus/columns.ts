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

/**
 * Maps each field to its header index (-1 when absent and optional); a required absent column is an error.
 * `schema`: the names come from a file's schema (Parquet), never from a row that may be a document.
 */
export function resolveHeader(header: readonly string[], plan: ColumnPlan, file: string, options: { line?: number; schema?: boolean } = {}): Record<keyof ColumnNames, number> {
  const { line } = options;
  const printable = options.schema === true || namesAKnownColumn(header, plan);
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup !== undefined) {
    throw new FormatError(printable ? `header names column "${dup}" twice; rename one of them` : notAHeader(header), { file, line });
  }
  const out = {} as Record<keyof ColumnNames, number>;
  for (const key of Object.keys(plan.names) as (keyof ColumnNames)[]) {
    const idx = header.indexOf(plan.names[key]);
    if (idx === -1 && plan.required[key]) {
      const seen = printable ? `the columns are: ${header.map((h) => `"${h}"`).join(', ')}` : notAHeader(header);
      throw new FormatError(`no column "${plan.names[key]}" for the ${key}; ${seen}${columnChoice(plan, key, (c) => ` (choose one with ${c})`)}`, { file, line });
    }
    out[key] = idx;
  }
  return out;
}

/**
 * Whether a first row is surely column names: one of its cells names a column asked for or a default one
 * (text, id, author, label). A file without a header row makes its first document the header, whose
 * cells may be short (a name, an email, a phone number), and errors must not print document text or
 * identifiers, so any other row is described by its shape only.
 */
function namesAKnownColumn(header: readonly string[], plan: ColumnPlan): boolean {
  const known = new Set([...Object.values(plan.names), ...Object.values(DEFAULT_COLUMNS)].map((name) => name.toLowerCase()));
  return header.some((cell) => known.has(cell.trim().toLowerCase()));
}

function notAHeader(header: readonly string[]): string {
  const lengths = header.map((cell) => cell.length);
  const shape = lengths.length === 1 ? `1 cell of ${lengths[0]} characters` : `${lengths.length} cells of ${lengths.slice(0, -1).join(', ')} and ${lengths.at(-1)} characters`;
  return `the first row names no known column (${shape}; not printed, as it may be a document holding personal data): add a header row naming the columns, such as text, id, author, label`;
}
