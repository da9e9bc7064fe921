import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { FormatError, UsageError } from '../errors.js';
import { fileSystemError } from '../io/fsErrors.js';
import { readDelimited } from './csv.js';
import { readFolder } from './folder.js';
import { readJsonl } from './jsonl.js';
import { isHfDatasetFolder, readParquet } from './parquet.js';
import { CLI_CHOICES } from './columns.js';
import { CORPUS_FORMATS, type CorpusFormat, type CorpusReadOptions, type Document, type ReadChoices } from './types.js';
import { DocumentChecker, type RawRecord } from './validate.js';

/** The command that decompresses each kind, keeping the original. */
const DECOMPRESS: Record<string, string> = { '.gz': 'gunzip -k', '.bz2': 'bunzip2 -k', '.xz': 'unxz -k', '.zst': 'unzstd', '.zip': 'unzip' };

const EXTENSIONS: Record<string, CorpusFormat> = { '.csv': 'csv', '.tsv': 'tsv', '.tab': 'tsv', '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.parquet': 'parquet' };

/**
 * The format of `path`: the explicit one, else from the extension; a directory is `parquet` when it has
 * the Hugging Face datasets layout (`data/*.parquet`), else `folder`.
 */
export async function detectFormat(path: string, explicit?: CorpusFormat, choices: ReadChoices = CLI_CHOICES): Promise<CorpusFormat> {
  const info = await stat(path).catch((err: unknown) => {
    throw fileSystemError(err, path, 'check the corpus path');
  });
  if (explicit !== undefined) {
    if (!CORPUS_FORMATS.includes(explicit)) throw new UsageError(`unknown corpus format "${explicit}"; use one of ${CORPUS_FORMATS.join(', ')}`);
    // Parquet is a file or a dataset folder (data/train-*.parquet).
    if (explicit !== 'parquet' && (explicit === 'folder') !== info.isDirectory()) {
      throw new UsageError(`${path}: --format ${explicit} needs ${explicit === 'folder' ? 'a folder' : 'a file'}`);
    }
    return explicit;
  }
  if (info.isDirectory()) return (await isHfDatasetFolder(path)) ? 'parquet' : 'folder';
  const compressed = DECOMPRESS[extname(path).toLowerCase()];
  if (compressed !== undefined) throw new UsageError(`${path}: a compressed file; ppmlm reads corpora uncompressed: decompress it first (${compressed} ${basename(path)})`);
  const format = EXTENSIONS[extname(path).toLowerCase()];
  if (format === undefined) {
    const choice = choices.format === undefined ? '' : ` or set ${choices.format} ${CORPUS_FORMATS.join('|')}`;
    throw new UsageError(`${path}: cannot tell the corpus format from the extension "${extname(path)}"; rename it to .csv/.tsv/.jsonl/.parquet${choice}`);
  }
  return format;
}

/**
 * Streams the documents of a corpus file or folder. Every format gets the same checks (non-empty
 * text, bounded size, unique ids); a bad row throws a FormatError naming file:line, or with
 * `skipBadRows` is passed to `onBadRow` and skipped. A corpus without documents is a FormatError.
 *
 * @example
 * for await (const doc of readCorpus('notes.csv', { columns: { author: 'patient_id' } })) console.log(doc.id);
 */
export async function* readCorpus(path: string, options: CorpusReadOptions = {}): AsyncGenerator<Document> {
  const format = await detectFormat(path, options.format, options.choices);
  const onRowError = (err: FormatError) => {
    if (!options.skipBadRows) throw err;
    options.onBadRow?.(err);
  };
  const checker = new DocumentChecker(options.maxDocChars);
  const records = recordsOf(path, format, options, onRowError);
  let count = 0;
  try {
    for await (const record of records) {
      const problem = checker.check(record);
      if (problem !== undefined) {
        onRowError(problem);
        continue;
      }
      count++;
      yield record.doc;
    }
  } catch (err) {
    // An unreadable file (EACCES, EISDIR...) is the user's to fix, not an internal error.
    throw fileSystemError(err, (err as NodeJS.ErrnoException).path ?? path, 'check the corpus path and its permissions');
  }
  // Every command needs documents: an empty corpus would train 0 steps or write a blacklist that protects nothing.
  if (count === 0) throw new FormatError('the corpus has no documents (an empty file, a header row only, or every row skipped); give at least one document', { file: path });
}

function recordsOf(path: string, format: CorpusFormat, options: CorpusReadOptions, onRowError: (err: FormatError) => void): AsyncGenerator<RawRecord> {
  switch (format) {
    case 'folder':
      return readFolder(path);
    case 'jsonl':
      return readJsonl(path, options, onRowError);
    case 'parquet':
      return readParquet(path, options);
    default:
      return readDelimited(path, format === 'csv' ? ',' : '\t', options, onRowError);
  }
}

/** Reads a whole corpus into memory; for the commands that need random access (training splits). */
export async function loadCorpus(path: string, options: CorpusReadOptions = {}): Promise<Document[]> {
  const docs: Document[] = [];
  for await (const doc of readCorpus(path, options)) docs.push(doc);
  return docs;
}
