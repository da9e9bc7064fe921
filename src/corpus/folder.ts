import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { FormatError } from '../errors.js';
import { decodeUtf8Strict } from '../io/utf8.js';
import type { RawRecord } from './validate.js';

/**
 * A folder of `.txt` files, one document each. The author is the first sub-folder under the root
 * (`notes/patient-7/2020-01-03.txt` → `patient-7`); files directly in the root are their own author.
 * The id is the path relative to the root without `.txt`. Files are visited in sorted order so runs
 * are reproducible.
 */
export async function* readFolder(root: string): AsyncGenerator<RawRecord> {
  let count = 0;
  for await (const file of walkTxt(root)) {
    count++;
    const rel = relative(root, file);
    const id = rel.slice(0, -'.txt'.length).split(sep).join('/');
    const parts = rel.split(sep);
    const author = parts.length > 1 ? parts[0]! : id;
    const text = decodeUtf8Strict(await readFile(file), file);
    yield { doc: { id, author, text }, file, line: 1 };
  }
  if (count === 0) throw new FormatError('no .txt files found; a folder corpus holds one .txt file per document (author = sub-folder)', { file: root });
}

async function* walkTxt(dir: string): AsyncGenerator<string> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkTxt(path);
    else if (entry.isFile() && entry.name.endsWith('.txt')) yield path;
  }
}
