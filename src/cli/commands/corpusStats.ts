import { corpusStats, readCorpus } from '../../corpus/index.js';
import { corpusReadOptions, type CorpusFlags } from '../corpusOptions.js';
import type { Reporter } from '../reporter.js';

export interface CorpusStatsOptions extends CorpusFlags {
  json?: boolean;
}

/** `ppmlm corpus stats`: documents, authors, characters and the documents-per-author histogram. */
export async function corpusStatsCommand(options: CorpusStatsOptions, out: Reporter): Promise<void> {
  let skipped = 0;
  const read = corpusReadOptions(options, (err) => {
    skipped++;
    out.warn(`skipped ${err.located}`);
  });
  const stats = await corpusStats(readCorpus(options.corpus, read), () => skipped);
  if (options.json) return out.json(stats);
  const width = Math.max(...Object.values(stats.documentsPerAuthor), 1);
  const lines = [
    `documents   ${stats.documents}`,
    `authors     ${stats.authors}`,
    `characters  ${stats.characters}  (mean ${stats.documents ? Math.round(stats.characters / stats.documents) : 0} per document)`,
    ...(stats.skipped > 0 ? [`skipped     ${stats.skipped} bad rows`] : []),
    'documents per author:',
    ...Object.entries(stats.documentsPerAuthor).map(([bucket, n]) => `  ${bucket.padStart(6)}  ${String(n).padStart(7)}  ${'#'.repeat(Math.round((n / width) * 40))}`),
  ];
  const labels = Object.entries(stats.labels);
  if (labels.length > 0) lines.push('labels:', ...labels.map(([label, n]) => `  ${label}: ${n}`));
  out.result(lines.join('\n'));
}
