import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readdir, stat } from 'node:fs/promises';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { exportDataset, readDatasetManifest, readDatasetSplit, writeDataset, type DatasetExample } from '../../src/dataset/index.js';
import { readBlacklist } from '../../src/identifiers/index.js';
import { buildWindows, epochOrder, IGNORE, maskConfigFor, maskWindow, windowRng } from '../../src/mlm/index.js';
import { loadTokenizer } from '../../src/tokenizer/index.js';
import { readParquetRows } from '../helpers/parquet.js';
import { tinySetup } from '../helpers/tinyModel.js';
import { tempDir } from '../helpers/tmp.js';

async function setup() {
  const { dir, blacklist, model } = await tinySetup(4, 2);
  const docs = generateClinicalNotes(11, 4, 2);
  return { dir, model, docs, tokenizer: await loadTokenizer(model), blacklist: await readBlacklist(blacklist) };
}

const SEQ = 32;

describe('exportDataset', () => {
  it("writes special_tokens_mask = special ∪ protected, ppmlm's own protected positions, padded to --seq-len", async () => {
    const { dir, model, docs, tokenizer, blacklist } = await setup();
    const out = join(dir, 'ds');
    const manifest = await exportDataset({ docs, tokenizer, model, blacklist, seqLen: SEQ, out });
    const { windows, stats } = await buildWindows(docs, tokenizer, { seqLen: SEQ, stride: SEQ / 4, blacklist: blacklist.entries });
    expect(manifest).toMatchObject({ windows: windows.length, protectedTokens: stats.protectedTokens, splits: { train: ['data/train-00000-of-00001.parquet'] } });
    expect(stats.protectedTokens).toBeGreaterThan(0);
    // Read back by plain DuckDB, as any Parquet reader would see the shard.
    const rows = await readParquetRows(join(out, 'data', 'train-*.parquet'));
    expect(rows).toHaveLength(windows.length);
    const pad = tokenizer.idOf(tokenizer.specials.pad)!;
    windows.forEach((w, i) => {
      const row = rows[i] as unknown as DatasetExample;
      const n = w.ids.length;
      expect(row.input_ids).toEqual([...w.ids, ...Array(SEQ - n).fill(pad)]);
      expect(row.attention_mask).toEqual([...Array(n).fill(1), ...Array(SEQ - n).fill(0)]);
      expect(row.special_tokens_mask).toEqual([...Array.from({ length: n }, (_, k) => (w.special[k] || w.protectedMask[k] ? 1 : 0)), ...Array(SEQ - n).fill(1)]);
    });
    expect(rows.reduce((a, r) => a + (r.special_tokens_mask as number[]).filter((v, k) => v === 1 && (r.attention_mask as number[])[k] === 1).length, 0)).toBe(stats.protectedTokens + 2 * windows.length);
  });

  it("writes --premasked epochs as finetune --strategy constrained masks them: same order, same draws, never a protected target", async () => {
    const { dir, model, docs, tokenizer, blacklist } = await setup();
    const out = join(dir, 'ds');
    const premasked = { epochs: 2, seed: 7, maskProb: 0.3 };
    const manifest = await exportDataset({ docs, tokenizer, model, blacklist, seqLen: SEQ, out, premasked, shardRows: 5 });
    expect(Object.keys(manifest.splits)).toEqual(['train', 'epoch_1', 'epoch_2']);
    expect(manifest.splits.epoch_1!.length).toBeGreaterThan(1);
    const { windows } = await buildWindows(docs, tokenizer, { seqLen: SEQ, stride: SEQ / 4, blacklist: blacklist.entries });
    const config = await maskConfigFor(tokenizer, blacklist.entries, { maskProb: 0.3 });
    let targets = 0;
    for (const epoch of [0, 1]) {
      const rows = await readDatasetSplit(out, `epoch_${epoch + 1}`);
      expect(rows).toHaveLength(windows.length);
      epochOrder(windows.length, 7, epoch).forEach((index, slot) => {
        const w = windows[index]!;
        const expected = maskWindow(w, 'constrained', config, windowRng(7, epoch, slot));
        const row = rows[slot]!;
        expect(row.input_ids.slice(0, w.ids.length)).toEqual(Array.from(expected.ids));
        const positions = row.labels!.flatMap((l, k) => (l === IGNORE ? [] : [k]));
        expect(positions).toEqual(expected.positions);
        expect(positions.map((k) => row.labels![k])).toEqual(expected.labels);
        for (const k of positions) expect(w.protectedMask[k]).toBe(0);
        targets += positions.length;
      });
    }
    expect(targets).toBeGreaterThan(0);
  });

  it('keeps the shards private: folder 0700, files 0600, and nothing replaced without force', async () => {
    const { dir, model, docs, tokenizer, blacklist } = await setup();
    const out = join(dir, 'ds');
    await exportDataset({ docs, tokenizer, model, blacklist, seqLen: SEQ, out, premasked: { epochs: 1, seed: 1, maskProb: 0.15 } });
    expect((await stat(out)).mode & 0o777).toBe(0o700);
    const files = await readdir(out, { recursive: true, withFileTypes: true });
    for (const f of files.filter((e) => e.isFile())) expect((await stat(join(f.parentPath, f.name))).mode & 0o777).toBe(0o600);
    await expect(exportDataset({ docs, tokenizer, model, blacklist, seqLen: SEQ, out })).rejects.toThrow(/already exists; pass --force/);
    await exportDataset({ docs, tokenizer, model, blacklist, seqLen: SEQ, out, force: true });
    expect(Object.keys((await readDatasetManifest(out)).splits)).toEqual(['train']);
  });
});

describe('writeDataset / readDatasetSplit', () => {
  it('reads back what it wrote, across shards and in order; an empty split has no shard', async () => {
    const rows: DatasetExample[] = Array.from({ length: 7 }, (_, i) => ({ input_ids: [2, 100 + i, 3, 0], attention_mask: [1, 1, 1, 0], labels: [-100, 100 + i, -100, -100] }));
    const dir = join(await tempDir(), 'ds');
    const manifest = { ppmlm: 't', createdAt: 'now', model: 'm', seqLen: 4, stride: 1, documents: 7, windows: 7, tokens: 7, protectedTokens: 0 };
    const written = await writeDataset(dir, [{ name: 'epoch_1', rows: rows.length, row: (i) => rows[i]! }, { name: 'train', rows: 0, row: () => rows[0]! }], manifest, { shardRows: 3 });
    expect(written.splits).toEqual({ epoch_1: ['data/epoch_1-00000-of-00003.parquet', 'data/epoch_1-00001-of-00003.parquet', 'data/epoch_1-00002-of-00003.parquet'], train: [] });
    expect(await readDatasetManifest(dir)).toEqual(written);
    expect(await readDatasetSplit(dir, 'epoch_1')).toEqual(rows);
    expect(await readDatasetSplit(dir, 'train')).toEqual([]);
    await expect(readDatasetSplit(dir, 'test')).rejects.toThrow(/has no split "test"; its splits are epoch_1, train/);
  });
});
