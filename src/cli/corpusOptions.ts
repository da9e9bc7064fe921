import type { Command } from 'commander';
import type { CorpusFormat, CorpusReadOptions } from '../corpus/index.js';
import type { FormatError } from '../errors.js';
import { parseIntFlag } from './parseFlags.js';

/** The flags every command that reads a corpus shares. */
export interface CorpusFlags {
  corpus: string;
  format?: CorpusFormat;
  textCol?: string;
  authorCol?: string;
  idCol?: string;
  labelCol?: string;
  skipBadRows?: boolean;
  maxDocChars?: string;
}

export function addCorpusOptions(cmd: Command, flag = '--corpus <path>', description = 'corpus: .csv, .tsv, .jsonl, .parquet, a Hugging Face dataset folder (data/train-*.parquet) or a folder of .txt files'): Command {
  return cmd
    .requiredOption(flag, description)
    .option('--format <format>', 'csv | tsv | jsonl | parquet | folder (default: from the extension; a folder with data/*.parquet is parquet)')
    .option('--text-col <name>', 'column/key holding the text (default: text)')
    .option('--author-col <name>', 'column/key of the individual (default: author; absent = each document its own author)')
    .option('--id-col <name>', 'column/key of the document id (default: id; absent = line number)')
    .option('--label-col <name>', 'column/key of a class label (default: label)')
    .option('--skip-bad-rows', 'skip malformed rows and count them instead of stopping')
    .option('--max-doc-chars <n>', 'longest document accepted', '10000000');
}

export function corpusReadOptions(flags: CorpusFlags, onBadRow?: (err: FormatError) => void): CorpusReadOptions {
  const options: CorpusReadOptions = {
    columns: { text: flags.textCol, author: flags.authorCol, id: flags.idCol, label: flags.labelCol },
    skipBadRows: flags.skipBadRows === true,
    maxDocChars: parseIntFlag(flags.maxDocChars ?? '10000000', '--max-doc-chars', { min: 1 }),
  };
  if (flags.format !== undefined) options.format = flags.format;
  if (onBadRow !== undefined) options.onBadRow = onBadRow;
  return options;
}
