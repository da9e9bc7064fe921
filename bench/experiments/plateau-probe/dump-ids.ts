/**
 * Token ids of a JSONL corpus ({"text": ...} per line) as little-endian int32, documents separated by -1,
 * for probe.py:  npx tsx bench/experiments/plateau-probe/dump-ids.ts TOKENIZER_DIR CORPUS.jsonl OUT.i32
 */
import { readFile, writeFile } from 'node:fs/promises';
import { loadTokenizer } from '../../../src/tokenizer/index.js';

const [tokenizerDir, corpus, out] = process.argv.slice(2) as [string, string, string];
const tokenizer = await loadTokenizer(tokenizerDir);
const ids: number[] = [];
for (const line of (await readFile(corpus, 'utf8')).split('\n')) {
  if (line.trim()) ids.push(...tokenizer.tokenize((JSON.parse(line) as { text: string }).text).ids, -1);
}
await writeFile(out, new Uint8Array(Int32Array.from(ids).buffer));
console.log(`${ids.length} ids (vocabulary ${tokenizer.vocabSize}) -> ${out}`);
