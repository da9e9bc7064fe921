import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadModelDir, parseSafetensors, saveModelDir, serializeSafetensors, validateConfig } from '../../src/model/index.js';
import { FormatError } from '../../src/errors.js';
import { selectBackend } from '../../src/engine/index.js';
import { thrown } from '../helpers/errors.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';

function raw(header: object, data: Uint8Array): Uint8Array {
  const json = Buffer.from(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

describe('safetensors', () => {
  it('round-trips float32 tensors with an 8-byte aligned header', () => {
    const tensors = new Map([
      ['b', { shape: [2, 2], data: Float32Array.from([1, -2, 3.5, 0]) }],
      ['a', { shape: [3], data: Float32Array.from([0.1, 0.2, 0.3]) }],
    ]);
    const bytes = serializeSafetensors(tensors);
    const headerLength = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect((8 + headerLength) % 8).toBe(0);
    const back = parseSafetensors(bytes, 'x');
    expect(back.tensors).toEqual(tensors);
    expect(back.metadata).toEqual({ format: 'pt' });
  });

  it('reads F16 and BF16 as float32', () => {
    // 1.0, -2.0, 0.5 in float16 and bfloat16
    const f16 = Uint8Array.from([0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38]);
    const bf16 = Uint8Array.from([0x80, 0x3f, 0x00, 0xc0, 0x00, 0x3f]);
    const bytes = raw({ h: { dtype: 'F16', shape: [3], data_offsets: [0, 6] }, b: { dtype: 'BF16', shape: [3], data_offsets: [6, 12] } }, Uint8Array.from([...f16, ...bf16]));
    const { tensors } = parseSafetensors(bytes, 'x');
    expect(Array.from(tensors.get('h')!.data)).toEqual([1, -2, 0.5]);
    expect(Array.from(tensors.get('b')!.data)).toEqual([1, -2, 0.5]);
  });

  it('names the problem in truncated or corrupt files', () => {
    expect(() => parseSafetensors(new Uint8Array(3), 'm.safetensors')).toThrow(/too short/);
    const good = serializeSafetensors(new Map([['a', { shape: [4], data: new Float32Array(4) }]]));
    expect(() => parseSafetensors(good.subarray(0, good.length - 4), 'm.safetensors')).toThrow(/do not fit shape .* or the file \(truncated\?\)/);
    const badJson = raw({}, new Uint8Array());
    badJson[9] = 0x7b;
    badJson[8] = 0x7b;
    expect(() => parseSafetensors(badJson, 'm.safetensors')).toThrow(FormatError);
    expect(() => parseSafetensors(raw({ a: { dtype: 'F64', shape: [1], data_offsets: [0, 8] } }, new Uint8Array(8)), 'm')).toThrow(/dtype F64; ppmlm reads F32, F16 and BF16/);
    // Two tensors over the same bytes would read as each other's values.
    expect(() => parseSafetensors(raw({ a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [1], data_offsets: [4, 8] } }, new Uint8Array(8)), 'm')).toThrow('tensors a and b overlap in the data; the file is corrupt: save the model again');
  });

  it('skips an integer buffer (position_ids, as older transformers saved it), which no encoder weight is', () => {
    const bytes = raw({ 'bert.embeddings.position_ids': { dtype: 'I64', shape: [1, 2], data_offsets: [0, 16] }, w: { dtype: 'F32', shape: [1], data_offsets: [16, 20] } }, Uint8Array.from([...new Uint8Array(16), 0, 0, 0x80, 0x3f]));
    const { tensors } = parseSafetensors(bytes, 'm');
    expect([...tensors.keys()]).toEqual(['w']);
    expect(Array.from(tensors.get('w')!.data)).toEqual([1]);
  });

  it('names the field of a malformed header entry in a one-line FormatError', () => {
    const cases: [unknown, RegExp][] = [
      [null, /^header is not a JSON object/],
      [[1, 2], /^header is not a JSON object/],
      [{ a: null }, /^tensor a: the header entry is not an object/],
      [{ a: { dtype: 'F32', shape: [1] } }, /^tensor a: "data_offsets" must be \[begin, end\]/],
      [{ a: { dtype: 'F32', shape: 4, data_offsets: [0, 4] } }, /^tensor a: "shape" must be an array of non-negative integers/],
      [{ a: { dtype: 'F32', shape: [-1], data_offsets: [0, 4] } }, /^tensor a: "shape" must be an array/],
      [{ a: { dtype: 'F32', shape: [1], data_offsets: [-4, 0] } }, /^tensor a: "data_offsets" must be \[begin, end\] with 0 <= begin <= end/],
      [{ a: { dtype: 'F32', shape: [1], data_offsets: [4, 0] } }, /^tensor a: "data_offsets"/],
      [{ a: { dtype: 7, shape: [1], data_offsets: [0, 4] } }, /^tensor a: "dtype" must be a string/],
      [{ a: { dtype: 'F32', shape: [1e9, 1e9], data_offsets: [0, 4] } }, /^tensor a: data offsets \[0, 4\] do not fit shape/],
      [{ __metadata__: null }, /^__metadata__ must map names to strings/],
    ];
    for (const [header, message] of cases) {
      const err = thrown(() => parseSafetensors(raw(header as object, new Uint8Array(4)), 'm.safetensors'));
      expect(err, JSON.stringify(header)).toBeInstanceOf(FormatError);
      expect(err.message).toMatch(message);
      expect(err.located).toMatch(/^m\.safetensors: [^\n]+$/);
    }
  });
});

describe('model folders', () => {
  it('loads a model with or without the base prefix and reports a shape mismatch', async () => {
    await selectBackend('wasm');
    const dir = join(await tempDir(), 'm');
    await cp(join(FIXTURES, 'parity', 'bert'), dir, { recursive: true });
    const { tensors } = parseSafetensors(await readFile(join(dir, 'model.safetensors')), 'x');
    const unprefixed = new Map([...tensors].map(([k, v]) => [k.replace(/^bert\./, ''), v]));
    await writeFile(join(dir, 'model.safetensors'), serializeSafetensors(unprefixed));
    const loaded = await loadModelDir(dir, 'mlm');
    expect(loaded.model.params.size).toBeGreaterThan(10);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    await writeFile(join(dir, 'config.json'), JSON.stringify({ ...config, intermediate_size: 64 }));
    await expect(loadModelDir(dir, 'mlm')).rejects.toThrow(/has shape \[32,16\] but config.json implies \[64,16\]; the weights and config.json come from different models: download or save the model again$/);
  });

  it('reads the masked-LM bias under its decoder name, refuses shards and dangling links with their fix, and starts a classifier afresh when asked', async () => {
    await selectBackend('wasm');
    const dir = join(await tempDir(), 'm');
    await cp(join(FIXTURES, 'parity', 'bert'), dir, { recursive: true });
    const { tensors } = parseSafetensors(await readFile(join(dir, 'model.safetensors')), 'x');
    const bias = tensors.get('cls.predictions.bias')!;
    const renamed = new Map([...tensors].map(([k, v]) => [k === 'cls.predictions.bias' ? 'cls.predictions.decoder.bias' : k, v]));
    await writeFile(join(dir, 'model.safetensors'), serializeSafetensors(renamed));
    const loaded = await loadModelDir(dir, 'mlm');
    expect(Array.from(loaded.model.params.get('cls.predictions.bias')!.dataSync())).toEqual(Array.from(bias.data));
    // A classifier whose labels differ is drawn anew, not read by index.
    const classifier = new Map([...renamed, ['classifier.weight', { shape: [2, 16], data: new Float32Array(32).fill(5) }], ['classifier.bias', { shape: [2], data: new Float32Array(2).fill(5) }]]);
    await writeFile(join(dir, 'model.safetensors'), serializeSafetensors(classifier));
    const kept = await loadModelDir(dir, { tokenClassification: 2 });
    expect(Array.from(kept.model.params.get('classifier.bias')!.dataSync())).toEqual([5, 5]);
    const fresh = await loadModelDir(dir, { tokenClassification: 2 }, 0, { freshHead: true });
    expect(Array.from(fresh.model.params.get('classifier.bias')!.dataSync())).toEqual([0, 0]);
    const { rename, symlink } = await import('node:fs/promises');
    await rename(join(dir, 'model.safetensors'), join(dir, 'model-00001-of-00001.safetensors'));
    await writeFile(join(dir, 'model.safetensors.index.json'), '{"weight_map": {}}');
    await expect(loadModelDir(dir)).rejects.toThrow(`${join(dir, 'model.safetensors.index.json')}: the weights are in shards; ppmlm reads one model.safetensors: save the model in one file (save_pretrained(DIR, max_shard_size="100GB"))`);
    await rm(join(dir, 'model.safetensors.index.json'));
    await symlink(join(dir, 'blobs', 'gone'), join(dir, 'model.safetensors'));
    await expect(loadModelDir(dir)).rejects.toThrow(`${join(dir, 'model.safetensors')}: a link to a file that is not there (a download cut short?); download or save the model again`);
  });

  it('says which folder to give for a file in a model folder or a Hugging Face cache entry, and writes float32 as torch_dtype', async () => {
    await selectBackend('wasm');
    const root = await tempDir();
    const dir = join(root, 'models--org--tiny', 'snapshots', '0123abcd');
    await cp(join(FIXTURES, 'parity', 'bert'), dir, { recursive: true });
    await expect(loadModelDir(join(dir, 'model.safetensors'))).rejects.toThrow(`${join(dir, 'model.safetensors')} is a file; give the model folder that holds it (${dir})`);
    await expect(loadModelDir(join(root, 'models--org--tiny'))).rejects.toThrow(`${join(root, 'models--org--tiny')} is a Hugging Face cache entry; give its model folder, ${dir}`);
    const vocab = await readFile(join(dir, 'vocab.txt'), 'utf8');
    await writeFile(join(dir, 'vocab.txt'), `${vocab}[EXTRA]\n`);
    await expect(loadModelDir(dir)).rejects.toMatchObject({ located: expect.stringMatching(/config\.json: the tokenizer has \d+ tokens but vocab_size is \d+: its last ids have no embedding; give the tokenizer saved with this model, or resize the model to it/) });
    await writeFile(join(dir, 'vocab.txt'), vocab);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    await writeFile(join(dir, 'config.json'), JSON.stringify({ ...config, torch_dtype: 'float16' }));
    const loaded = await loadModelDir(dir);
    const out = join(root, 'saved');
    await saveModelDir(out, loaded.model, loaded.tokenizer, { ppmlm: 'test', createdAt: 'now' });
    expect(JSON.parse(await readFile(join(out, 'config.json'), 'utf8')).torch_dtype).toBe('float32');
  });

  it('gives one-line errors for missing files and bad configs', async () => {
    const dir = await tempDir();
    await expect(loadModelDir(dir)).rejects.toThrow(/config\.json: no such file; is this a model folder/);
    await writeFile(join(dir, 'config.json'), '{\n  "model_type": "bert",\n  oops\n}');
    await expect(loadModelDir(dir)).rejects.toMatchObject({ located: `${join(dir, 'config.json')}:3: not valid JSON at column 3; a model's config.json is one JSON object: download or save the model again` });
    expect(() => validateConfig({ model_type: 'gpt2' as 'bert', vocab_size: 1, hidden_size: 1, num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: 1, max_position_embeddings: 1 })).toThrow(/model_type "gpt2" is not supported/);
    expect(() => validateConfig({ model_type: 'bert', vocab_size: 10, hidden_size: 10, num_hidden_layers: 1, num_attention_heads: 3, intermediate_size: 1, max_position_embeddings: 1 })).toThrow(/not a multiple of num_attention_heads/);
    await writeFile(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', vocab_size: 10, hidden_size: 4, num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: 4, max_position_embeddings: 8 }));
    await expect(loadModelDir(dir)).rejects.toThrow(/model\.safetensors: no such file; ppmlm reads safetensors/);
    await writeFile(join(dir, 'model.safetensors'), 'garbage!');
    await expect(loadModelDir(dir)).rejects.toThrow(/header length .* exceeds the file size|not valid JSON/);
  });
});
