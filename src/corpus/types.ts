/** One text of a corpus, written by one individual (patient, party, author). */
export interface Document {
  id: string;
  /** The individual the text is about or by: the node of the author-word graph. */
  author: string;
  text: string;
  label?: string;
}

export type CorpusFormat = 'csv' | 'tsv' | 'jsonl' | 'parquet' | 'folder';
export const CORPUS_FORMATS: readonly CorpusFormat[] = ['csv', 'tsv', 'jsonl', 'parquet', 'folder'];

/** Column (CSV/TSV/Parquet) or key (JSONL) names of the Document fields. */
export interface ColumnNames {
  text: string;
  author: string;
  id: string;
  label: string;
}

export const DEFAULT_COLUMNS: ColumnNames = { text: 'text', author: 'author', id: 'id', label: 'label' };

/** Default cap on one document's length: longer texts are almost always a parsing accident. */
export const DEFAULT_MAX_DOC_CHARS = 10_000_000;

/** What a reader's errors tell the user to set: a flag, a config key. */
export type ReadChoices = Partial<Record<keyof ColumnNames | 'format', string>>;

export interface CorpusReadOptions {
  /**
   * Inferred when absent: from the extension (.csv, .tsv, .jsonl/.ndjson, .parquet); a folder with Parquet
   * shards in `data/` (the Hugging Face datasets layout) is `parquet`, any other folder `folder`.
   */
  format?: CorpusFormat;
  /**
   * Column names. A name given here must exist; a default name that is missing is tolerated for
   * `id` (row number used), `author` (each document is its own author) and `label`.
   */
  columns?: Partial<ColumnNames>;
  /**
   * How the user chooses each column and the format where this corpus is read, named in errors (default
   * the CLI's `--text-col`, `--author-col`, `--id-col`, `--label-col` and `--format`); a setting left out
   * has nothing to name.
   */
  choices?: ReadChoices;
  /** Report and skip bad rows through `onBadRow` instead of failing on the first one. */
  skipBadRows?: boolean;
  onBadRow?: (error: import('../errors.js').FormatError) => void;
  maxDocChars?: number;
}
