import { describe, expect, it } from 'vitest';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { epochFolder, pruneEpochFolders } from '../../src/mlm/index.js';
import { tempDir } from '../helpers/tmp.js';

describe('pruneEpochFolders', () => {
  it('keeps the n most recent <out>.epoch-K folders and the best one, and ignores folders already gone', async () => {
    const dir = await tempDir();
    const out = join(dir, 'model');
    for (const k of [1, 2, 3, 4, 5]) await mkdir(epochFolder(out, k));
    await pruneEpochFolders(out, 5, 2, 2);
    expect((await readdir(dir)).sort()).toEqual(['model.epoch-2', 'model.epoch-4', 'model.epoch-5']);
    await mkdir(epochFolder(out, 6));
    await pruneEpochFolders(out, 6, 2);
    expect((await readdir(dir)).sort()).toEqual(['model.epoch-5', 'model.epoch-6']);
  });
});
