import { createWriteStream, existsSync, rmSync, type WriteStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, lstat, mkdir, readdir, rename, rm, stat, writeFile, chmod, open } from 'node:fs/promises';
import { dirname, basename, join, resolve } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { once } from 'node:events';
import { UsageError } from '../errors.js';
import { fileSystemError } from './fsErrors.js';

/** Files holding personal data (blacklists, audit reports, de-identification spans) get this mode. */
export const PRIVATE_FILE_MODE = 0o600;

export interface WriteOptions {
  /** Replace an existing file; without it an existing target is an error. */
  force?: boolean;
  /** File mode, e.g. {@link PRIVATE_FILE_MODE}; default 0o644. */
  mode?: number;
}

/** Whether anything is at `path`, a link that leads nowhere included: replacing it is overwriting too. */
const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/**
 * Throws a UsageError when `path` exists and `force` is not set, so nothing is overwritten by accident, or
 * when it could not be written: its nearest existing folder is a file or not writable. Commands call it
 * for every output before their long computations, so a bad path fails in a second, not after an hour.
 */
export async function assertCanWrite(path: string, force = false): Promise<void> {
  if (!force && (await exists(path))) throw new UsageError(`${path} already exists; pass --force to replace it or choose another path`);
  let dir = dirname(resolve(path));
  for (;;) {
    const info = await stat(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
      throw fileSystemError(err, path);
    });
    if (info !== undefined) {
      if (!info.isDirectory()) throw fileSystemError(Object.assign(new Error('not a folder'), { code: 'ENOTDIR' }), path);
      await access(dir, constants.W_OK).catch((err: unknown) => {
        throw fileSystemError(err, path);
      });
      return;
    }
    dir = dirname(dir);
  }
}

/**
 * {@link assertCanWrite} for an output that is one file: a folder at `path` is refused, `force` or not, as
 * a file never replaces a folder; said before the work, not when writing after it.
 */
export async function assertCanWriteFile(path: string, force = false): Promise<void> {
  if ((await stat(path).catch(() => undefined))?.isDirectory()) throw fileSystemError(Object.assign(new Error('a folder'), { code: 'EISDIR' }), path);
  await assertCanWrite(path, force);
}

/** Runs a write to `path`, turning file-system errors into UsageErrors that name it. */
async function writingTo<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw fileSystemError(err, path);
  }
}

/**
 * The machine a temp name says wrote it: 8 hex digits of its host name's hash. On storage several hosts
 * share, a process id says nothing of another host's processes, so only this host's temps are swept.
 */
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/** The temp paths this process made, for {@link removeOwnTemps}; one renamed into place is simply gone. */
const made = new Set<string>();

