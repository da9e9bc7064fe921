import { lstat, readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

/** What each file-system error means for the user, and the fix, by errno code. */
const MEANINGS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EEXIST: 'already exists; pass --force to replace it, or choose another path',
  ENOTDIR: 'part of the path is a file, not a folder; choose another path',
  EISDIR: 'is a folder where a file is needed; give a file name',
  EACCES: 'permission denied; choose a path you may use, or change its permissions',
  EPERM: 'operation not permitted; choose a path you may use, or change its permissions',
  EROFS: 'is on a read-only file system; choose another path',
  ENOSPC: 'no space left on the device; free some or choose another disk',
  ENAMETOOLONG: 'the path is too long; choose a shorter one',
};

/**
 * The one place that turns file-system errors on input or output paths into one-line UsageErrors naming
 * the path and the fix (instead of an internal error with a raw errno code). Errors of other kinds, and
 * codes without a known fix, are returned unchanged: they are bugs.
 *
 * @param hint appended after the meaning, e.g. 'check the --blacklist path'.
 * @example
 * await readFile(path).catch((err) => { throw fileSystemError(err, path, 'check --blacklist'); });
 */
export function fileSystemError(err: unknown, path: string, hint?: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const meaning = code === undefined ? undefined : MEANINGS[code];
  if (meaning === undefined) return err;
  return new UsageError(`${path}: ${meaning}${hint === undefined ? '' : `; ${hint}`}`, { cause: err });
}

/**
 * A file of a downloaded or saved folder, or undefined where there is none. A link to nothing (a download
 * cut short) or a folder in its place is an error, not an absent file: taking the next file instead would
 * read the folder as something else.
 */
export async function readOptionalFile(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && (await lstat(path).catch(() => undefined)) === undefined) return undefined;
    if (code === 'ENOENT') throw new UsageError(`${path}: a link to a file that is not there (a download cut short?); download or save the model again`, { cause: err });
    throw fileSystemError(err, path, 'give the model folder as saved (save_pretrained)');
  }
}
