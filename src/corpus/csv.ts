import { createReadStream } from 'node:fs';
import { FormatError } from '../errors.js';
import { Utf8Validator } from '../io/utf8.js';
import { planColumns, resolveHeader } from './columns.js';
import { DelimitedSplitter, type DelimitedRecord } from './csvRecords.js';
import { makeDocument, type RawRecord } from './validate.js';
import { DEFAULT_MAX_DOC_CHARS, type CorpusReadOptions } from './types.js';

/**
 * Streams CSV/TSV rows as records. The header is the first non-empty row. Line numbers count the
 * newlines inside quoted fields, so an error names the line an editor shows. A malformed row (a stray
 * or unterminated quote, a field over `maxDocChars`, the wrong number of fields) goes to `onRowError`.
 */
export async function* readDelimited(
  file: string,
  delimiter: ',' | '\t',
  options: CorpusReadOptions,
  onRowError: (err: FormatError) => void,
): AsyncGenerator<RawRecord> {
  const plan = planColumns(options.columns, options.choices);
  const source = createReadStream(file);
  const validator = new Utf8Validator(file);
  source.on('error', (err) => validator.destroy(err));
  // TSV files rarely quote; a stray quote in a text must not swallow the rest of the file.
  const splitter = new DelimitedSplitter({ delimiter, quoted: delimiter === ',', maxFieldChars: options.maxDocChars ?? DEFAULT_MAX_DOC_CHARS });
  let cols: ReturnType<typeof resolveHeader> | undefined;
  let width = 0;
  function* rows(records: DelimitedRecord[]): Generator<RawRecord> {
    for (const { fields, line, problem } of records) {
      if (problem !== undefined) {
        onRowError(new FormatError(problem, { file, line }));
        continue;
      }
      if (fields.length === 1 && fields[0] === '') continue;
      if (cols === undefined) {
        cols = resolveHeader(fields, plan, file, { line });
        width = fields.length;
        continue;
      }
      if (fields.length !== width) {
        onRowError(new FormatError(`row has ${fields.length} fields but the header has ${width}; quote fields that contain "${delimiter === '\t' ? '\\t' : delimiter}"`, { file, line }));
        continue;
      }
      const get = (i: number) => (i === -1 ? undefined : fields[i]);
      const id = get(cols.id) ?? String(line);
      yield { doc: makeDocument(id, get(cols.author), fields[cols.text]!, get(cols.label)), file, line };
    }
  }
  try {
    for await (const bytes of source.pipe(validator) as AsyncIterable<Buffer>) yield* rows(splitter.push(bytes));
    yield* rows(splitter.end());
  } finally {
    source.destroy();
  }
}
