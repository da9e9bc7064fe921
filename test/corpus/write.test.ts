import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { loadCorpus, writeCorpus, type Document } from '../../src/corpus/index.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/tmp.js';

const DOCS: Document[] = [
  { id: 'a', author: 'p1', text: 'Line one,\nline "two"', label: 'x' },
  { id: 'b', author: 'p2', text: '홍길동이 2019. 9. 5. 왔다' },
];

describe('writeCorpus', () => {
  it.each(['csv', 'jsonl'] as const)('round-trips through readCorpus (%s)', async (format) => {
    const path = join(await tempDir(), `out.${format}`);
    expect(await writeCorpus(path, DOCS, { format })).toBe(2);
    const back = await loadCorpus(path);
    expect(back).toEqual(format === 'csv' ? [DOCS[0], { ...DOCS[1], label: '' }] : DOCS);
  });

  it('refuses to overwrite without force, and leaves no temp file behind', async () => {
    const dir = await tempDir();
    const path = join(dir, 'out.jsonl');
    await writeFile(path, 'precious');
    await expect(writeCorpus(path, DOCS, { format: 'jsonl' })).rejects.toThrow(UsageError);
    await expect(writeCorpus(path, DOCS, { format: 'jsonl' })).rejects.toThrow(/already exists; pass --force/);
    await writeCorpus(path, DOCS, { format: 'jsonl', force: true });
    expect(await readdir(dir)).toEqual(['out.jsonl']);
  });

  it('writes private files, mode 0600, unless told another mode', async () => {
    const dir = await tempDir();
    await writeCorpus(join(dir, 'out.jsonl'), DOCS, { format: 'jsonl' });
    expect((await stat(join(dir, 'out.jsonl'))).mode & 0o777).toBe(0o600);
    await writeCorpus(join(dir, 'public.jsonl'), DOCS, { format: 'jsonl', mode: 0o644 });
    expect((await stat(join(dir, 'public.jsonl'))).mode & 0o777).toBe(0o644);
  });

  it('refuses TSV for texts with tabs or newlines and removes the temp file', async () => {
    const dir = await tempDir();
    await expect(writeCorpus(join(dir, 'o.tsv'), DOCS, { format: 'tsv' })).rejects.toThrow(/write CSV or JSONL instead/);
    expect(await readdir(dir)).toEqual([]);
  });
});
