import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { assertCanWrite, writeDirAtomic } from '../io/index.js';
import { disposeParams, loadSavedModel, readModelConfig, writeConfigJson, writeModelCard, writeProvenance, writeTokenizerFiles, type Head, type Provenance } from '../model/index.js';
import { PACKAGE_VERSION } from '../version.js';
import { encoderGraph, OPSET } from './encoderGraph.js';
import { encodeModel } from './modelProto.js';

/** Protobuf refuses messages of 2 GiB or more, so one .onnx file holding its weights stays below it. */
export const MAX_ONNX_BYTES = 2 ** 31 - 1;

/**
 * Refuses a model whose ONNX file would reach protobuf's 2 GiB limit. ppmlm writes no external-data
 * files (the weights beside the graph), which the largest ppmlm can hold would need.
 */
export function assertFitsOneFile(bytes: number, modelDir: string): void {
  if (bytes > MAX_ONNX_BYTES) {
    throw new ConfigError(`its ONNX file would take ${(bytes / 2 ** 30).toFixed(2)} GiB, above protobuf's 2 GiB limit, and ppmlm writes no external-data ONNX; export it with Hugging Face optimum (optimum-cli export onnx) instead`, { file: modelDir });
  }
}

export interface ExportOnnxOptions {
  /** Replace an existing output folder. */
  force?: boolean;
}

export interface OnnxExport {
  out: string;
  /** The transformers.js pipeline task the head serves. */
  task: 'fill-mask' | 'token-classification' | 'text-classification';
  opset: number;
  inputs: string[];
  /** The `logits` output's shape, dynamic axes by name. */
  logits: (number | string)[];
  /** Size of onnx/model.onnx. */
  bytes: number;
}

/** The transformers.js pipeline task a head serves. */
const taskOf = (head: Head): OnnxExport['task'] => (head === 'mlm' ? 'fill-mask' : 'tokenClassification' in head ? 'token-classification' : 'text-classification');

/**
 * The export's ppmlm.json: the model's provenance (which names its blacklist only by fingerprint) and
 * how the export was made. A folder without provenance (a Hub download) gets the export record alone.
 */
function exportProvenance(source: Provenance | undefined): Provenance {
  const createdAt = new Date().toISOString();
  return { ...(source ?? { ppmlm: PACKAGE_VERSION, createdAt }), onnx: { opset: OPSET, ppmlm: PACKAGE_VERSION, exportedAt: createdAt } };
}

/**
 * Writes `modelDir`'s encoder and head as ONNX in the layout transformers.js loads: `onnx/model.onnx`
 * beside config.json, the tokenizer files and ppmlm.json, atomically. Nothing else of `modelDir` is
 * copied (no checkpoint, report or list that may sit beside the weights).
 *
 * @example
 * const done = await exportOnnx('models/constrained', 'models/constrained-onnx');
 * console.log(done.bytes, done.inputs); // input_ids, attention_mask, token_type_ids
 */
export async function exportOnnx(modelDir: string, out: string, options: ExportOnnxOptions = {}): Promise<OnnxExport> {
  // Before the weights are read: a wrong --out fails at once.
  await assertCanWrite(out, options.force);
  const { model, tokenizer, provenance } = await loadSavedModel(modelDir);
  try {
    const graph = encoderGraph(model);
    const proto = encodeModel({ opset: OPSET, producerName: 'ppmlm', producerVersion: PACKAGE_VERSION, graph });
    assertFitsOneFile(proto.length, modelDir);
    await writeDirAtomic(
      out,
      async (tmp) => {
        await writeConfigJson(tmp, model);
        await writeTokenizerFiles(tmp, tokenizer, model.config);
        await writeProvenance(tmp, exportProvenance(provenance));
        await writeModelCard(tmp, await readModelConfig(tmp), undefined, 'transformers.js');
        await mkdir(join(tmp, 'onnx'));
        await writeFile(join(tmp, 'onnx', 'model.onnx'), proto.parts);
      },
      options,
    );
    return { out, task: taskOf(model.head), opset: OPSET, inputs: graph.inputs.map((i) => i.name), logits: graph.outputs[0]!.shape, bytes: proto.length };
  } finally {
    disposeParams(model.params);
  }
}
