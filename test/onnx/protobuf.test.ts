import { describe, expect, it } from 'vitest';
import { ProtoMessage, varint } from '../../src/onnx/protobuf.js';

const bytesOf = (m: ProtoMessage) => Array.from(Buffer.concat(m.parts));

describe('protobuf writer', () => {
  it('encodes varints in 7-bit groups, least significant first', () => {
    expect(Array.from(varint(0))).toEqual([0]);
    expect(Array.from(varint(1))).toEqual([1]);
    expect(Array.from(varint(300))).toEqual([0xac, 0x02]);
    expect(Array.from(varint(2 ** 32))).toEqual([0x80, 0x80, 0x80, 0x80, 0x10]);
  });

  it('encodes a negative int64 as ten bytes of two\'s complement', () => {
    expect(Array.from(varint(-1))).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(varint(-2).length).toBe(10);
  });

  it('refuses a number it cannot encode exactly', () => {
    expect(() => varint(1.5)).toThrow(RangeError);
    expect(() => varint(2 ** 60)).toThrow(RangeError);
  });

  it('tags fields with number and wire type, and prefixes lengths', () => {
    const m = new ProtoMessage().int(1, 150).string(2, 'testing').float(3, 1).ints(4, [1, -1]);
    expect(bytesOf(m)).toEqual([
      0x08, 0x96, 0x01, // field 1 varint 150
      0x12, 0x07, ...Buffer.from('testing'), // field 2 length-delimited
      0x1d, 0x00, 0x00, 0x80, 0x3f, // field 3 fixed32 1.0f, little-endian
      0x20, 0x01, 0x20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, // field 4 repeated, unpacked
    ]);
    expect(m.length).toBe(bytesOf(m).length);
  });

  it('embeds a message by reference with its length', () => {
    const payload = new Uint8Array(1000).fill(7);
    const inner = new ProtoMessage().bytes(9, payload);
    const outer = new ProtoMessage().message(5, inner);
    expect(outer.parts).toContain(payload);
    expect(bytesOf(outer).slice(0, 6)).toEqual([0x2a, 0xeb, 0x07, 0x4a, 0xe8, 0x07]);
    expect(outer.length).toBe(3 + 3 + 1000);
  });
});
