/**
 * The protobuf wire format, write side only, as much of it as ONNX's ModelProto needs: varints, 32-bit
 * floats and length-delimited fields. A message is kept as a list of byte parts with their total length,
 * so that a 1 GB weight tensor is appended by reference and never copied into one big buffer.
 */

/** Wire types (protobuf encoding spec): 0 varint, 2 length-delimited, 5 fixed 32-bit. */
const VARINT = 0;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

const utf8 = new TextEncoder();

/** Varint bytes of a non-negative integer, or of a negative int64 as its 64-bit two's complement (10 bytes). */
export function varint(value: number | bigint): Uint8Array {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new RangeError(`${value} is not an integer protobuf can encode exactly`);
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  while (v >= 0x80n) {
    bytes.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  bytes.push(Number(v));
  return Uint8Array.from(bytes);
}

/** A message being written: its encoded fields, in order. */
export class ProtoMessage {
  readonly parts: Uint8Array[] = [];
  private size = 0;

  /** Encoded length in bytes. */
  get length(): number {
    return this.size;
  }

  private push(bytes: Uint8Array): this {
    this.parts.push(bytes);
    this.size += bytes.length;
    return this;
  }

  private tag(field: number, wireType: number): this {
    return this.push(varint(field * 8 + wireType));
  }

  /** int32, int64 or enum field (negative values as 10-byte two's complement, as protobuf's int64 does). */
  int(field: number, value: number): this {
    return this.tag(field, VARINT).push(varint(value));
  }

  /** A repeated int64 field, unpacked: one tag per element (parsers accept packed and unpacked alike). */
  ints(field: number, values: readonly number[]): this {
    for (const v of values) this.int(field, v);
    return this;
  }

  float(field: number, value: number): this {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    return this.tag(field, FIXED32).push(bytes);
  }

  /** A bytes field; `data` is kept by reference, not copied. */
  bytes(field: number, data: Uint8Array): this {
    return this.tag(field, LENGTH_DELIMITED).push(varint(data.length)).push(data);
  }

  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  /** An embedded message field; its parts are appended by reference. */
  message(field: number, inner: ProtoMessage): this {
    this.tag(field, LENGTH_DELIMITED).push(varint(inner.length));
    for (const part of inner.parts) this.push(part);
    return this;
  }
}
