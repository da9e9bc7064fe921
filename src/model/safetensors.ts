import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import { FormatError } from '../errors.js';
import { isJsonObject, jsonErrorPosition } from '../io/index.js';

/** One tensor of a safetensors file, as float32. */
export interface NamedTensor {
  shape: number[];
  data: Float32Array;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

const BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2 };
/** Integer and boolean dtypes: buffers, never weights (see parseSafetensors). */
const INTEGER_BYTES: Record<string, number> = { I64: 8, U64: 8, I32: 4, U32: 4, I16: 2, U16: 2, I8: 1, U8: 1, BOOL: 1 };

function f16ToF32(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** A tensor's header entry, checked field by field so a corrupt file names what is wrong rather than crashing. */
function headerEntry(name: string, entry: unknown, file: string): HeaderEntry {
  if (!isJsonObject(entry)) throw new FormatError(`tensor ${name}: the header entry is not an object; the file is corrupt`, { file });
  const { dtype, shape, data_offsets: offsets } = entry;
  if (typeof dtype !== 'string') throw new FormatError(`tensor ${name}: "dtype" must be a string; the file is corrupt`, { file });
  if (!Array.isArray(shape) || !shape.every(isCount)) throw new FormatError(`tensor ${name}: "shape" must be an array of non-negative integers; the file is corrupt`, { file });
  const [begin, end] = Array.isArray(offsets) && offsets.length === 2 ? offsets : [];
  if (!isCount(begin) || !isCount(end) || begin > end) throw new FormatError(`tensor ${name}: "data_offsets" must be [begin, end] with 0 <= begin <= end; the file is corrupt`, { file });
  return { dtype, shape, data_offsets: [begin, end] };
}

/**
 * Parses the safetensors format (8-byte little-endian header length, JSON header, raw little-endian data),
 * converting F16 and BF16 to float32. Corruption is reported with what is wrong.
 */
export function parseSafetensors(bytes: Uint8Array, file: string): { tensors: Map<string, NamedTensor>; metadata: Record<string, string> } {
  if (bytes.length < 8) throw new FormatError('file too short for safetensors (truncated download?)', { file });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength <= 0 || 8 + headerLength > bytes.length) throw new FormatError(`header length ${headerLength} exceeds the file size ${bytes.length}; the file is truncated or not safetensors`, { file });
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerLength)));
  } catch (err) {
    throw new FormatError(`header is not valid JSON${jsonErrorPosition(err)}; the file is corrupt`, { file });
  }
  if (!isJsonObject(header)) throw new FormatError('header is not a JSON object; the file is corrupt', { file });
  const dataStart = 8 + headerLength;
  const tensors = new Map<string, NamedTensor>();
  const ranges: [number, number, string][] = [];
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      if (!isJsonObject(entry) || Object.values(entry).some((v) => typeof v !== 'string')) throw new FormatError('__metadata__ must map names to strings', { file });
      metadata = entry as Record<string, string>;
      continue;
    }
    const { dtype, shape, data_offsets: [begin, end] } = headerEntry(name, entry, file);
    const count = shape.reduce((a, d) => a * d, 1);
    const width = BYTES[dtype] ?? INTEGER_BYTES[dtype];
    if (width === undefined) throw new FormatError(`tensor ${name} has dtype ${dtype}; ppmlm reads F32, F16 and BF16`, { file });
    if (end - begin !== count * width || dataStart + end > bytes.length) throw new FormatError(`tensor ${name}: data offsets [${begin}, ${end}] do not fit shape ${JSON.stringify(shape)} or the file (truncated?)`, { file });
    ranges.push([begin, end, name]);
    // No weight of an encoder is an integer: such a tensor is a buffer older transformers saved
    // (embeddings.position_ids), which the model recomputes. It is checked, not read.
    if (BYTES[dtype] === undefined) continue;
    const data = new Float32Array(count);
    const at = bytes.byteOffset + dataStart + begin;
    const dv = new DataView(bytes.buffer, at, end - begin);
    if (dtype === 'F32') for (let i = 0; i < count; i++) data[i] = dv.getFloat32(i * 4, true);
    else if (dtype === 'F16') for (let i = 0; i < count; i++) data[i] = f16ToF32(dv.getUint16(i * 2, true));
    else {
      const u32 = new Uint32Array(1);
      const f32 = new Float32Array(u32.buffer);
      for (let i = 0; i < count; i++) {
        u32[0] = dv.getUint16(i * 2, true) << 16;
        data[i] = f32[0]!;
      }
    }
    tensors.set(name, { shape, data });
  }
  // Two tensors over the same bytes would be read as one another's values: the format forbids it.
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 1; i < ranges.length; i++) {
    const [begin, , name] = ranges[i]!;
    const [, end, before] = ranges[i - 1]!;
    if (begin < end) throw new FormatError(`tensors ${before} and ${name} overlap in the data; the file is corrupt: save the model again`, { file });
  }
  return { tensors, metadata };
}

/** A tensor to be written, read only when its turn comes (so a writer holds one tensor's values at a time). */
export interface TensorSource {
  shape: number[];
  /** Asynchronous for a GPU backend, whose buffers Node reads only asynchronously. */
  read: () => Float32Array | Promise<Float32Array>;
}

/** The header of a safetensors file (length prefix included), names sorted and padded to 8 bytes as Hugging Face does. */
function safetensorsHeader(shapes: ReadonlyMap<string, number[]>, metadata: Record<string, string>): { names: string[]; header: Uint8Array; dataBytes: number } {
  const names = [...shapes.keys()].sort();
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const name of names) {
    const bytes = 4 * shapes.get(name)!.reduce((a, d) => a * d, 1);
    header[name] = { dtype: 'F32', shape: shapes.get(name), data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + Buffer.byteLength(json)) % 8)) % 8);
  const jsonBytes = Buffer.from(json, 'utf8');
  const out = new Uint8Array(8 + jsonBytes.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(jsonBytes.length), true);
  out.set(jsonBytes, 8);
  return { names, header: out, dataBytes: offset };
}

/** A tensor's values as little-endian bytes, as safetensors stores them. */
function littleEndian(data: Float32Array): Uint8Array {
  if (endianness() === 'LE') return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(data.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i]!, true);
  return out;
}

/** A safetensors file in memory (small models, tests); {@link writeSafetensors} streams large ones. */
export function serializeSafetensors(tensors: Map<string, NamedTensor>, metadata: Record<string, string> = { format: 'pt' }): Uint8Array {
  const { names, header, dataBytes } = safetensorsHeader(new Map([...tensors].map(([n, t]) => [n, t.shape])), metadata);
  const out = new Uint8Array(header.length + dataBytes);
  out.set(header);
  let at = header.length;
  for (const name of names) {
    const bytes = littleEndian(tensors.get(name)!.data);
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

/**
 * Writes a safetensors file tensor by tensor: a 110M-parameter model is never a second time in memory as
 * one 440 MB buffer (checkpoints of BERT-base raised the process's peak RSS by that much).
 */
export async function writeSafetensors(path: string, tensors: ReadonlyMap<string, TensorSource>, metadata: Record<string, string> = { format: 'pt' }): Promise<void> {
  const { names, header } = safetensorsHeader(new Map([...tensors].map(([n, t]) => [n, t.shape])), metadata);
  const file = await open(path, 'w');
  try {
    await file.write(header);
    for (const name of names) await file.write(littleEndian(await tensors.get(name)!.read()));
  } finally {
    await file.close();
  }
}
