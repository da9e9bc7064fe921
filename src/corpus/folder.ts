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
    const bytes = await readFile(file);
    // Valid UTF-8 is not text: a NUL byte marks a binary file that a .txt name hides.
    if (bytes.includes(0)) throw new FormatError('holds NUL bytes, so it is a binary file, not a document; remove it from the folder', { file, line: 1 });
    const text = decodeUtf8Strict(bytes, file);
    yield { doc: { id, author, text }, file, line: 1 };
  }
  if (count === 0) throw new FormatError(`no .txt files found; ${await otherData(root)}a folder corpus holds one .txt file per document (author = sub-folder)`, { file: root });
}

/** What a folder without .txt files holds that ppmlm reads otherwise: Parquet shards, a datasets Arrow folder. */
async function otherData(root: string): Promise<string> {
  const names = (await readdir(root, { recursive: true })).map(String);
  if (names.some((n) => n.endsWith('.parquet'))) return 'it holds Parquet files: give one of them as the corpus, or a dataset folder whose shards are data/train-*.parquet; ';
  if (names.some((n) => n.endsWith('.arrow'))) return 'it holds Arrow files (datasets save_to_disk), which ppmlm does not read: export the split with to_parquet; ';
  return '';
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
