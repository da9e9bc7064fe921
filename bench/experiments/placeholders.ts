/**
 * Gold spans that hold only a Korean court's placeholder (`B`, `RA`, `'C'`, `□□`): the court removed the
 * identifier before publishing, and `deid generate` fills only the types it has surrogate lists for
 * (Thunder-DeID's address lists are missing upstream). Such a span holds no personal data, so protecting it
 * protects nothing; the spans that hold text are what a blacklist can fail on. Run as a script, it writes a
 * span JSONL without them, for `blacklist eval`:
 *   npx tsx bench/experiments/placeholders.ts GOLD.jsonl OUT.jsonl
 */
import { pathToFileURL } from 'node:url';
import { readSpanCorpus, writeSpanJsonl, type SpanDocument } from '../../src/corpus/index.js';
import { COURT_PLACEHOLDER } from '../../src/identifiers/index.js';

/** The documents without their gold spans that hold only a placeholder. */
export function withoutPlaceholders(docs: readonly SpanDocument[]): SpanDocument[] {
  return docs.map((d) => ({ ...d, spans: d.spans.filter((s) => !COURT_PLACEHOLDER.test(d.text.slice(s.start, s.end))) }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [gold, out] = process.argv.slice(2);
  if (gold === undefined || out === undefined) {
    console.error('usage: placeholders.ts GOLD.jsonl OUT.jsonl');
    process.exit(2);
  }
  const docs = await readSpanCorpus(gold, 'jsonl');
  const kept = withoutPlaceholders(docs);
  await writeSpanJsonl(out, kept);
  const count = (ds: readonly SpanDocument[]) => ds.reduce((n, d) => n + d.spans.length, 0);
  console.log(`${out}: ${count(kept)} of ${count(docs)} gold spans hold text`);
}
