import { describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { tempDir } from '../helpers/tmp.js';

// A rename that fails once, on the new folder's way into place, after the old one was moved aside.
const failing = vi.hoisted(() => ({ from: undefined as string | undefined }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...fs,
    rename: async (from: string, to: string) => {
      if (failing.from !== undefined && from === failing.from) {
        failing.from = undefined;
        throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      }
      return fs.rename(from, to);
    },
  };
});

const { prepareAtomicDir, commitOrAbort } = await import('../../src/io/atomic.js');

describe('a folder swap that fails between its two renames', () => {
  it('puts the old folder back, and the abort then leaves it as it was with no temp beside it', async () => {
    const root = await tempDir();
    const path = join(root, 'model');
    await mkdir(path);
    await writeFile(join(path, 'weights'), 'old');
    const target = await prepareAtomicDir(path, { force: true });
    await expect(
      commitOrAbort(target, async () => {
        await writeFile(join(target.tmpDir, 'weights'), 'new');
        failing.from = target.tmpDir;
      }),
    ).rejects.toThrow(/i\/o error|EIO/);
    expect(await readFile(join(path, 'weights'), 'utf8')).toBe('old');
    expect(await readdir(root)).toEqual(['model']);
  });
});
