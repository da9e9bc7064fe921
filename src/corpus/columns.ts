import { FormatError } from '../errors.js';
import { DEFAULT_COLUMNS, type ColumnNames } from './types.js';

/** Which field names to read, and whether each was asked for explicitly (then it must exist). */
export interface ColumnPlan {
  names: ColumnNames;
  required: Record<keyof ColumnNames, boolean>;
}

export function planColumns(columns: Partial<ColumnNames> = {}): ColumnPlan {
  return {
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

const FLAG: Record<keyof ColumnNames, string> = { text: '--text-col', author: '--author-col', id: '--id-col', label: '--label-col' };

/** Maps each field to its header index (-1 when absent and optional); a required absent column is an error. */
export function resolveHeader(header: readonly string[], plan: ColumnPlan, file: string, line?: number): Record<keyof ColumnNames, number> {
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup !== undefined) throw new FormatError(`header names column ${columnName(dup)} twice; rename one of them`, { file, line });
  const out = {} as Record<keyof ColumnNames, number>;
  for (const key of Object.keys(plan.names) as (keyof ColumnNames)[]) {
    const idx = header.indexOf(plan.names[key]);
    if (idx === -1 && plan.required[key]) {
      throw new FormatError(
        `no column "${plan.names[key]}" for the ${key}; the columns are: ${header.map(columnName).join(', ')} (choose one with ${FLAG[key]})`,
        { file, line },
      );
    }
    out[key] = idx;
  }
  return out;
}

/**
 * A header cell as quoted in an error. A file without a header row makes its first document the header,
 * and errors must not print document text: long cells are cut.
 */
function columnName(cell: string): string {
  return cell.length > 24 ? `"${cell.slice(0, 16)}…" (${cell.length} characters)` : `"${cell}"`;
}
