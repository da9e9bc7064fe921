import { FormatError } from '../errors.js';
import { isJsonObject, parseJson } from '../io/json.js';
import { readLines } from '../io/lines.js';
import { columnChoice, planColumns } from './columns.js';
import { makeDocument, type RawRecord } from './validate.js';
import { DEFAULT_MAX_DOC_CHARS, type ColumnNames, type CorpusReadOptions } from './types.js';

/** One JSON object of a JSONL file and its line. */
export interface JsonLine {
  value: Record<string, unknown>;
  line: number;
}

export interface JsonObjectsOptions {
  /**
   * Lines that cannot hold a document of at most this many characters are refused while they are read,
   * before any parsing: a character takes at most 6 bytes in JSON (`\uXXXX`), and 1 MiB is left for the
   * other keys. The exact length is checked once the line is parsed.
   */
  maxDocChars?: number;
}

/**
 * Streams the objects of a JSONL file, one per line; blank lines are skipped but still counted, so
 * line numbers are the editor's. A line that is not a JSON object, or too long, goes to `onRowError`.
 */
export async function* readJsonObjects(file: string, onRowError: (err: FormatError) => void, options: JsonObjectsOptions = {}): AsyncGenerator<JsonLine> {
  const { maxDocChars } = options;
  const lines = readLines(
    file,
    maxDocChars === undefined
      ? {}
      : {
          maxLineBytes: 6 * maxDocChars + 2 ** 20,
          onLongLine: (line) =>
            onRowError(new FormatError(`the line is too long for a document of at most ${maxDocChars} characters; split the document or raise --max-doc-chars`, { file, line })),
        },
  );
  for await (const { text, line } of lines) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = parseJson(text, file, 'each line must be one JSON object', line);
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
      onRowError(err);
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
  const plan = planColumns(options.columns, options.choices);
  for await (const { value: record, line } of readJsonObjects(file, onRowError, { maxDocChars: options.maxDocChars ?? DEFAULT_MAX_DOC_CHARS })) {
    const field = (key: keyof ColumnNames): string | undefined | FormatError => {
      const value = record[plan.names[key]];
      if (value === undefined || value === null) {
        if (!plan.required[key]) return undefined;
        const keys = Object.keys(record).map((k) => `"${k}"`).join(', ');
        return new FormatError(`no key "${plan.names[key]}" for the ${key}; the keys are: ${keys}${columnChoice(plan, key, (c) => ` (choose one with ${c})`)}`, { file, line });
      }
      if (typeof value === 'string') return value;
      if (typeof value === 'number' && key !== 'text') return String(value);
      return new FormatError(`key "${plan.names[key]}" must be a string${key === 'text' ? '' : ' or a number'}, got ${Array.isArray(value) ? 'an array' : typeof value}; write the ${key} as one${columnChoice(plan, key, (c) => `, or choose another key with ${c}`)}`, { file, line });
    };
    const [textValue, idValue, authorValue, labelValue] = (['text', 'id', 'author', 'label'] as const).map(field);
    const problem = [textValue, idValue, authorValue, labelValue].find((v) => v instanceof FormatError);
    if (problem instanceof FormatError) {
      onRowError(problem);
      continue;
    }
    const id = (idValue as string | undefined) ?? String(line);
    yield { doc: makeDocument(id, authorValue as string | undefined, textValue as string, labelValue as string | undefined), file, line };
  }
}
