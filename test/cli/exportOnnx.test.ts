import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { encodeWithMasks } from '../../src/model/index.js';
import { loadTokenizer } from '../../src/tokenizer/index.js';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';

const TEXT = 'Patient [MASK] was seen for asthma.';

/** The id onnxruntime ranks first at the mask, the text tokenised by the exported folder's own tokenizer. */
async function onnxTopToken(out: string): Promise<number> {
  const tokenizer = await loadTokenizer(out);
  const { ids, maskPositions } = encodeWithMasks(tokenizer, TEXT);
  const tensor = (values: number[]) => new ort.Tensor('int64', BigInt64Array.from(values, BigInt), [1, values.length]);
  const session = await ort.InferenceSession.create(join(out, 'onnx', 'model.onnx'));
  const { logits } = await session.run({ input_ids: tensor(ids), attention_mask: tensor(ids.map(() => 1)), token_type_ids: tensor(ids.map(() => 0)) });
  await session.release();
  const vocab = logits!.dims[2]!;
  const row = Array.from((logits!.data as Float32Array).subarray(maskPositions[0]! * vocab, (maskPositions[0]! + 1) * vocab));
  return row.indexOf(Math.max(...row));
}

describe('ppmlm export onnx', () => {
  it('writes onnx/model.onnx with config and tokenizer, and onnxruntime fills the mask as ppmlm does', async () => {
    const { dir, model } = await tinySetup(6, 2);
    const out = join(dir, 'onnx-export');
    const r = await cli('export', 'onnx', '--model', model, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*onnx\/model\.onnx \([\d.]+ MB, opset 17, fill-mask\): input_ids, attention_mask, token_type_ids → logits \[batch_size, sequence_length, \d+\]\n$/);
    expect((await readdir(out)).sort()).toEqual(['README.md', 'config.json', 'onnx', 'ppmlm.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt']);
    expect(await readFile(join(out, 'README.md'), 'utf8')).toMatch(/^---\nlicense: unknown\nlibrary_name: transformers.js\npipeline_tag: fill-mask\n[\s\S]*- "onnx"[\s\S]*onnx\/model\.onnx/);
    const fill = await cli('fill-mask', '--model', model, '--text', TEXT, '--top-k', '1', '--json');
    expect(fill.code, fill.stderr).toBe(0);
    expect(await onnxTopToken(out)).toBe(JSON.parse(fill.stdout)[0].token);

    const again = await cli('export', 'onnx', '--model', model, '--out', out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^ppmlm: .*onnx-export already exists; pass --force/);
    const json = await cli('export', 'onnx', '--model', model, '--out', out, '--force', '--json');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ out, task: 'fill-mask', opset: 17, inputs: ['input_ids', 'attention_mask', 'token_type_ids'] });
  });

  it('exports a pretraining checkpoint (BertForPreTraining) by its masked-LM head, as a fill-mask model', async () => {
    const { dir, model } = await tinySetup(4, 2);
    const config = JSON.parse(await readFile(join(model, 'config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(model, 'config.json'), JSON.stringify({ ...config, architectures: ['BertForPreTraining'] }));
    const out = join(dir, 'pretraining-export');
    const r = await cli('export', 'onnx', '--model', model, '--out', out, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ task: 'fill-mask' });
    expect(JSON.parse(await readFile(join(out, 'config.json'), 'utf8')).architectures).toEqual(['BertForMaskedLM']);
    const fill = await cli('fill-mask', '--model', model, '--text', TEXT, '--top-k', '1', '--json');
    expect(await onnxTopToken(out)).toBe(JSON.parse(fill.stdout)[0].token);
  });

  it('refuses a model without a supported head in one line naming config.json and the fix (exit 2)', async () => {
    const { model } = await tinySetup(4, 2);
    const config = JSON.parse(await readFile(join(model, 'config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(model, 'config.json'), JSON.stringify({ ...config, architectures: ['BertForNextSentencePrediction'] }));
    const r = await cli('export', 'onnx', '--model', model, '--out', join(model, '..', 'never'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/config\.json: "architectures" \["BertForNextSentencePrediction"\] names no head .*ForMaskedLM/);
    const missing = await cli('export', 'onnx', '--model', join(model, 'nowhere'), '--out', join(model, '..', 'never'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file/);
  });
});
