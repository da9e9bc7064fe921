import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { selectBackend } from '../../src/engine/index.js';
import { defaultConfig, initParams, parameterShapes, saveModelDir } from '../../src/model/index.js';
import { WordPieceTokenizer } from '../../src/tokenizer/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const LABELS = ['O', 'B-PERSON', 'I-PERSON'];

/** A randomly initialised token classifier: enough to run `deid apply`, whose input handling is under test. */
async function tinyClassifier(): Promise<string> {
  await selectBackend('wasm');
  const dir = join(await tempDir(), 'deid');
  const head = { tokenClassification: LABELS.length };
  const config = defaultConfig({ vocab_size: 8, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 16, max_position_embeddings: 32, id2label: Object.fromEntries(LABELS.map((l, i) => [String(i), l])) });
  const tokenizer = new WordPieceTokenizer(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'alice', 'saw', 'bob']);
  await saveModelDir(dir, { config, params: initParams(parameterShapes(config, head), config, 1), head }, tokenizer, { ppmlm: 'test', createdAt: '2026-12-02T00:00:00.000Z' });
  return dir;
}

describe('ppmlm deid apply --format jsonl', () => {
  it('reads JSONL through the corpus reader: file:line after blank lines, no text in errors, other keys kept', async () => {
    const model = await tinyClassifier();
    const dir = await tempDir();
    const input = join(dir, 'in.jsonl');
    const run = (name: string) => cli('deid', 'apply', '--model', model, '--in', input, '--out', join(dir, name), '--format', 'jsonl', '--seq-len', '16');

    await writeFile(input, '{"id": 1, "text": "alice saw bob"}\n\n\n{"id": 2, "text": "Alice Smith" private}\n');
    const bad = await run('a.jsonl');
    expect(bad.code).toBe(2);
    expect(bad.stderr.startsWith(`ppmlm: ${input}:4: not valid JSON`)).toBe(true);
    expect(bad.stderr).toMatch(/; each line must be one JSON object\n$/);
    expect(bad.stderr).not.toMatch(/Alice|at .*\.ts:/);

    await writeFile(input, '{"id": 1, "text": "alice saw bob"}\n\n{"id": 2, "body": "bob"}\n');
    const noText = await run('b.jsonl');
    expect(noText.code).toBe(2);
    expect(noText.stderr).toBe(`ppmlm: ${input}:3: each line needs a "text" string\n`);

    // A .jsonl file is read as JSONL without --format: as one text, its keys would be rewritten and kept.
    const inferred = await cli('deid', 'apply', '--model', model, '--in', input, '--out', join(dir, 'inferred.jsonl'), '--seq-len', '16');
    expect(inferred.stderr).toBe(`ppmlm: ${input}:3: each line needs a "text" string\n`);
    const asText = await cli('deid', 'apply', '--model', model, '--in', input, '--out', join(dir, 'as-text.txt'), '--format', 'text', '--seq-len', '16');
    expect(asText.code, asText.stderr).toBe(0);

    await writeFile(input, '\n\n');
    expect((await run('c.jsonl')).stderr).toMatch(/in\.jsonl: no records; each line must be a JSON object with a "text" string/);

    await writeFile(input, '{"id": 1, "text": "alice saw bob", "meta": {"ward": 3}}\r\n\r\n{"id": 2, "text": "bob"}\r\n');
    const ok = await run('d.jsonl');
    expect(ok.code, ok.stderr).toBe(0);
    const rows = (await readFile(join(dir, 'd.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.id, r.meta])).toEqual([[1, { ward: 3 }], [2, undefined]]);

    // --json reports counts only: the spans are identifiers and go to --spans-out alone.
    const summary = await cli('deid', 'apply', '--model', model, '--in', input, '--out', join(dir, 'e.jsonl'), '--format', 'jsonl', '--seq-len', '16', '--spans-out', join(dir, 'spans.jsonl'), '--json');
    expect(summary.code, summary.stderr).toBe(0);
    expect(JSON.parse(summary.stdout)).toEqual({ out: join(dir, 'e.jsonl'), records: 2, entities: expect.any(Number), style: 'letter', spansOut: join(dir, 'spans.jsonl') });
    expect(summary.stdout).not.toMatch(/alice|bob/);
  }, 60_000);

  it('refuses, before the model runs, one path for two files and a text file with nothing to rewrite', async () => {
    const model = await tinyClassifier();
    const dir = await tempDir();
    const input = join(dir, 'in.txt');
    await writeFile(input, 'alice saw bob\n');
    const out = join(dir, 'out.txt');
    const same = await cli('deid', 'apply', '--model', model, '--in', input, '--out', out, '--spans-out', out, '--seq-len', '16');
    expect(same.code).toBe(2);
    expect(same.stderr).toBe(`ppmlm: --spans-out ${out} is the output --out too; give --spans-out a path of its own\n`);
    await expect(stat(out)).rejects.toThrow();
    const over = await cli('deid', 'apply', '--model', model, '--in', input, '--out', input, '--force', '--seq-len', '16');
    expect(over.stderr).toBe(`ppmlm: --out ${input} is the input --in too; give --out a path of its own\n`);
    expect(await readFile(input, 'utf8')).toBe('alice saw bob\n');
    await writeFile(input, ' \n');
    const empty = await cli('deid', 'apply', '--model', model, '--in', input, '--out', out, '--seq-len', '16');
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim().split('\n').at(-1)).toBe(`ppmlm: ${input}: the file has no text to de-identify; give a file with text`);
    await expect(stat(out)).rejects.toThrow();
  }, 60_000);
});
