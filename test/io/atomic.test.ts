import { describe, expect, it } from 'vitest';
import { basename, dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { PRIVATE_FILE_MODE, assertCanWrite, assertCanWriteFile, commitOrAbort, fileSystemError, openAtomicWriteStream, prepareAtomicDir, recoverAtomicPath, writeFileAtomic, writeThroughTempPath } from '../../src/io/index.js';
import { UsageError } from '../../src/errors.js';
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

describe('recoverAtomicPath', () => {
  /** A folder with one file, as a killed writeDirAtomic leaves it. */
  const folder = async (path: string, content: string) => {
    await mkdir(path, { recursive: true });
    await writeFile(join(path, 'f'), content);
  };

  it('removes the temp folders of killed writes and keeps the folder and its neighbours', async () => {
    const root = await tempDir();
    const target = join(root, 'checkpoint');
    await folder(target, 'kept');
    await folder(join(root, '.checkpoint.999999942.0badf00d.tmp'), 'half');
    await folder(join(root, '.checkpoint.999999943.deadbeef.tmp.old'), 'older');
    await folder(join(root, '.best.999999942.0badf00d.tmp'), 'other target');
    await folder(join(root, '.checkpoint.notes'), 'not ours');
    await recoverAtomicPath(target);
    expect((await readdir(root)).sort()).toEqual(['.best.999999942.0badf00d.tmp', '.checkpoint.notes', 'checkpoint']);
    expect(await readFile(join(target, 'f'), 'utf8')).toBe('kept');
  });

  it('is done by every atomic writer before it writes: the temp of a killed writer goes, that of a running one stays', async () => {
    const root = await tempDir();
    const target = join(root, 'silver.jsonl');
    const killed = join(root, '.silver.jsonl.999999942.0badf00d.tmp');
    // The parent of this process runs: its temp may be a write in progress.
    const running = join(root, `.silver.jsonl.${process.ppid}.deadbeef.tmp`);
    await writeFile(killed, 'half an output');
    await writeFile(running, 'being written');
    const stream = await openAtomicWriteStream(target);
    await stream.write('whole\n');
    await stream.commit();
    expect((await readdir(root)).sort()).toEqual([`.silver.jsonl.${process.ppid}.deadbeef.tmp`, 'silver.jsonl']);
    await writeFile(killed, 'half again');
    await writeFileAtomic(target, 'again\n', { force: true });
    expect(existsSync(killed)).toBe(false);
    // A temp this host's writes name (host tag, then pid) goes when its process is gone; one another host
    // wrote on shared storage stays, whatever its pid: no process of that host can be seen from here.
    let tempName = '';
    await writeThroughTempPath(join(await tempDir(), 'probe.txt'), async (tmp) => {
      tempName = basename(dirname(tmp));
      await writeFile(tmp, 'x');
    });
    const [, ours, pid] = /^\.probe\.txt\.([0-9a-f]{8})-(\d+)\.[0-9a-f]{8}\.tmp$/.exec(tempName)!;
    expect(Number(pid)).toBe(process.pid);
    const otherHost = ours === '00000000' ? '11111111' : '00000000';
    await writeFile(join(root, `.silver.jsonl.${ours}-999999942.0badf00d.tmp`), 'killed here');
    await writeFile(join(root, `.silver.jsonl.${otherHost}-999999942.0badf00d.tmp`), 'another host');
    await writeFileAtomic(target, 'once more\n', { force: true });
    expect((await readdir(root)).sort()).toEqual([`.silver.jsonl.${otherHost}-999999942.0badf00d.tmp`, `.silver.jsonl.${process.ppid}.deadbeef.tmp`, 'silver.jsonl']);

    // An output missing beside a whole earlier version (a swap killed between its renames) is not brought
    // back over a user's deletion, and the version is left for them; the half-written temp still goes.
    const model = join(root, 'model');
    await folder(join(root, '.model.999999942.0badf00d.tmp.old'), 'previous');
    await folder(join(root, '.model.999999943.deadbeef.tmp'), 'half');
    const fresh = await prepareAtomicDir(model);
    await writeFile(join(fresh.tmpDir, 'f'), 'new');
    await fresh.commit();
    expect((await readdir(root)).filter((name) => name.includes('model')).sort()).toEqual(['.model.999999942.0badf00d.tmp.old', 'model']);
    expect(await readFile(join(model, 'f'), 'utf8')).toBe('new');
  });

  // A kill between commit's two renames leaves the complete new folder beside the old one: the swap is
  // finished. A swap that failed and could not put the old folder back leaves it alone: it goes back.
  for (const [what, temps, kept] of [
    ['finishes a swap killed between its two renames: the complete new folder goes in place', { '.checkpoint.999999942.0badf00d.tmp': 'new', '.checkpoint.999999942.0badf00d.tmp.old': 'previous' }, 'new'],
    ['puts the old folder back where the swap failed and its new folder is gone', { '.checkpoint.999999942.0badf00d.tmp.old': 'previous', '.checkpoint.999999943.deadbeef.tmp': 'half of another write' }, 'previous'],
  ] as const) {
    it(what, async () => {
      const root = await tempDir();
      const target = join(root, 'checkpoint');
      for (const [name, content] of Object.entries(temps)) await folder(join(root, name), content);
      await recoverAtomicPath(target, { restore: true });
      expect(await readdir(root)).toEqual(['checkpoint']);
      expect(await readFile(join(target, 'f'), 'utf8')).toBe(kept);
    });
  }
});

describe('output paths that cannot be written', () => {
  it('are one-line UsageErrors naming the path and the fix, checked before any write (ENOTDIR, EISDIR)', async () => {
    const root = await tempDir();
    const file = join(root, 'file');
    await writeFile(file, '');
    await expect(assertCanWrite(join(file, 'out.tsv'))).rejects.toThrow(new UsageError(`${join(file, 'out.tsv')}: part of the path is a file, not a folder; choose another path`));
    await expect(writeFileAtomic(join(file, 'a', 'b'), 'x')).rejects.toThrow(UsageError);
    const folder = join(root, 'folder');
    await mkdir(join(folder, 'inside'), { recursive: true });
    await expect(writeFileAtomic(folder, 'x', { force: true })).rejects.toThrow(/folder: is a folder where a file is needed; give a file name/);
    expect((await readdir(root)).sort()).toEqual(['file', 'folder']);
  });
});

describe('an output that is one file', () => {
  it('refuses a folder at its path before any work, --force or not, and a link to nowhere without --force', async () => {
    const dir = await tempDir();
    await expect(assertCanWriteFile(dir, true)).rejects.toThrow(new UsageError(`${dir}: is a folder where a file is needed; give a file name`));
    await expect(writeFileAtomic(dir, 'x', { force: true })).rejects.toThrow(/is a folder where a file is needed/);
    const link = join(dir, 'link.tsv');
    await symlink(join(dir, 'nowhere.tsv'), link);
    await expect(assertCanWriteFile(link)).rejects.toThrow(new UsageError(`${link} already exists; pass --force to replace it or choose another path`));
    await expect(assertCanWriteFile(link, true)).resolves.toBeUndefined();
  });
});

describe('writeThroughTempPath', () => {
  it('lets a path-taking writer write atomically with the mode asked, and cleans up on failure', async () => {
    const root = await tempDir();
    const path = join(root, 'pairs.parquet');
    await writeThroughTempPath(path, (tmp) => writeFile(tmp, 'PAR1'), { mode: PRIVATE_FILE_MODE });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await expect(writeThroughTempPath(path, (tmp) => writeFile(tmp, 'x'))).rejects.toThrow(/already exists; pass --force/);
    await expect(writeThroughTempPath(path, async () => Promise.reject(new Error('copy failed')), { force: true })).rejects.toThrow('copy failed');
    expect(await readdir(root)).toEqual(['pairs.parquet']);
    expect(await readFile(path, 'utf8')).toBe('PAR1');
  });
});

describe('fileSystemError', () => {
  it('maps errno codes to one line with the fix, and leaves other errors as they are', () => {
    const eacces = Object.assign(new Error("EACCES: permission denied, open '/x'"), { code: 'EACCES' });
    const mapped = fileSystemError(eacces, '/x', 'check --out');
    expect(mapped).toBeInstanceOf(UsageError);
    expect((mapped as UsageError).message).toBe('/x: permission denied; choose a path you may use, or change its permissions; check --out');
    const other = new Error('bug');
    expect(fileSystemError(other, '/x')).toBe(other);
  });
});

describe('openAtomicWriteStream', () => {
  it('writes chunks and renames the file into place on commit', async () => {
    const dir = await tempDir();
    const file = await openAtomicWriteStream(join(dir, 'out.jsonl'), { mode: PRIVATE_FILE_MODE });
    for (let i = 0; i < 3; i++) await file.write(`${'x'.repeat(1 << 16)}${i}\n`);
    await file.commit();
    expect(await readdir(dir)).toEqual(['out.jsonl']);
    expect((await readFile(join(dir, 'out.jsonl'), 'utf8')).split('\n').length).toBe(4);
  });
  it('rejects a write once the stream failed (a full disk) instead of waiting for a drain that never comes, and abort leaves nothing', async () => {
    const dir = await tempDir();
    const file = await openAtomicWriteStream(join(dir, 'out.jsonl'));
    file.stream.destroy(new Error('no space left'));
    await expect(file.write('x'.repeat(1 << 20))).rejects.toThrow();
    await file.abort();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('commitOrAbort', () => {
  it('commits what was filled, and on a failed fill aborts: the temp goes and the old file stays', async () => {
    const dir = await tempDir();
    const path = join(dir, 'out.jsonl');
    const written = await openAtomicWriteStream(path);
    expect(await commitOrAbort(written, async () => (await written.write('new\n'), 1))).toBe(1);
    expect(await readFile(path, 'utf8')).toBe('new\n');
    const failed = await openAtomicWriteStream(path, { force: true });
    await expect(
      commitOrAbort(failed, async () => {
        await failed.write('half');
        throw new Error('interrupted');
      }),
    ).rejects.toThrow('interrupted');
    expect(await readdir(dir)).toEqual(['out.jsonl']);
    expect(await readFile(path, 'utf8')).toBe('new\n');
  });
  it('aborts when the commit itself fails, and runs the fill alone when there is no target', async () => {
    const calls: string[] = [];
    const target = {
      commit: async () => {
        calls.push('commit');
        throw new Error('disk full');
      },
      abort: async () => void calls.push('abort'),
    };
    await expect(commitOrAbort(target, async () => calls.push('fill'))).rejects.toThrow('disk full');
    expect(calls).toEqual(['fill', 'commit', 'abort']);
    expect(await commitOrAbort(undefined, async () => 'done')).toBe('done');
  });
});
