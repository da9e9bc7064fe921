import { Transform, type TransformCallback } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { FormatError } from '../errors.js';

/**
 * Index of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no overlongs,
 * no surrogates, nothing above U+10FFFF), or -1. A sequence cut off by the end of `bytes` counts as
 * invalid only when `final` is set.
 */
export function findInvalidUtf8(bytes: Uint8Array, final = true): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return final ? i : -1;
      const c = bytes[i + k]!;
      if (c < lo || c > hi) return i;
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return -1;
}

/** 1-based line and column (in bytes) of `offset` within `bytes`, counting from `firstLine`. */
export function positionOf(bytes: Uint8Array, offset: number, firstLine = 1): { line: number; column: number } {
  let line = firstLine;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const BOM = [0xef, 0xbb, 0xbf];

function invalidUtf8Error(file: string, line: number, column: number, byteOffset: number, badByte: number | undefined, nextByte: number | undefined): FormatError {
  // A file that opens with FF FE or FE FF is UTF-16 with its byte-order mark (Windows' "Unicode"): latin1 is no fix for it.
  const utf16 = byteOffset === 0 && (badByte === 0xff || badByte === 0xfe);
  // Two bytes of A1-FE are a Hangul syllable of EUC-KR (CP949), what Korean files not in UTF-8 mostly are;
  // read as latin1 they would become other letters.
  const korean = (b: number | undefined) => b !== undefined && b >= 0xa1 && b <= 0xfe;
  const from = korean(badByte) && korean(nextByte) ? 'cp949' : 'latin1';
  return new FormatError(
    utf16
      ? 'UTF-16, not UTF-8 (it starts with a UTF-16 byte-order mark); re-encode the file as UTF-8 (e.g. iconv -f utf-16 -t utf-8)'
      : `invalid UTF-8 at column ${column} (byte offset ${byteOffset}); re-encode the file as UTF-8 (e.g. iconv -f ${from} -t utf-8${from === 'cp949' ? ', for Korean in EUC-KR or CP949' : ''})`,
    { file, line },
  );
}

export interface DecodeOptions {
  /** Line number of the first byte, for error messages. */
  firstLine?: number;
  /** Byte offset of the first byte within the file, for error messages. */
  baseOffset?: number;
  /** Drop a leading UTF-8 BOM (only meaningful at the start of a file). */
  stripBom?: boolean;
}

/** Decodes bytes as strict UTF-8; invalid bytes raise a FormatError at file:line. */
export function decodeUtf8Strict(bytes: Uint8Array, file: string, options: DecodeOptions = {}): string {
  const { firstLine = 1, baseOffset = 0, stripBom = true } = options;
  let start = 0;
  if (stripBom && bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]) start = 3;
  const body = bytes.subarray(start);
  if (!isUtf8(body)) {
    const bad = findInvalidUtf8(body);
    const { line, column } = positionOf(body, bad, firstLine);
    throw invalidUtf8Error(file, line, column, baseOffset + start + bad, body[bad], body[bad + 1]);
  }
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/**
 * A pass-through stream that checks UTF-8 as bytes flow and strips a leading BOM. The fast path is
 * the native `isUtf8` on each chunk (minus a sequence split across chunks, carried to the next one);
 * the byte-exact scan runs only to locate an error.
 */
export class Utf8Validator extends Transform {
  private carry: Buffer = Buffer.alloc(0);
  private offset = 0;
  private line = 1;
  private first = true;

  constructor(private readonly file: string) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let buf = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    if (this.first) {
      this.first = false;
      if (buf.length >= 3 && buf[0] === BOM[0] && buf[1] === BOM[1] && buf[2] === BOM[2]) {
        buf = buf.subarray(3);
        this.offset = 3;
      }
    }
    // Keep back an incomplete trailing sequence (at most 3 bytes) for the next chunk.
    let end = buf.length;
    for (let back = 1; back <= 3 && back <= buf.length; back++) {
      const b = buf[buf.length - back]!;
      if (b < 0x80) break;
      if (b >= 0xc0) {
        const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (len > back) end = buf.length - back;
        break;
      }
    }
    const body = buf.subarray(0, end);
    this.carry = Buffer.from(buf.subarray(end));
    if (!isUtf8(body)) {
      const bad = findInvalidUtf8(body);
      const { line, column } = positionOf(body, bad, this.line);
      done(invalidUtf8Error(this.file, line, column, this.offset + bad, body[bad], body[bad + 1] ?? this.carry[0]));
      return;
    }
    this.line += countNewlines(body);
    this.offset += body.length;
    done(null, body);
  }

  override _flush(done: TransformCallback): void {
    if (this.carry.length > 0) {
      const { line, column } = positionOf(this.carry, 0, this.line);
      done(invalidUtf8Error(this.file, line, column, this.offset, this.carry[0], this.carry[1]));
      return;
    }
    done();
  }
}

function countNewlines(buf: Buffer): number {
  let count = 0;
  let i = buf.indexOf(0x0a);
  while (i !== -1) {
    count++;
    i = buf.indexOf(0x0a, i + 1);
  }
  return count;
}
