import { assertOutputsApart } from '../../io/index.js';
import { selectBackend, type BackendRequest } from '../../engine/index.js';
import { exportOnnx } from '../../onnx/index.js';
import type { Reporter } from '../reporter.js';

export interface ExportOnnxCommandOptions {
  model: string;
  out: string;
  force?: boolean;
  json?: boolean;
  backend: BackendRequest;
}

/** `ppmlm export onnx`: a model folder's encoder and head as onnx/model.onnx with config and tokenizer, for transformers.js and onnxruntime. */
export async function exportOnnxCommand(options: ExportOnnxCommandOptions, out: Reporter): Promise<void> {
  await assertOutputsApart({ '--model': options.model }, { '--out': options.out });
  await selectBackend(options.backend);
  const done = await exportOnnx(options.model, options.out, { force: options.force });
  if (options.json) return out.result(JSON.stringify(done, null, 2));
  out.result(`wrote ${done.out}/onnx/model.onnx (${(done.bytes / 1e6).toFixed(1)} MB, opset ${done.opset}, ${done.task}): ${done.inputs.join(', ')} → logits [${done.logits.join(', ')}]`);
}
