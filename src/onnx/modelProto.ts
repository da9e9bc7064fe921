import { endianness } from 'node:os';
import { ProtoMessage } from './protobuf.js';

/**
 * The ONNX file format (onnx/onnx.proto, IR version 8): the types ppmlm builds a graph from and the one
 * writer that encodes them as a ModelProto. Field numbers are the spec's, named where they are used.
 */

/** TensorProto.DataType values of the element types ppmlm's graphs use. */
export const ELEMENT_TYPE = { float32: 1, int64: 7 } as const;
export type ElementType = keyof typeof ELEMENT_TYPE;

/** A graph constant (initializer), its elements already in ONNX's raw layout: row-major, little-endian. */
export interface OnnxTensor {
  name: string;
  type: ElementType;
  dims: number[];
  raw: Uint8Array;
}

/** A node attribute, tagged with its AttributeProto.AttributeType. */
export type OnnxAttribute = { type: 'float'; value: number } | { type: 'int'; value: number } | { type: 'ints'; value: number[] };

export interface OnnxNode {
  opType: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, OnnxAttribute>;
}

/** A graph input or output: element type and shape, a string naming a dynamic axis (e.g. "batch_size"). */
export interface OnnxValueInfo {
  name: string;
  type: ElementType;
  shape: (number | string)[];
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
}

export interface OnnxModel {
  /** The default-domain opset the nodes are written against. */
  opset: number;
  producerName: string;
  producerVersion: string;
  graph: OnnxGraph;
}

/** IR version 8 came with opset 17 (ONNX 1.12); onnxruntime reads it. */
export const IR_VERSION = 8;

const LITTLE_ENDIAN = endianness() === 'LE';

/** The raw little-endian bytes of float32 values; a view of `data` on little-endian machines, a copy otherwise. */
export function float32Raw(data: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(data.length * 4);
  const view = new DataView(out.buffer);
  data.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return out;
}

/** The raw little-endian bytes of int64 values. */
export function int64Raw(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * 8);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
  return out;
}

function tensorProto(t: OnnxTensor): ProtoMessage {
  // TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9.
  return new ProtoMessage().ints(1, t.dims).int(2, ELEMENT_TYPE[t.type]).string(8, t.name).bytes(9, t.raw);
}

function attributeProto(name: string, a: OnnxAttribute): ProtoMessage {
  // AttributeProto: name = 1, f = 2, i = 3, ints = 8, type = 20 (FLOAT 1, INT 2, INTS 7).
  const m = new ProtoMessage().string(1, name);
  if (a.type === 'float') return m.float(2, a.value).int(20, 1);
  if (a.type === 'int') return m.int(3, a.value).int(20, 2);
  return m.ints(8, a.value).int(20, 7);
}

function nodeProto(n: OnnxNode, index: number): ProtoMessage {
  // NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5.
  const m = new ProtoMessage();
  for (const i of n.inputs) m.string(1, i);
  for (const o of n.outputs) m.string(2, o);
  m.string(3, `${n.opType}_${index}`).string(4, n.opType);
  for (const [name, a] of Object.entries(n.attributes ?? {})) m.message(5, attributeProto(name, a));
  return m;
}

function valueInfoProto(v: OnnxValueInfo): ProtoMessage {
  // TensorShapeProto.dim = 1 of Dimension {dim_value = 1 | dim_param = 2}.
  const shape = new ProtoMessage();
  for (const d of v.shape) shape.message(1, typeof d === 'number' ? new ProtoMessage().int(1, d) : new ProtoMessage().string(2, d));
  // TypeProto.tensor_type = 1 of Tensor {elem_type = 1, shape = 2}; ValueInfoProto: name = 1, type = 2.
  const tensorType = new ProtoMessage().int(1, ELEMENT_TYPE[v.type]).message(2, shape);
  return new ProtoMessage().string(1, v.name).message(2, new ProtoMessage().message(1, tensorType));
}

function graphProto(g: OnnxGraph): ProtoMessage {
  // GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12.
  const m = new ProtoMessage();
  g.nodes.forEach((n, i) => m.message(1, nodeProto(n, i)));
  m.string(2, g.name);
  for (const t of g.initializers) m.message(5, tensorProto(t));
  for (const v of g.inputs) m.message(11, valueInfoProto(v));
  for (const v of g.outputs) m.message(12, valueInfoProto(v));
  return m;
}

/**
 * Encodes a model as an ONNX ModelProto. The result holds the initializers' bytes by reference; write its
 * `parts` in order (its `length` is the file size).
 */
export function encodeModel(model: OnnxModel): ProtoMessage {
  // OperatorSetIdProto: domain = 1 (empty: the default ai.onnx domain, left out), version = 2.
  const opset = new ProtoMessage().int(2, model.opset);
  // ModelProto: ir_version = 1, producer_name = 2, producer_version = 3, graph = 7, opset_import = 8.
  return new ProtoMessage().int(1, IR_VERSION).string(2, model.producerName).string(3, model.producerVersion).message(7, graphProto(model.graph)).message(8, opset);
}
