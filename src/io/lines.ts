import { createReadStream } from 'node:fs';
import { FormatError } from '../errors.js';
import { decodeUtf8Strict } from './utf8.js';

export interface Line {
  text: string;
  /** 1-based. */
  line: number;
}

/**
 * Streams a file's lines, decoded as strict UTF-8 (a BOM on the first line is dropped). Splits on
 * bytes so memory stays bounded by the longest line, and a line longer than `maxLineBytes` is an error
 * rather than an out-of-memory crash.
 */
export async function* readLines(file: string, maxLineBytes = 64 * 1024 * 1024): AsyncGenerator<Line> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 1;
  let offset = 0;
  const emit = (bytes: Buffer): Line => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const text = decodeUtf8Strict(bytes.subarray(0, end), file, { firstLine: line, baseOffset: offset, stripBom: line === 1 });
    return { text, line };
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(0x0a);
    while (nl !== -1) {
      const piece = chunk.subarray(start, nl);
      const bytes = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      pendingBytes = 0;
      yield emit(bytes);
      offset += bytes.length + 1;
      line++;
      start = nl + 1;
      nl = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > maxLineBytes) {
        throw new FormatError(`line is longer than ${maxLineBytes} bytes; split the record or check that the file uses \\n line ends`, { file, line });
      }
    }
  }
  if (pendingBytes > 0) yield emit(Buffer.concat(pending));
}
