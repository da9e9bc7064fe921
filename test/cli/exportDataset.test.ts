import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { loadCorpus } from '../../src/corpus/index.js';
import { readBlacklist } from '../../src/identifiers/index.js';
import { buildWindows } from '../../src/mlm/index.js';
import { loadTokenizer } from '../../src/tokenizer/index.js';
import { parseSafetensors, serializeSafetensors } from '../../src/model/index.js';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { cli } from '../helpers/cli.js';
import { readParquetRows } from '../helpers/parquet.js';
import { tinySetup } from '../helpers/tinyModel.js';

describe('ppmlm export-dataset', () => {
  it('writes train and premasked splits whose protected positions are ppmlm\'s, and says so in --json', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(4, 2);
    const out = join(dir, 'ds');
    const r = await cli('--quiet', 'export-dataset', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', out, '--seq-len', '32', '--premasked', '2', '--json');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(Object.keys(summary.splits)).toEqual(['train', 'epoch_1', 'epoch_2']);
    expect(summary).toMatchObject({ seqLen: 32, stride: 8, premasked: { epochs: 2, seed: 42, maskProb: 0.15 }, blacklistFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const manifest = JSON.parse(await readFile(join(out, 'ppmlm_dataset.json'), 'utf8'));
    expect(manifest.splits).toEqual(summary.splits);
    // The manifest names the blacklist by fingerprint only.
    const terms = (await readBlacklist(blacklist)).entries.map((e) => e.term).filter((t) => t.length > 5);
    for (const t of terms) expect(JSON.stringify(manifest)).not.toContain(t);

    const tokenizer = await loadTokenizer(model);
    const { windows } = await buildWindows(await loadCorpus(corpus), tokenizer, { seqLen: 32, stride: 8, blacklist: (await readBlacklist(blacklist)).entries });
    const rows = await readParquetRows(join(out, 'data', 'train-*.parquet'));
    const protectedAt = (w: (typeof windows)[number]) => [...w.protectedMask.keys()].filter((k) => w.protectedMask[k] === 1);
    expect(rows.map((row) => (row.special_tokens_mask as number[]).flatMap((v, k) => (v === 1 && k > 0 && (row.input_ids as number[])[k] !== tokenizer.idOf(tokenizer.specials.sep) && (row.attention_mask as number[])[k] === 1 ? [k] : [])))).toEqual(windows.map(protectedAt));
    const epoch = await readParquetRows(join(out, 'data', 'epoch_1-*.parquet'));
    expect(Object.keys(epoch[0]!).sort()).toEqual(['attention_mask', 'input_ids', 'labels']);

    const text = await cli('--quiet', 'export-dataset', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', join(dir, 'ds2'), '--seq-len', '32');
    expect(text.stdout).toMatch(/^wrote .*ds2 \(mode 0600\): \d+ windows of 8 documents, \d+ of \d+ tokens protected; splits train$/m);
  });

  it("--premasked holds the very targets finetune draws: as many, epoch for epoch, with the same flags", async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(4, 2);
    const ft = await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--strategy', 'constrained', '--out', join(dir, 'ft'), '--epochs', '2', '--seq-len', '32', '--batch-size', '4', '--mask-prob', '0.3', '--seed', '5', '--json');
    expect(ft.code, ft.stderr).toBe(0);
    const { targets } = JSON.parse(ft.stdout);
    const out = join(dir, 'ds');
    const ex = await cli('--quiet', 'export-dataset', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', out, '--seq-len', '32', '--premasked', '2', '--mask-prob', '0.3', '--seed', '5');
    expect(ex.code, ex.stderr).toBe(0);
    const rows = await readParquetRows(join(out, 'data', 'epoch_*.parquet'));
    expect(rows.reduce((a, r) => a + (r.labels as number[]).filter((l) => l !== -100).length, 0)).toBe(targets);
    expect(targets).toBeGreaterThan(0);
  }, 60_000);

  it('exits 2 with one line on bad input: an existing --out, a missing blacklist, a --seq-len beyond the model, a bad --premasked', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(2, 1);
    const out = join(dir, 'ds');
    await writeFile(out, 'x');
    const base = ['export-dataset', '--model', model, '--corpus', corpus, '--seq-len', '32'];
    const cases: [string[], RegExp][] = [
      [[...base, '--blacklist', blacklist, '--out', out], /ds already exists; pass --force/],
      [[...base, '--blacklist', join(dir, 'nope.tsv'), '--out', join(dir, 'a')], /nope\.tsv: no such file or folder; check the --blacklist path/],
      [['export-dataset', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', join(dir, 'b'), '--seq-len', '512'], /--seq-len 512 exceeds the 64 positions/],
      [[...base, '--blacklist', blacklist, '--out', join(dir, 'c'), '--premasked', '0'], /--premasked must be/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  });

  it('audits the model folder a Hugging Face Trainer run on the export writes (save_pretrained layout, no ppmlm.json)', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(4, 2);
    // What BertForMaskedLM.save_pretrained + the fast tokenizer's save_pretrained leave: HF names (ppmlm's own
    // names are HF's), the tied decoder dropped, config.json with transformers' extra keys, tokenizer files,
    // training_args.bin, and no ppmlm.json or model card.
    const hf = join(dir, 'hf-run');
    await mkdir(hf);
    const config = JSON.parse(await readFile(join(model, 'config.json'), 'utf8'));
    await writeFile(join(hf, 'config.json'), JSON.stringify({ _name_or_path: model, ...config, architectures: ['BertForMaskedLM'], torch_dtype: 'float32', transformers_version: '4.46.3' }, null, 2));
    const { tensors } = parseSafetensors(await readFile(join(model, 'model.safetensors')), 'model.safetensors');
    const sorted = new Map([...tensors].filter(([name]) => name !== 'cls.predictions.decoder.weight').sort(([a], [b]) => (a < b ? -1 : 1)));
    await writeFile(join(hf, 'model.safetensors'), serializeSafetensors(sorted, { format: 'pt' }));
    for (const f of ['tokenizer.json', 'vocab.txt', 'tokenizer_config.json']) await copyFile(join(model, f), join(hf, f));
    await writeFile(join(hf, 'special_tokens_map.json'), JSON.stringify({ cls_token: '[CLS]', mask_token: '[MASK]', pad_token: '[PAD]', sep_token: '[SEP]', unk_token: '[UNK]' }));
    await writeFile(join(hf, 'training_args.bin'), Buffer.from([0x80, 0x04, 0x95]));
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 4, 2).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const r = await cli('--quiet', 'audit', '--model', hf, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', join(dir, 'audit'), '--seq-len', '32', '--json', '--update-card');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.privacy.all.occurrences).toBeGreaterThan(0);
    expect(report.utility.accuracy).toEqual(expect.any(Number));
    // Asked to, the audit gives the folder a card: its training unknown here, the audit's figures known.
    expect(await readFile(join(hf, 'README.md'), 'utf8')).toMatch(/No ppmlm\.json[\s\S]*privacy score, all protected occurrences/);
  }, 60_000);
});
