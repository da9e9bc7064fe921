/**
 * The Korean text an encoder is pretrained on (masked LM) before it learns de-identification, so that it
 * knows Korean beyond the judgments it is trained on (korean-cross-crime.sh with PRETRAIN=1):
 *   npx tsx bench/experiments/korean-pretraining-corpus.ts ../shared/data/kmou-ner/corpus_morph_ner JUDGMENTS.jsonl OUT.jsonl
 * KMOU-NER's raw sentences (news and encyclopaedia text; its tags are not read; each file one author) and
 * the surrogate-filled judgments of the crime type the model is trained on (`deid generate` output; each
 * judgment its author), never those it is measured on.
 */
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { readKmou } from './kmou.js';

const [kmouDir, judgmentsPath, out] = process.argv.slice(2);
if (kmouDir === undefined || judgmentsPath === undefined || out === undefined) {
  console.error('usage: korean-pretraining-corpus.ts KMOU_DIR JUDGMENTS.jsonl OUT.jsonl');
  process.exit(2);
}
const files = (await readdir(kmouDir)).filter((f) => f.endsWith('.txt')).sort();
const docs = (await readKmou(kmouDir, files)).map(({ raw, doc }) => ({ id: `kmou:${doc.id}`, author: `kmou:${doc.id.slice(0, doc.id.lastIndexOf(':'))}`, text: raw }));
const sentences = docs.length;
for (const line of (await readFile(judgmentsPath, 'utf8')).split('\n').filter(Boolean)) {
  const j = JSON.parse(line) as { id: string; source: string; text: string };
  docs.push({ id: `judgment:${j.id}`, author: `judgment:${j.source}`, text: j.text });
}
// The judgments' surrogates stand for personal data (mode 0600, as deid generate writes them), and the
// corpus is written whole or not at all: the recipe skips a corpus that exists.
await writeFile(`${out}.partial`, docs.map((d) => JSON.stringify(d)).join('\n') + '\n', { mode: 0o600 });
await rename(`${out}.partial`, out);
console.log(`${out}: ${sentences} KMOU-NER sentences, ${docs.length - sentences} judgments, ${docs.reduce((n, d) => n + d.text.length, 0)} characters`);
