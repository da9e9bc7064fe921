import * as tf from '@tensorflow/tfjs-core';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { ConfigError, FormatError, UsageError } from '../../src/errors.js';
import { decoderWeight, disposeParams, encode, initParams, loadModelDir, mlmLogits, parameterShapes, saveModelDir, sequenceClassifierLogits, tokenClassifierLogits, untieDecoder, type EncoderConfig, type EncoderModel, type Head } from '../../src/model/index.js';
import { assertFitsOneFile, exportOnnx } from '../../src/onnx/index.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';

/** Two windows, the second padded: attention_mask zeros and pad ids at its end. */
function batchFor(config: EncoderConfig): { ids: number[][]; mask: number[][] } {
  const pad = config.pad_token_id;
  return {
    ids: [
      [2, 17, 35, 18, 15, 11, 32, 33, 18, 3],
      [2, 12, 21, 12, 10, 33, 3, pad, pad, pad],
    ],
    mask: [
      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
      [1, 1, 1, 1, 1, 1, 1, 0, 0, 0],
    ],
  };
}

const int64 = (rows: number[][]) => new ort.Tensor('int64', BigInt64Array.from(rows.flat(), BigInt), [rows.length, rows[0]!.length]);

/** Runs an exported folder's onnx/model.onnx on a batch; token_type_ids (zeros) only where the graph takes them. */
async function runOnnx(dir: string, ids: number[][], mask: number[][]): Promise<{ data: Float32Array; dims: readonly number[]; inputs: readonly string[] }> {
  const session = await ort.InferenceSession.create(join(dir, 'onnx', 'model.onnx'));
  try {
    const feeds: Record<string, ort.Tensor> = { input_ids: int64(ids), attention_mask: int64(mask) };
    if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = int64(ids.map((r) => r.map(() => 0)));
    const { logits } = await session.run(feeds);
    return { data: logits!.data as Float32Array, dims: logits!.dims, inputs: session.inputNames };
  } finally {
    await session.release();
  }
}

