import { FormatError } from '../errors.js';
import { isJsonObject, jsonErrorPosition } from '../io/json.js';
import { readLines } from '../io/lines.js';
import { planColumns } from './columns.js';
import { makeDocument, type RawRecord } from './validate.js';
import type { ColumnNames, CorpusReadOptions } from './types.js';

/** One JSON object of a JSONL file and its line. */
export interface JsonLine {
  value: Record<string, unknown>;
  line: number;
}

/**
 * Streams the objects of a JSONL file, one per line; blank lines are skipped but still counted, so
 * line numbers are the editor's. A line that is not a JSON object goes to `onRowError`.
 */
export async function* readJsonObjects(file: string, onRowError: (err: FormatError) => void): AsyncGenerator<JsonLine> {
  for await (const { text, line } of readLines(file)) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      onRowError(new FormatError(`not valid JSON${jsonErrorPosition(err)}; each line must be one JSON object`, { file, line }));
      continue;
    }
    if (!isJsonObject(value)) {
      onRowError(new FormatError('line is not a JSON object; each line must look like {"id": ..., "author": ..., "text": ...}', { file, line }));
      continue;
    }
    yield { value, line };
  }
}

/** Streams one document per JSON object line. */
export async function* readJsonl(file: string, options: CorpusReadOptions, onRowError: (err: FormatError) => void): AsyncGenerator<RawRecord> {
  const plan = planColumns(options.columns);
  for await (const { value: record, line } of readJsonObjects(file, onRowError)) {
    const field = (key: keyof ColumnNames): string | undefined | FormatError => {
      const value = record[plan.names[key]];
      if (value === undefined || value === null) {
        if (!plan.required[key]) return undefined;
        const keys = Object.keys(record).map((k) => `"${k}"`).join(', ');
        return new FormatError(`no key "${plan.names[key]}" for the ${key}; the keys are: ${keys} (choose one with --${key}-col)`, { file, line });
      }
      if (typeof value === 'string') return value;
      if (typeof value === 'number' && key !== 'text') return String(value);
      return new FormatError(`key "${plan.names[key]}" must be a string, got ${typeof value}`, { file, line });
    };
    const [textValue, idValue, authorValue, labelValue] = (['text', 'id', 'author', 'label'] as const).map(field);
    const problem = [textValue, idValue, authorValue, labelValue].find((v) => v instanceof FormatError);
    if (problem instanceof FormatError) {
      onRowError(problem);
      continue;
    }
    const id = (idValue as string | undefined) ?? String(line);
    yield { doc: makeDocument(id, (authorValue as string | undefined) ?? id, textValue as string, labelValue as string | undefined), file, line };
  }
}
