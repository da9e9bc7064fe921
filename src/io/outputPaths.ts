import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../errors.js';

type Paths = Record<string, string | undefined>;

/**
 * Refuses an output path that `--force` would let destroy an input or another output: one that is an input
 * (the very corpus, model or blacklist being read), one that holds an input (an output folder replaced with
 * the file inside it), one inside an input folder (written into the corpus or model folder being read), or
 * one that is, holds or lies in another output. Paths are compared through links, as the file system
 * resolves them. Flags map to their paths; an absent flag is undefined.
 *
 * @example
 * await assertOutputsApart({ '--in': options.in }, { '--out': options.out, '--spans-out': options.spansOut });
 */
export async function assertOutputsApart(inputs: Paths, outputs: Paths): Promise<void> {
  const located = (paths: Paths) =>
    Promise.all(
      Object.entries(paths)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(async ([flag, path]) => ({ flag, path, real: await realPathOf(path), folder: await isFolder(path) })),
    );
  const ins = await located(inputs);
  const outs = await located(outputs);
  for (const [i, out] of outs.entries()) {
    for (const input of ins) {
      const what = `the input ${input.flag} ${input.path}`;
      if (out.real === input.real) throw new UsageError(`${out.flag} ${out.path} is the input ${input.flag} too; give ${out.flag} a path of its own`);
      if (isWithin(input.real, out.real)) throw new UsageError(`${out.flag} ${out.path} holds ${what}, which writing it would replace; give ${out.flag} a path outside it`);
      if (input.folder && isWithin(out.real, input.real)) throw new UsageError(`${out.flag} ${out.path} lies inside ${what}; give ${out.flag} a path outside that folder`);
    }
    for (const other of outs.slice(0, i)) {
      if (out.real === other.real) throw new UsageError(`${out.flag} ${out.path} is the output ${other.flag} too; give ${out.flag} a path of its own`);
      if (isWithin(out.real, other.real) || isWithin(other.real, out.real)) throw new UsageError(`${out.flag} ${out.path} and the output ${other.flag} ${other.path} lie one inside the other; give each a path of its own`);
    }
  }
}

/** The path with every link resolved, for a path that does not exist yet through its nearest existing folder. */
async function realPathOf(path: string): Promise<string> {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      return join(await realpath(at), ...missing.reverse());
    } catch {
      if (dirname(at) === at) return resolve(path);
      missing.push(basename(at));
    }
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

/** Whether `path` is `dir` or lies inside it (an output that would land in a folder that is shared). */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