/** ppmlm's own logits for the batch, computed by model/encoder.ts. */
function ppmlmLogits(model: EncoderModel, ids: number[][], mask: number[][]): Float32Array {
  const [B, S] = [ids.length, ids[0]!.length];
  return tf.tidy(() => {
    const hidden = encode(model.params, model.config, { inputIds: tf.tensor2d(ids, [B, S], 'int32'), attentionMask: tf.tensor2d(mask, [B, S], 'int32') });
    if (model.head === 'mlm') return mlmLogits(model.params, model.config, hidden, tf.range(0, B * S, 1, 'int32') as tf.Tensor1D).dataSync() as Float32Array;
    if ('tokenClassification' in model.head) return tokenClassifierLogits(model.params, hidden).dataSync() as Float32Array;
    return sequenceClassifierLogits(model.params, model.config, hidden, B, S).dataSync() as Float32Array;
  });
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/**
 * A model folder with a classification head on the parity fixture's encoder and tokenizer; weights drawn
 * with a wide spread so the logits differ by whole units, not by rounding.
 */
async function classifierDir(type: 'bert' | 'roberta', head: Exclude<Head, 'mlm'>): Promise<string> {
  const { model: base, tokenizer } = await loadModelDir(join(FIXTURES, 'parity', type), 'mlm');
  disposeParams(base.params);
  const labels = 'tokenClassification' in head ? head.tokenClassification : head.sequenceClassification;
  const config: EncoderConfig = { ...base.config, initializer_range: 0.5, id2label: Object.fromEntries(Array.from({ length: labels }, (_, i) => [String(i), `L${i}`])) };
  const params = initParams(parameterShapes(config, head), config, 3);
  const dir = join(await tempDir(), 'classifier');
  await saveModelDir(dir, { config, params, head }, tokenizer, { ppmlm: 'test', createdAt: 'now' });
  disposeParams(params);
  return dir;
}

/** Exports `dir` and checks the ONNX logits against ppmlm's on a padded batch. */
async function expectSameLogits(dir: string): Promise<{ out: string; onnx: Float32Array }> {
  const out = join(await tempDir(), 'onnx-export');
  await exportOnnx(dir, out);
  const { model } = await loadModelDir(dir, (await exportedHead(out)) ?? 'mlm');
  const { ids, mask } = batchFor(model.config);
  const onnx = await runOnnx(out, ids, mask);
  expect(maxAbsDiff(onnx.data, ppmlmLogits(model, ids, mask))).toBeLessThan(1e-4);
  disposeParams(model.params);
  return { out, onnx: onnx.data };
}

/** The head an exported config.json names, as loadModelDir takes it. */
async function exportedHead(out: string): Promise<Head | undefined> {
  const config = JSON.parse(await readFile(join(out, 'config.json'), 'utf8')) as EncoderConfig;
  const labels = Object.keys(config.id2label ?? {}).length;
  if (config.architectures![0]!.endsWith('ForTokenClassification')) return { tokenClassification: labels };
  if (config.architectures![0]!.endsWith('ForSequenceClassification')) return { sequenceClassification: labels };
  return undefined;
}

beforeAll(async () => {
  await selectBackend('cpu');
});

describe('exportOnnx', () => {
  it.each(['bert', 'roberta'] as const)('%s masked LM: onnxruntime matches ppmlm and the PyTorch reference within 1e-4, padding included', async (type) => {
    const dir = join(FIXTURES, 'parity', type);
    const { out, onnx } = await expectSameLogits(dir);
    const expected = JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8')) as { input_ids: number[][]; attention_mask: number[][]; logits: number[][][] };
    const reference = await runOnnx(out, expected.input_ids, expected.attention_mask);
    expect(maxAbsDiff(reference.data, expected.logits.flat(2))).toBeLessThan(1e-4);
    expect(onnx.length).toBe(2 * 10 * 40);
  });

  it.each(['bert', 'roberta'] as const)('%s masked LM with an untied decoder: onnxruntime matches ppmlm within 1e-4', async (type) => {
    const { model, tokenizer } = await loadModelDir(join(FIXTURES, 'parity', type), 'mlm');
    model.config = untieDecoder(model.config, model.params);
    // Move the decoder away from the embeddings, so that reading the wrong matrix would show.
    const decoder = model.params.get(decoderWeight(model.config).name)!;
    decoder.assign(tf.mul(decoder, 1.5));
    const dir = join(await tempDir(), 'untied');
    await saveModelDir(dir, model, tokenizer, { ppmlm: 'test', createdAt: 'now' });
    disposeParams(model.params);
    await expectSameLogits(dir);
  });

  it.each(['bert', 'roberta'] as const)('%s token classification: onnxruntime matches ppmlm within 1e-4', async (type) => {
    await expectSameLogits(await classifierDir(type, { tokenClassification: 5 }));
  });

  it('sequence classification: logits [batch, labels] match ppmlm within 1e-4', async () => {
    const { onnx } = await expectSameLogits(await classifierDir('bert', { sequenceClassification: 3 }));
    expect(onnx.length).toBe(2 * 3);
  });

  it('takes token_type_ids for BERT only, and any batch and sequence length', async () => {
    const bert = join(await tempDir(), 'bert');
    const roberta = join(await tempDir(), 'roberta');
    const b = await exportOnnx(join(FIXTURES, 'parity', 'bert'), bert);
    const r = await exportOnnx(join(FIXTURES, 'parity', 'roberta'), roberta);
    expect(b.inputs).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    expect(r.inputs).toEqual(['input_ids', 'attention_mask']);
    expect(b.logits).toEqual(['batch_size', 'sequence_length', 40]);
    const { model } = await loadModelDir(join(FIXTURES, 'parity', 'roberta'), 'mlm');
    for (const [B, S] of [[1, 3], [3, 17]] as const) {
      const ids = Array.from({ length: B }, (_, i) => Array.from({ length: S }, (_, j) => 2 + ((i * 7 + j * 3) % 37)));
      const mask = ids.map((row) => row.map(() => 1));
      const got = await runOnnx(roberta, ids, mask);
      expect(got.dims).toEqual([B, S, 40]);
      expect(maxAbsDiff(got.data, ppmlmLogits(model, ids, mask))).toBeLessThan(1e-4);
    }
    disposeParams(model.params);
  });

  it('writes the transformers.js layout and copies nothing else of the model folder', async () => {
    const dir = join(await tempDir(), 'model');
    const { model, tokenizer } = await loadModelDir(join(FIXTURES, 'parity', 'bert'), 'mlm');
    await saveModelDir(dir, model, tokenizer, { ppmlm: 'test', createdAt: 'then', strategy: 'constrained', blacklistFingerprint: 'sha256:abc' });
    disposeParams(model.params);
    // Files a user may keep beside a model: none of them belongs in an export.
    await writeFile(join(dir, 'blacklist.tsv'), 'term\nAlice Smith\n');
    await writeFile(join(dir, 'report.json'), '{"identifiers":["Alice Smith"]}');
    const out = join(await tempDir(), 'export');
    await exportOnnx(dir, out);
    expect((await readdir(out, { recursive: true })).sort()).toEqual(['README.md', 'config.json', 'onnx', 'onnx/model.onnx', 'ppmlm.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt']);
    const provenance = JSON.parse(await readFile(join(out, 'ppmlm.json'), 'utf8')) as Record<string, unknown>;
    expect(provenance).toMatchObject({ strategy: 'constrained', blacklistFingerprint: 'sha256:abc', onnx: { opset: 17 } });
    for (const name of ['config.json', 'tokenizer.json', 'ppmlm.json']) expect(await readFile(join(out, name), 'utf8')).not.toContain('Alice');
  });

  it('refuses a folder whose config names no exportable head, naming config.json', async () => {
    const dir = join(await tempDir(), 'bare');
    const { model, tokenizer } = await loadModelDir(join(FIXTURES, 'parity', 'bert'), 'mlm');
    await saveModelDir(dir, model, tokenizer, { ppmlm: 'test', createdAt: 'now' });
    disposeParams(model.params);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as EncoderConfig;
    await writeFile(join(dir, 'config.json'), JSON.stringify({ ...config, architectures: ['BertModel'] }));
    const err = await exportOnnx(dir, join(dir, 'out')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).file).toBe(join(dir, 'config.json'));
    expect((err as ConfigError).message).toMatch(/BertModel.*ForMaskedLM/);
  });

  it('refuses a model whose head weights are missing instead of exporting a random head', async () => {
    const dir = await classifierDir('bert', { tokenClassification: 2 });
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as EncoderConfig;
    await writeFile(join(dir, 'config.json'), JSON.stringify({ ...config, architectures: ['BertForSequenceClassification'] }));
    await expect(exportOnnx(dir, join(dir, 'out'))).rejects.toThrow(FormatError);
    await expect(exportOnnx(dir, join(dir, 'out'))).rejects.toThrow(/pooler/);
  });

  it('refuses to replace an existing folder without force', async () => {
    const out = await tempDir();
    await expect(exportOnnx(join(FIXTURES, 'parity', 'bert'), out)).rejects.toThrow(UsageError);
    await exportOnnx(join(FIXTURES, 'parity', 'bert'), out, { force: true });
    expect(await readdir(join(out, 'onnx'))).toEqual(['model.onnx']);
  });

  it('refuses a model above protobuf\'s 2 GiB limit (no external data)', () => {
    expect(() => assertFitsOneFile(2 ** 31 - 1, 'm')).not.toThrow();
    expect(() => assertFitsOneFile(2 ** 31, 'm')).toThrow(/2 GiB limit.*optimum/);
  });
});
