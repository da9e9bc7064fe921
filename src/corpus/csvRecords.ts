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
 * Splits CSV/TSV bytes (well-formed UTF-8, fed in chunks as they are read) into records in one pass.
 * Written for ppmlm rather than taken from fast-csv, whose quoted fields cost time quadratic in their
 * length and whose stray-quote errors end the whole stream: here a malformed record (text after a
 * closing quote, an unterminated quote, an over-long field) is reported with its line and the next one
 * is read, so `--skip-bad-rows` can skip it. Quotes inside an unquoted field are kept as text. `\r\n` and
 * `\n` end records.
 *
 * It works on bytes: quote, delimiter and newline are ASCII, which never occurs inside a multi-byte
 * UTF-8 sequence, and a field is decoded once, when it ends. Building a long field as a string instead
 * (a `+=` per piece between escaped quotes) left a chain of small heap strings that every young-generation
 * GC copied again: a 10 MB field took 3x ten times the 1 MB one.
 */
export class DelimitedSplitter {
  private state: State = 'fieldStart';
  private fields: string[] = [];
  private readonly field = new FieldBytes();
  private line = 1;
  private recordLine = 1;
  private problem: string | undefined;
  private readonly delimiterCode: number;

  constructor(private readonly options: SplitterOptions) {
    this.delimiterCode = options.delimiter.charCodeAt(0);
  }

  /** The records that `chunk` completes. */
  push(chunk: Buffer): DelimitedRecord[] {
    const out: DelimitedRecord[] = [];
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case 'quoted': {
          // Take everything up to the next quote at once; newlines inside count for line numbers.
          const q = chunk.indexOf(QUOTE, i);
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
          if (chunk[i] === QUOTE) {
            // The second quote of `""` stands for one: keep it, contiguous with the text before.
            this.append(chunk, i, i + 1);
            this.state = 'quoted';
            i++;
          } else this.state = 'afterQuote';
          break;
        }
        case 'afterQuote': {
          const c = chunk[i];
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
          const nl = chunk.indexOf(NL, i);
          if (nl === -1) i = n;
          else {
            out.push(this.endRecord());
            i = nl + 1;
          }
          break;
        }
        case 'fieldStart':
          if (this.options.quoted && chunk[i] === QUOTE) {
            this.state = 'quoted';
            i++;
            break;
          }
          this.state = 'unquoted';
          break;
        case 'unquoted': {
          let j = i;
          while (j < n) {
            const c = chunk[j];
            if (c === this.delimiterCode || c === NL) break;
            j++;
          }
          this.append(chunk, i, j);
          i = j;
          if (j < n) {
            if (chunk[j] === NL) {
              this.field.dropTrailingCr();
              out.push(this.endRecord());
            } else this.endField();
            i++;
          }
          break;
        }
      }
    }
    // The chunk's buffer may be reused by the stream once we return.
    this.field.detach();
    return out;
  }

  /** The last record, when the text does not end with a newline; an open quote is reported here. */
  end(): DelimitedRecord[] {
    if (this.state === 'quoted') this.fail('unterminated quoted field starts here; close the quote or escape it as ""');
    const empty = this.state === 'fieldStart' && this.fields.length === 0;
    if (this.state === 'unquoted') this.field.dropTrailingCr();
    return empty ? [] : [this.endRecord()];
  }

  private append(chunk: Buffer, from: number, to: number): void {
    if (this.problem !== undefined || to <= from) return;
    this.field.add(chunk, from, to);
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit, so this many bytes is surely too long; the
    // exact count is checked once the field is decoded.
    if (this.field.length > 3 * this.options.maxFieldChars) this.fail(this.tooLong());
  }

  private tooLong(): string {
    return `a field is longer than ${this.options.maxFieldChars} characters (an unterminated quote?); split the document or raise --max-doc-chars`;
  }

  private fail(problem: string): void {
    this.problem ??= problem;
    this.field.clear();
  }

  private endField(): void {
    const text = this.field.take();
    if (text.length > this.options.maxFieldChars) this.fail(this.tooLong());
    this.fields.push(this.problem === undefined ? text : '');
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

/**
 * The bytes of the field being read. A field within one chunk is decoded straight from it (the common
 * case); pieces that are not contiguous (around an escaped quote, across chunks) are copied into one
 * growing buffer outside the JS heap, so a long field costs no GC work until it is decoded.
 */
class FieldBytes {
  private buffer = Buffer.alloc(0);
  private copied = 0;
  /** A range of the current chunk not yet copied. */
  private chunk: Buffer | undefined;
  private from = 0;
  private to = 0;

  get length(): number {
    return this.copied + (this.to - this.from);
  }

  add(chunk: Buffer, from: number, to: number): void {
    if (this.chunk === chunk && this.to === from) {
      this.to = to;
      return;
    }
    this.detach();
    this.chunk = chunk;
    this.from = from;
    this.to = to;
  }

  /** Copies the pending range, so the chunk it points into may go. */
  detach(): void {
    if (this.chunk === undefined) return;
    const size = this.to - this.from;
    if (this.copied + size > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.copied + size, 256));
      this.buffer.copy(grown, 0, 0, this.copied);
      this.buffer = grown;
    }
    // Buffer#copy's fixed cost outweighs short pieces (the text between two escaped quotes).
    if (size < SHORT_COPY) for (let i = 0; i < size; i++) this.buffer[this.copied + i] = this.chunk[this.from + i]!;
    else this.chunk.copy(this.buffer, this.copied, this.from, this.to);
    this.copied += size;
    this.forget();
  }

  dropTrailingCr(): void {
    if (this.to > this.from) {
      if (this.chunk![this.to - 1] === CR) this.to--;
    } else if (this.copied > 0 && this.buffer[this.copied - 1] === CR) this.copied--;
  }

  /** The field as text; the builder is then empty. */
  take(): string {
    let text: string;
    if (this.copied === 0) text = this.chunk === undefined ? '' : this.chunk.toString('utf8', this.from, this.to);
    else {
      this.detach();
      text = this.buffer.toString('utf8', 0, this.copied);
    }
    this.clear();
    return text;
  }

  clear(): void {
    this.forget();
    this.copied = 0;
    // Do not hold on to the memory of one huge field for the rest of the file.
    if (this.buffer.length > LARGE_FIELD_BYTES) this.buffer = Buffer.alloc(0);
  }

  private forget(): void {
    this.chunk = undefined;
    this.from = 0;
    this.to = 0;
  }
}

const LARGE_FIELD_BYTES = 1 << 20;
const SHORT_COPY = 128;
const QUOTE = 0x22;
const NL = 0x0a;
const CR = 0x0d;

function countNewlines(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (bytes[i] === NL) count++;
  return count;
}
