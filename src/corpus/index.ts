export type { Document, CorpusFormat, ColumnNames, CorpusReadOptions } from './types.js';
export { CORPUS_FORMATS, DEFAULT_COLUMNS, DEFAULT_MAX_DOC_CHARS } from './types.js';
export { readCorpus, loadCorpus, detectFormat } from './read.js';
export { writeCorpus } from './write.js';
export type { CorpusWriteOptions } from './write.js';
export { corpusStats } from './stats.js';
export type { CorpusStats } from './stats.js';
export { splitByAuthor } from './splitByAuthor.js';
export type { AuthorSplit } from './splitByAuthor.js';
