/**
 * Checks that every raw label of the Thunder-DeID judgments resolves in ppmlm's taxonomy (through the
 * dataset's replace_map.json and category tree), and prints the mention counts per level-2 category:
 *   npx tsx bench/experiments/deid-labels.ts ../shared/data/thunder-deid
 */
import { join } from 'node:path';
import { LabelResolver, TAXONOMY, readAnnotatedFolder, readDatasetLabels } from '../../src/deid/index.js';

const root = process.argv[2] ?? '../shared/data/thunder-deid';
const resolver = new LabelResolver(TAXONOMY, await readDatasetLabels(join(root, 'replacement'), join(root, 'replace_map.json')));
const docs = await readAnnotatedFolder(join(root, 'judgments'), (err) => console.error(`skipped ${err.located}`));
const byCategory = new Map<string, number>();
const unknown = new Map<string, number>();
let mentions = 0;
for (const doc of docs) {
  for (const seg of doc.segments) {
    if (typeof seg === 'string') continue;
    mentions++;
    try {
      const p = resolver.resolve(seg.label);
      byCategory.set(`${p.level1}/${p.level2}`, (byCategory.get(`${p.level1}/${p.level2}`) ?? 0) + 1);
    } catch {
      unknown.set(seg.label, (unknown.get(seg.label) ?? 0) + 1);
    }
  }
}
console.log(`${docs.length} judgments, ${mentions} mentions, ${unknown.size} unresolved labels (${[...unknown.values()].reduce((a, b) => a + b, 0)} mentions)`);
console.log([...byCategory].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c}: ${n}`).join('\n'));
if (unknown.size > 0) console.log('unresolved:', [...unknown].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([l, n]) => `${l} ${n}`).join(', '));