function tempPathFor(path: string): string {
  const tmp = join(dirname(path), `.${basename(path)}.${HOST}-${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // Those committed or aborted are gone from disk: forget them now and then, so a long run holds few.
  if (made.size >= 1000) for (const earlier of made) if (!existsSync(earlier)) made.delete(earlier);
  made.add(tmp);
  return tmp;
}

/**
 * Removes, synchronously, the temp files and folders of this process's writes still in progress: what a
 * command stopped by a signal (Ctrl-C, SIGTERM) calls before it exits, so that half an output, often
 * personal data, does not stay beside it until the next write of the same path. A folder whose swap has
 * begun (its `.old` beside it) is left for {@link recoverAtomicPath}: it may be the only whole copy.
 */
export function removeOwnTemps(): void {
  for (const tmp of made) {
    if (!existsSync(`${tmp}.old`)) rmSync(tmp, { recursive: true, force: true });
    made.delete(tmp);
  }
}

/** A temp name's writer: host (undefined in the names of versions before hosts were named) and process id. */
const TEMP_NAME = /^(?:([0-9a-f]{8})-)?(\d+)\.[0-9a-f]{8}\.tmp(\.old)?$/;

/** Whether `name` (in the folder of `path`) is a temp path {@link tempPathFor} made, or its `.old` (see {@link prepareAtomicDir}). */
const isTempOf = (path: string, name: string) => {
  const prefix = `.${basename(path)}.`;
  return name.startsWith(prefix) && TEMP_NAME.test(name.slice(prefix.length));
};

/** Creates the folders `path` goes in; those made for a private file are private too (0700), as no one else may list it. */
function makeParents(path: string, mode: number | undefined): Promise<unknown> {
  return writingTo(path, () => mkdir(dirname(path), { recursive: true, ...(mode === PRIVATE_FILE_MODE && { mode: 0o700 }) }));
}

/** Writes `data` to a temp file beside `path`, then renames it over `path`: readers never see half a file. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  await recoverAtomicPath(path);
  await assertCanWriteFile(path, options.force);
  await makeParents(path, options.mode);
  const tmp = tempPathFor(path);
  const mode = options.mode ?? 0o644;
  try {
    await writingTo(path, () => writeFile(tmp, data, { mode }));
    await moveIntoPlace(tmp, path, mode);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Atomic writes for writers that only take a path (DuckDB's `COPY … TO`): `write` gets a path inside a
 * fresh folder (mode 0700) beside `path`, so the half-written file is never readable by others whatever
 * mode the writer creates it with; it then gets `mode` and is renamed over `path` (same file system, so
 * atomic). On any error the temp folder is removed and an existing `path` is left as it was.
 *
 * @example
 * await writeThroughTempPath('pairs.parquet', (tmp) => db.run(`COPY t TO '${tmp}' (FORMAT parquet)`), { mode: PRIVATE_FILE_MODE });
 */
export async function writeThroughTempPath(path: string, write: (tmpPath: string) => Promise<void>, options: WriteOptions = {}): Promise<void> {
  await recoverAtomicPath(path);
  await assertCanWriteFile(path, options.force);
  const tmpDir = tempPathFor(path);
  await writingTo(path, () => mkdir(tmpDir, { recursive: true, mode: 0o700 }));
  const tmp = join(tmpDir, basename(path));
  try {
    await write(tmp);
    await moveIntoPlace(tmp, path, options.mode ?? 0o644);
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
}

/** Gives a finished temp file its mode, flushes it to disk and renames it over `path`. */
async function moveIntoPlace(tmp: string, path: string, mode: number): Promise<void> {
  await writingTo(path, async () => {
    // The process umask (or the writer) may have narrowed or widened the mode; personal data must be exactly what was asked.
    await chmod(tmp, mode);
    await syncFile(tmp);
    await rename(tmp, path);
  });
}

/** fsync of a file (opened 'r+') or a folder (opened 'r', which Linux allows for this). */
async function syncPath(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const syncFile = (path: string) => syncPath(path, 'r+');

/** fsync of every file below `dir`, then of its folders. */
async function syncTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const e of entries) if (e.isFile()) await syncFile(join(e.parentPath ?? e.path, e.name));
  for (const e of entries) if (e.isDirectory()) await syncPath(join(e.parentPath ?? e.path, e.name), 'r');
  await syncPath(dir, 'r');
}

/** A write stream to a temp file; `commit()` renames it into place, `abort()` removes it. */
export interface AtomicWriteStream extends AtomicTarget {
  stream: WriteStream;
  /** Writes a chunk, waiting while the stream's buffer is full; rejects when the stream fails (a full disk). */
  write(chunk: string): Promise<void>;
}

export async function openAtomicWriteStream(path: string, options: WriteOptions = {}): Promise<AtomicWriteStream> {
  await recoverAtomicPath(path);
  await assertCanWriteFile(path, options.force);
  await makeParents(path, options.mode);
  const tmp = tempPathFor(path);
  const mode = options.mode ?? 0o644;
  const stream = createWriteStream(tmp, { mode });
  const closed = new Promise<void>((resolve, reject) => {
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  // A failure before commit or abort awaits it would be an unhandled rejection, a crash (exit 1) instead of
  // the write's own error; they still see the rejection.
  closed.catch(() => undefined);
  return {
    stream,
    // `once` rejects on the stream's error: a failed stream emits no drain, and a wait for one would hang.
    async write(chunk) {
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    async commit() {
      stream.end();
      await writingTo(path, () => closed);
      await moveIntoPlace(tmp, path, mode);
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
export async function prepareAtomicDir(path: string, options: { force?: boolean } = {}): Promise<AtomicTarget & { tmpDir: string }> {
  await recoverAtomicPath(path);
  await assertCanWrite(path, options.force);
  const tmpDir = tempPathFor(path);
  await writingTo(path, () => mkdir(tmpDir, { recursive: true }));
  return {
    tmpDir,
    async commit() {
      const old = `${tmpDir}.old`;
      const replaced = await exists(path);
      // On disk before the swap, and the swap on disk before the old folder goes: otherwise a power loss
      // (not a kill) could leave an empty file in the new folder with the old one already removed.
      await writingTo(path, () => syncTree(tmpDir));
      await writingTo(path, async () => {
        if (replaced) await rename(path, old);
        try {
          await rename(tmpDir, path);
        } catch (err) {
          // The old folder goes back: abort then removes the new one, and `path` is as it was. Should that
          // fail too, the old folder stays aside, where recoverAtomicPath finds it; the first error is the news.
          if (replaced) await rename(old, path).catch(() => undefined);
          throw err;
        }
        await syncPath(dirname(path), 'r');
      });
      if (replaced) await rm(old, { recursive: true, force: true });
    },
    async abort() {
      await rm(tmpDir, { recursive: true, force: true });
    },
  };
}

/**
 * Cleans up after writes of `path` that were killed (a signal, SIGKILL, power loss): their temp files and
 * folders would otherwise stay beside it for good, holding half an output (private data, often). Only
 * temps of processes no longer running on this machine are touched: another run writing `path` now keeps
 * its own. Every atomic writer here calls it before it writes. With `restore` (a folder only its own run
 * writes, such as a checkpoint), a swap killed between the two renames of a folder's `commit()` is finished
 * first, and where the new folder is gone, the old one goes back; elsewhere a missing output stays missing,
 * as a user may have deleted it, and the whole versions such a swap left beside it stay for them.
 */
export async function recoverAtomicPath(path: string, options: { restore?: boolean } = {}): Promise<void> {
  const parent = dirname(path);
  const temps = (await readdir(parent).catch(() => [] as string[])).filter((name) => isTempOf(path, name) && !running(path, name));
  const olds = temps.filter((name) => name.endsWith('.old'));
  // Where a swap was killed between its renames, the complete new folder beside its old one (.old).
  const finished = olds.map((old) => old.slice(0, -'.old'.length)).filter((name) => temps.includes(name));
  let kept = new Set<string>();
  if (!(await exists(path))) {
    if (options.restore) {
      // The new folder where a swap was killed before it went in; else the old one, whose new one is gone
      // (a swap that failed and could not put it back).
      const complete = finished[0] ?? olds[0];
      if (complete !== undefined) await rename(join(parent, complete), path);
    } else kept = new Set([...olds, ...finished]); // whole versions of an output the user may have meant to delete: left for them
  }
  // A temp another user left (in a shared folder) is theirs to remove: it does not stop this write.
  for (const name of temps) if (!kept.has(name)) await rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
}

/**
 * Whether the writer a temp name of `path` carries ({@link tempPathFor}) may still run: this process, one
 * alive on this host, or any process of another host, which this one cannot see.
 */
function running(path: string, name: string): boolean {
  const [, host, id] = TEMP_NAME.exec(name.slice(`.${basename(path)}.`.length))!;
  if (host !== undefined && host !== HOST) return true;
  const pid = Number(id);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** An output written aside and swapped into place when whole: an {@link AtomicWriteStream} or a {@link prepareAtomicDir} folder. */
export interface AtomicTarget {
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Runs `fill`, then commits `target`; when either fails, aborts it (the temp goes, an existing output is
 * left as it was) and rethrows. An absent target (an optional output not asked for) only runs `fill`.
 */
export async function commitOrAbort<T>(target: AtomicTarget | undefined, fill: () => Promise<T>): Promise<T> {
  try {
    const result = await fill();
    await target?.commit();
    return result;
  } catch (err) {
    await target?.abort();
    throw err;
  }
}

/**
 * Fills a temp folder with `fill` and swaps it in as `path`; on any error the temp folder is removed and
 * an existing `path` is left as it was.
 */
export async function writeDirAtomic(path: string, fill: (tmpDir: string) => Promise<void>, options: { force?: boolean } = {}): Promise<void> {
  const target = await prepareAtomicDir(path, options);
  await commitOrAbort(target, () => fill(target.tmpDir));
}
