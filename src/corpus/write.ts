import { format as csvFormat } from 'fast-csv';
import { UsageError } from '../errors.js';
import { commitOrAbort, openAtomicWriteStream, PRIVATE_FILE_MODE, type WriteOptions } from '../io/atomic.js';
import type { Document } from './types.js';

export interface CorpusWriteOptions extends WriteOptions {
  format: 'csv' | 'tsv' | 'jsonl';
}

/**
 * Writes documents as CSV/TSV (header `id,author,text[,label]`) or JSONL, atomically, mode 0600 unless
 * `mode` says otherwise: a corpus is personal data until shown otherwise. Whatever this writes,
 * {@link readCorpus} reads back unchanged.
 */
export async function writeCorpus(path: string, docs: Iterable<Document> | AsyncIterable<Document>, options: CorpusWriteOptions): Promise<number> {
  const out = await openAtomicWriteStream(path, { ...options, mode: options.mode ?? PRIVATE_FILE_MODE });
  return commitOrAbort(out, async () => {
    let count = 0;
    if (options.format === 'jsonl') {
      for await (const doc of docs) {
        count++;
        await out.write(`${JSON.stringify(doc)}\n`);
      }
    } else {
      const rows: Document[] = [];
      for await (const doc of docs) rows.push(doc);
      const withLabel = rows.some((d) => d.label !== undefined);
      const headers = withLabel ? ['id', 'author', 'text', 'label'] : ['id', 'author', 'text'];
      const formatter = csvFormat({ headers, delimiter: options.format === 'tsv' ? '\t' : ',', quoteColumns: options.format === 'csv' });
      formatter.pipe(out.stream, { end: false });
      for (const doc of rows) {
        if (options.format === 'tsv' && /[\t\n\r]/.test(doc.text)) {
          throw new UsageError(`document ${count + 1} contains a tab or newline, which TSV cannot hold unquoted; write CSV or JSONL instead`);
        }
        count++;
        formatter.write(withLabel ? [doc.id, doc.author, doc.text, doc.label ?? ''] : [doc.id, doc.author, doc.text]);
      }
      await new Promise<void>((resolve, reject) => {
        formatter.once('end', resolve);
        formatter.once('error', reject);
        formatter.end();
      });
      out.stream.write('\n');
    }
    return count;
  });
}
