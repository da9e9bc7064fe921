/** One record of a CSV/TSV text: its fields, or why it is malformed, and the line it starts on. */
export interface DelimitedRecord {
  fields: string[];
  /** 1-based line of the record's first character. */
  line: number;
  /** Set when the record is malformed; its fields are then incomplete. */
  problem?: string;
}

export interface SplitterOptions {
  delimiter: ',' | '\t';
  /** Whether `"` quotes fields (RFC 4180); TSV files rarely quote, so a stray quote there is text. */
  quoted: boolean;
  /** A longer field makes its record malformed and is not kept in memory. */
  maxFieldChars: number;
}

type State = 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'afterQuote' | 'skipLine';

/**
 * Splits CSV/TSV text into records in one pass over each character, fed in chunks as they are read.
 * Written for ppmlm rather than taken from fast-csv, whose quoted fields cost time quadratic in their
 * length and whose stray-quote errors end the whole stream: here a malformed record (text after a
 * closing quote, an unterminated quote, an over-long field) is reported with its line and the next one
 * is read, so `--skip-bad-rows` can skip it. Quotes inside an unquoted field are kept as text. `\r\n` and
 * `\n` end records.
 */
export class DelimitedSplitter {
  private state: State = 'fieldStart';
  private fields: string[] = [];
  private field = '';
  private fieldChars = 0;
  private line = 1;
  private recordLine = 1;
  private problem: string | undefined;
  private readonly delimiterCode: number;

  constructor(private readonly options: SplitterOptions) {
    this.delimiterCode = options.delimiter.charCodeAt(0);
  }

  /** The records that `chunk` completes. */
  push(chunk: string): DelimitedRecord[] {
    const out: DelimitedRecord[] = [];
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case 'quoted': {
          // Copy everything up to the next quote at once; newlines inside count for line numbers.
          const q = chunk.indexOf('"', i);
          const end = q === -1 ? n : q;
          this.append(chunk, i, end);
          this.line += countNewlines(chunk, i, end);
          i = end;
          if (q !== -1) {
            this.state = 'quoteInQuoted';
            i++;
          }
          break;
        }
        case 'quoteInQuoted': {
          const c = chunk.charCodeAt(i);
          if (c === QUOTE) {
            this.append('"', 0, 1);
            this.state = 'quoted';
            i++;
          } else this.state = 'afterQuote';
          break;
        }
        case 'afterQuote': {
          const c = chunk.charCodeAt(i);
          if (c === this.delimiterCode) {
            this.endField();
            i++;
          } else if (c === NL) {
            out.push(this.endRecord());
            i++;
          } else if (c === CR) i++;
          else {
            this.fail('text after a closing quote; quote the whole field and write a quote inside it as ""');
            this.state = 'skipLine';
          }
          break;
        }
        case 'skipLine': {
          const nl = chunk.indexOf('\n', i);
          if (nl === -1) i = n;
          else {
            out.push(this.endRecord());
            i = nl + 1;
          }
          break;
        }
        case 'fieldStart':
          if (this.options.quoted && chunk.charCodeAt(i) === QUOTE) {
            this.state = 'quoted';
            i++;
            break;
          }
          this.state = 'unquoted';
          break;
        case 'unquoted': {
          let j = i;
          while (j < n) {
            const c = chunk.charCodeAt(j);
            if (c === this.delimiterCode || c === NL) break;
            j++;
          }
          this.append(chunk, i, j);
          i = j;
          if (j < n) {
            if (chunk.charCodeAt(j) === NL) {
              if (this.field.endsWith('\r')) this.field = this.field.slice(0, -1);
              out.push(this.endRecord());
            } else this.endField();
            i++;
          }
          break;
        }
      }
    }
    return out;
  }

  /** The last record, when the text does not end with a newline; an open quote is reported here. */
  end(): DelimitedRecord[] {
    if (this.state === 'quoted') this.fail('unterminated quoted field starts here; close the quote or escape it as ""');
    const empty = this.state === 'fieldStart' && this.fields.length === 0;
    if (this.state === 'unquoted' && this.field.endsWith('\r')) this.field = this.field.slice(0, -1);
    return empty ? [] : [this.endRecord()];
  }

  private append(text: string, from: number, to: number): void {
    if (this.problem !== undefined || to <= from) return;
    this.fieldChars += to - from;
    if (this.fieldChars > this.options.maxFieldChars) {
      this.fail(`a field is longer than ${this.options.maxFieldChars} characters (an unterminated quote?); split the document or raise --max-doc-chars`);
      return;
    }
    this.field += text.slice(from, to);
  }

  private fail(problem: string): void {
    this.problem ??= problem;
    this.field = '';
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.fieldChars = 0;
    this.state = 'fieldStart';
  }

  private endRecord(): DelimitedRecord {
    this.endField();
    const record: DelimitedRecord = { fields: this.fields, line: this.recordLine };
    if (this.problem !== undefined) record.problem = this.problem;
    this.fields = [];
    this.problem = undefined;
    this.line++;
    this.recordLine = this.line;
    return record;
  }
}

const QUOTE = 0x22;
const NL = 0x0a;
const CR = 0x0d;

function countNewlines(s: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === NL) count++;
  return count;
}
