import { createReadStream } from 'node:fs';
import { FormatError } from '../errors.js';
import { decodeUtf8Strict } from './utf8.js';

export interface Line {
  text: string;
  /** 1-based. */
  line: number;
}

export interface ReadLinesOptions {
  /** Longest line kept, in bytes (default 64 MiB). */
  maxLineBytes?: number;
  /**
   * Called with the line number of a longer line, which is then skipped (it may throw to stop reading);
   * without it, a longer line is a FormatError.
   */
  onLongLine?: (line: number) => void;
}

/**
 * Streams a file's lines, decoded as strict UTF-8 (a BOM on the first line is dropped). Splits on
 * bytes so memory stays bounded by the longest line, and a line longer than `maxLineBytes` is reported
 * as soon as it has that many bytes, rather than read whole into memory.
 */
export async function* readLines(file: string, options: ReadLinesOptions = {}): AsyncGenerator<Line> {
  const { maxLineBytes = 64 * 1024 * 1024 } = options;
  const onLongLine =
    options.onLongLine ??
    ((line: number) => {
      throw new FormatError(`line is longer than ${maxLineBytes} bytes; split the record or check that the file uses \\n line ends`, { file, line });
    });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Set while the rest of an over-long line is passed over. */
  let skipping = false;
  let line = 1;
  let offset = 0;
  const emit = (bytes: Buffer, at: number): Line => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const text = decodeUtf8Strict(bytes.subarray(0, end), file, { firstLine: line, baseOffset: at, stripBom: line === 1 });
    return { text, line };
  };
  const skip = () => {
    skipping = true;
    pending = [];
    onLongLine(line);
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(0x0a);
    while (nl !== -1) {
      const piece = chunk.subarray(start, nl);
      const size = pendingBytes + piece.length;
      if (!skipping && size > maxLineBytes) skip();
      if (!skipping) yield emit(pending.length > 0 ? Buffer.concat([...pending, piece]) : piece, offset);
      offset += size + 1;
      skipping = false;
      pending = [];
      pendingBytes = 0;
      line++;
      start = nl + 1;
      nl = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) {
      if (!skipping) pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (!skipping && pendingBytes > maxLineBytes) skip();
    }
  }
  if (pendingBytes > 0 && !skipping) yield emit(Buffer.concat(pending), offset);
}
