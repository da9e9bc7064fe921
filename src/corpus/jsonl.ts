import { FormatError } from '../errors.js';
import { readLines } from '../io/lines.js';
import { jsonSyntaxError } from '../io/jsonError.js';
import { planColumns } from './columns.js';
import { makeDocument, type RawRecord } from './validate.js';
import type { ColumnNames, CorpusReadOptions } from './types.js';

/** Streams one JSON object per line; blank lines are skipped. */
export async function* readJsonl(file: string, options: CorpusReadOptions, onRowError: (err: FormatError) => void): AsyncGenerator<RawRecord> {
  const plan = planColumns(options.columns);
  let any = false;
  for await (const { text, line } of readLines(file)) {
    if (text.trim() === '') continue;
    any = true;
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch (err) {
      onRowError(new FormatError(`${jsonSyntaxError(err)}; each line must be one JSON object`, { file, line }));
      continue;
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      onRowError(new FormatError('line is not a JSON object; each line must look like {"id": ..., "author": ..., "text": ...}', { file, line }));
      continue;
    }
    const record = obj as Record<string, unknown>;
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
  if (!any) throw new FormatError('the file is empty; a JSONL corpus needs at least one document', { file, line: 1 });
}
