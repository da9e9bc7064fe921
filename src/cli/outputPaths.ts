import { isAbsolute, relative, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * Refuses an output path that is one of the command's inputs, or another of its outputs: `--force` would
 * replace the very file being read (a corpus, a blacklist, a reviewer's marks), or one output the other.
 * Flags map to their paths; an absent flag is undefined.
 *
 * @example
 * assertOutputsApart({ '--in': options.in }, { '--out': options.out, '--spans-out': options.spansOut });
 */
export function assertOutputsApart(inputs: Record<string, string | undefined>, outputs: Record<string, string | undefined>): void {
  const given = (paths: Record<string, string | undefined>) => Object.entries(paths).filter((e): e is [string, string] => e[1] !== undefined);
  const seen = new Map(given(inputs).map(([flag, path]) => [resolve(path), { flag, input: true }]));
  for (const [flag, path] of given(outputs)) {
    const other = seen.get(resolve(path));
    if (other !== undefined) throw new UsageError(`${flag} ${path} is ${other.input ? 'the input' : 'the output'} ${other.flag} too; give ${flag} a path of its own`);
    seen.set(resolve(path), { flag, input: false });
  }
}

/** Whether `path` is `dir` or lies inside it (an output that would land in a folder that is shared). */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
