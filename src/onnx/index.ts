export { exportOnnx, assertFitsOneFile, MAX_ONNX_BYTES } from './exportOnnx.js';
export type { ExportOnnxOptions, OnnxExport } from './exportOnnx.js';
export { encoderGraph, OPSET } from './encoderGraph.js';
export { encodeModel, IR_VERSION } from './modelProto.js';
export type { OnnxModel, OnnxGraph, OnnxNode, OnnxTensor, OnnxValueInfo, OnnxAttribute, ElementType } from './modelProto.js';
