/** Builds a blacklist from an `author<TAB>text` file in a fresh process, so its peak RSS is its own. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { buildBlacklist } from '../../src/identifiers/index.js';
import type { Document } from '../../src/corpus/index.js';
import { peakRssMB } from '../peakRss.js';

const [path, engine] = process.argv.slice(2) as [string, 'counting' | 'graph' | 'duckdb'];
async function* docs(): AsyncGenerator<Document> {
  let i = 0;
  for await (const line of createInterface({ input: createReadStream(path) })) {
    const tab = line.indexOf('\t');
    yield { id: String(i++), author: line.slice(0, tab), text: line.slice(tab + 1) };
  }
}
const t0 = performance.now();
const r = await buildBlacklist(docs(), { k: 2, ngrams: [1, 3], allNgrams: true, recognizers: [], engine });
const seconds = (performance.now() - t0) / 1000;
await r.engine.close();
console.log(JSON.stringify({ seconds, tokens: r.stats.tokens, rare: r.stats.indirect, edges: r.stats.edges, maxRssMB: peakRssMB() }));
