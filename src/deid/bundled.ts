import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The models that install with ppmlm (the package's `models/` folder), by name; each folder's README.md gives its data, recipe and licence. */
export const BUNDLED_MODELS: readonly string[] = ['public-ner-en'];

/**
 * The folder of a model named on the command line: a user's own folder of a bundled model's name in
 * `cwd` (resolved against it), else the bundled model of that name (`public-ner-en`), else the path as given.
 */
export function resolveModelDir(nameOrDir: string, cwd = process.cwd()): string {
  if (BUNDLED_MODELS.includes(nameOrDir) && existsSync(resolve(cwd, nameOrDir))) return resolve(cwd, nameOrDir);
  if (BUNDLED_MODELS.includes(nameOrDir)) return fileURLToPath(new URL(`../../models/${nameOrDir}`, import.meta.url));
  return nameOrDir;
}
