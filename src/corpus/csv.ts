import { createReadStream } from 'node:fs';
import { parse } from 'fast-csv';
import { FormatError } from '../errors.js';
import { Utf8Validator } from '../io/utf8.js';
import { planColumns, resolveHeader } from './columns.js';
import { makeDocument, type RawRecord } from './validate.js';
import type { CorpusReadOptions } from './types.js';

/**
 * Streams CSV/TSV rows as records. The header is the first non-empty row. Line numbers count the
 * newlines inside quoted fields, so an error names the line an editor shows.
 */
export async function* readDelimited(
  file: string,
  delimiter: ',' | '\t',
  options: CorpusReadOptions,
  onRowError: (err: FormatError) => void,
): AsyncGenerator<RawRecord> {
  const plan = planColumns(options.columns);
  const source = createReadStream(file);
  const validator = new Utf8Validator(file);
  // TSV files rarely quote; a stray quote in a text must not swallow the rest of the file.
  const parser = parse({ headers: false, delimiter, quote: delimiter === '\t' ? null : '"', ignoreEmpty: false });
  let streamError: unknown;
  const fail = (err: unknown) => {
    streamError ??= err;
    parser.destroy(err as Error);
  };
  source.on('error', fail);
  validator.on('error', fail);
  source.pipe(validator).pipe(parser);

  let line = 1;
  let cols: ReturnType<typeof resolveHeader> | undefined;
  let width = 0;
  try {
    for await (const row of parser as AsyncIterable<string[]>) {
      const rowLine = line;
      line += 1 + row.reduce((n, field) => n + countNewlines(field), 0);
      if (row.length === 0 || (row.length === 1 && row[0] === '')) continue;
      if (cols === undefined) {
        cols = resolveHeader(row, plan, file, rowLine);
        width = row.length;
        continue;
      }
      if (row.length !== width) {
        onRowError(new FormatError(`row has ${row.length} fields but the header has ${width}; quote fields that contain "${delimiter === '\t' ? '\\t' : delimiter}"`, { file, line: rowLine }));
        continue;
      }
      const get = (i: number) => (i === -1 ? undefined : row[i]);
      const id = get(cols.id) ?? String(rowLine);
      yield { doc: makeDocument(id, get(cols.author) ?? id, row[cols.text]!, get(cols.label)), file, line: rowLine };
    }
  } catch (err) {
    throw translate(streamError ?? err, file, line);
  } finally {
    source.destroy();
  }
  if (cols === undefined) throw new FormatError('the file is empty; a CSV/TSV corpus needs a header row and at least one document', { file, line: 1 });
}

function translate(err: unknown, file: string, line: number): unknown {
  if (err instanceof FormatError) return err;
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.message === 'string' && e.message.includes('missing closing')) {
    return new FormatError('unterminated quoted field starts here; close the quote or escape it as ""', { file, line });
  }
  return err;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
