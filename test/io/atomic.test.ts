import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { PRIVATE_FILE_MODE, prepareAtomicDir, recoverAtomicDir, writeFileAtomic } from '../../src/io/index.js';
import { tempDir } from '../helpers/tmp.js';

describe('writeFileAtomic', () => {
  it('creates parent folders and applies the mode exactly, whatever the umask', async () => {
    const path = join(await tempDir(), 'a', 'b', 'list.tsv');
    const old = process.umask(0o000);
    try {
      await writeFileAtomic(path, 'x', { mode: PRIVATE_FILE_MODE });
    } finally {
      process.umask(old);
    }
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('keeps the old file when not forced', async () => {
    const path = join(await tempDir(), 'f');
    await writeFile(path, 'old');
    await expect(writeFileAtomic(path, 'new')).rejects.toThrow(/already exists/);
    expect(await readFile(path, 'utf8')).toBe('old');
  });
});

describe('prepareAtomicDir', () => {
  it('swaps a whole folder in on commit and removes it on abort', async () => {
    const root = await tempDir();
    const target = join(root, 'model');
    const first = await prepareAtomicDir(target);
    await writeFile(join(first.tmpDir, 'config.json'), '{}');
    await first.commit();
    expect(await readdir(target)).toEqual(['config.json']);
    const second = await prepareAtomicDir(target, { force: true });
    await writeFile(join(second.tmpDir, 'other'), '');
    await second.abort();
    expect(await readdir(root)).toEqual(['model']);
    await expect(prepareAtomicDir(target)).rejects.toThrow(/already exists/);
  });
});

describe('recoverAtomicDir', () => {
  /** A folder with one file, as a killed writeDirAtomic leaves it. */
  const folder = async (path: string, content: string) => {
    await mkdir(path, { recursive: true });
    await writeFile(join(path, 'f'), content);
  };

  it('removes the temp folders of killed writes and keeps the folder and its neighbours', async () => {
    const root = await tempDir();
    const target = join(root, 'checkpoint');
    await folder(target, 'kept');
    await folder(join(root, '.checkpoint.4242.0badf00d.tmp'), 'half');
    await folder(join(root, '.checkpoint.4243.deadbeef.tmp.old'), 'older');
    await folder(join(root, '.best.4242.0badf00d.tmp'), 'other target');
    await folder(join(root, '.checkpoint.notes'), 'not ours');
    await recoverAtomicDir(target);
    expect((await readdir(root)).sort()).toEqual(['.best.4242.0badf00d.tmp', '.checkpoint.notes', 'checkpoint']);
    expect(await readFile(join(target, 'f'), 'utf8')).toBe('kept');
  });

  it('finishes a swap killed between its two renames: the complete new folder goes in place', async () => {
    const root = await tempDir();
    const target = join(root, 'checkpoint');
    await folder(join(root, '.checkpoint.4242.0badf00d.tmp'), 'new');
    await folder(join(root, '.checkpoint.4242.0badf00d.tmp.old'), 'previous');
    await recoverAtomicDir(target);
    expect(await readdir(root)).toEqual(['checkpoint']);
    expect(await readFile(join(target, 'f'), 'utf8')).toBe('new');
  });
});
