import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile, chmod, open } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../errors.js';

/** Files holding personal data (blacklists, audit reports, de-identification spans) get this mode. */
export const PRIVATE_FILE_MODE = 0o600;

export interface WriteOptions {
  /** Replace an existing file; without it an existing target is an error. */
  force?: boolean;
  /** File mode, e.g. {@link PRIVATE_FILE_MODE}; default 0o644. */
  mode?: number;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Throws a UsageError when `path` exists and `force` is not set, so nothing is overwritten by accident. */
export async function assertCanWrite(path: string, force = false): Promise<void> {
  if (force) return;
  if (await exists(path)) throw new UsageError(`${path} already exists; pass --force to replace it or choose another --out`);
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Whether `name` (in the folder of `path`) is a temp path {@link tempPathFor} made, or its `.old` (see {@link prepareAtomicDir}). */
const isTempOf = (path: string, name: string) => {
  const prefix = `.${basename(path)}.`;
  return name.startsWith(prefix) && /^\d+\.[0-9a-f]{8}\.tmp(\.old)?$/.test(name.slice(prefix.length));
};

/** Writes `data` to a temp file beside `path`, then renames it over `path`: readers never see half a file. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  await assertCanWrite(path, options.force);
  await mkdir(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  const mode = options.mode ?? 0o644;
  try {
    await writeFile(tmp, data, { mode });
    // The process umask may have narrowed the mode; personal data must be exactly what was asked.
    await chmod(tmp, mode);
    await syncFile(tmp);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A write stream to a temp file; `commit()` renames it into place, `abort()` removes it. */
export interface AtomicWriteStream {
  stream: WriteStream;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export async function openAtomicWriteStream(path: string, options: WriteOptions = {}): Promise<AtomicWriteStream> {
  await assertCanWrite(path, options.force);
  await mkdir(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  const mode = options.mode ?? 0o644;
  const stream = createWriteStream(tmp, { mode });
  const closed = new Promise<void>((resolve, reject) => {
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  return {
    stream,
    async commit() {
      stream.end();
      await closed;
      await chmod(tmp, mode);
      await syncFile(tmp);
      await rename(tmp, path);
    },
    async abort() {
      stream.destroy();
      await closed.catch(() => undefined);
      await rm(tmp, { force: true });
    },
  };
}

/**
 * Replaces a whole directory atomically: the caller fills `tmpDir`, then `commit()` swaps it in.
 * Used for model directories and checkpoints, which must never be seen half-written.
 */
export async function prepareAtomicDir(path: string, options: { force?: boolean } = {}): Promise<{ tmpDir: string; commit(): Promise<void>; abort(): Promise<void> }> {
  await assertCanWrite(path, options.force);
  await mkdir(dirname(path), { recursive: true });
  const tmpDir = tempPathFor(path);
  await mkdir(tmpDir, { recursive: true });
  return {
    tmpDir,
    async commit() {
      const old = `${tmpDir}.old`;
      const replaced = await exists(path);
      if (replaced) await rename(path, old);
      await rename(tmpDir, path);
      if (replaced) await rm(old, { recursive: true, force: true });
    },
    async abort() {
      await rm(tmpDir, { recursive: true, force: true });
    },
  };
}

/**
 * Cleans up after {@link writeDirAtomic} calls on `path` that were killed (SIGKILL, power loss): their temp
 * folders would otherwise stay beside it for good. A kill between the two renames of `commit()` left `path`
 * moved aside and the complete new folder not yet in place; that swap is finished first. Call it when no
 * other process writes `path`, e.g. when a run that owns the folder starts.
 */
export async function recoverAtomicDir(path: string): Promise<void> {
  const parent = dirname(path);
  const temps = (await readdir(parent).catch(() => [] as string[])).filter((name) => isTempOf(path, name));
  if (!(await exists(path))) {
    for (const old of temps.filter((name) => name.endsWith('.old'))) {
      const complete = join(parent, old.slice(0, -'.old'.length));
      if (await exists(complete)) {
        await rename(complete, path);
        break;
      }
    }
  }
  for (const name of temps) await rm(join(parent, name), { recursive: true, force: true });
}

/**
 * Fills a temp folder with `fill` and swaps it in as `path`; on any error the temp folder is removed and
 * an existing `path` is left as it was.
 */
export async function writeDirAtomic(path: string, fill: (tmpDir: string) => Promise<void>, options: { force?: boolean } = {}): Promise<void> {
  const target = await prepareAtomicDir(path, options);
  try {
    await fill(target.tmpDir);
    await target.commit();
  } catch (err) {
    await target.abort();
    throw err;
  }
}
