/**
 * Span documents a Korean de-identification model learns from when it should also know the organisations,
 * persons and places of news (korean-news-supervision.sh):
 *   npx tsx bench/experiments/korean-deid-news-corpus.ts KMOU_DIR FILES JUDGMENTS.jsonl OUT.jsonl
 * FILES 0 gives the judgments alone, the control.
 * The surrogate-filled judgments of the crime type the model is trained on (`deid generate` output, its
 * level-2 labels; each judgment its author), and KMOU-NER's first FILES files (those read for errors; the
 * rest stay untouched), their PER, LOC and ORG tags under the judgments' names for them (each file one
 * author). Never the judgments a model is measured on. `deid train --spans` splits by document, not by
 * author: a judgment's fillings fall on both sides of its dev split, which chooses the threshold.
 */
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { readKmou } from './kmou.js';

/** KMOU-NER's tags under the level-2 labels of Thunder-DeID; its other tags (dates, amounts, works) are not personal data in the judgments. */
const LABELS: Readonly<Record<string, string>> = { PER: 'PERSON_NAME', LOC: 'LOCATION', ORG: 'ORGANIZATION' };

const [kmouDir, fileCount, judgmentsPath, out] = process.argv.slice(2);
if (kmouDir === undefined || fileCount === undefined || judgmentsPath === undefined || out === undefined) {
  console.error('usage: korean-deid-news-corpus.ts KMOU_DIR FILES JUDGMENTS.jsonl OUT.jsonl');
  process.exit(2);
}
const count = Number(fileCount);
if (!Number.isInteger(count) || count < 0) {
  console.error(`FILES must be a whole number of KMOU-NER files (0 for the judgments alone), got "${fileCount}"`);
  process.exit(2);
}
const files = (await readdir(kmouDir)).filter((f) => f.endsWith('.txt')).sort().slice(0, count);
const docs: { id: string; author: string; text: string; spans: { start: number; end: number; label: string }[] }[] = [];
for (const line of (await readFile(judgmentsPath, 'utf8')).split('\n').filter(Boolean)) {
  const j = JSON.parse(line) as { id: string; source: string; text: string; spans: { start: number; end: number; level2: string }[] };
  docs.push({ id: `judgment:${j.id}`, author: `judgment:${j.source}`, text: j.text, spans: j.spans.map((s) => ({ start: s.start, end: s.end, label: s.level2 })) });
}
const judgments = docs.length;
for (const { doc } of await readKmou(kmouDir, files)) {
  // The tagged line with its tags taken out (kmou.ts): the text its spans are counted in.
  const spans = doc.spans.flatMap((s) => (LABELS[s.label] ? [{ ...s, label: LABELS[s.label]! }] : []));
  docs.push({ id: `kmou:${doc.id}`, author: `kmou:${doc.id.slice(0, doc.id.lastIndexOf(':'))}`, text: doc.text, spans });
}
// The judgments' surrogates stand for personal data (mode 0600, as deid generate writes them); written whole or not at all.
await writeFile(`${out}.partial`, docs.map((d) => JSON.stringify(d)).join('\n') + '\n', { mode: 0o600 });
await rename(`${out}.partial`, out);
console.log(`${out}: ${judgments} judgments, ${docs.length - judgments} KMOU-NER sentences from ${files.length} files`);
