/**
 * Writes the Korean judgments, filled with surrogates by `ppmlm deid generate`, as ppmlm corpora split by
 * judgment, for experiments:
 *   npx tsx bench/experiments/judgments-corpus.ts GENERATED.jsonl OUT_DIR [MEMBERS] [NON_MEMBERS]
 * The judgments are shuffled (seed 1) so that both crime types are in every part: members.jsonl (the first
 * MEMBERS, default 30), non-members.jsonl (the next NON_MEMBERS, default 450) and public.jsonl (the rest, for
 * the tokenizer and pretraining); all.jsonl holds every judgment, for the author–word statistics.
 * author = the judgment: each one is about one defendant.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Rng } from '../../src/engine/index.js';

const [generated, out = 'judgments-corpus', memberCount = '30', nonMemberCount = '450'] = process.argv.slice(2);
if (generated === undefined) throw new Error('usage: judgments-corpus.ts GENERATED.jsonl OUT_DIR [MEMBERS] [NON_MEMBERS]');
const docs = (await readFile(generated, 'utf8'))
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { id: string; source: string; text: string })
  .map((d) => ({ id: d.id, author: d.source, text: d.text }));
new Rng(1).shuffle(docs);
const [m, n] = [Number(memberCount), Number(nonMemberCount)];
await mkdir(out, { recursive: true });
const parts = { members: docs.slice(0, m), 'non-members': docs.slice(m, m + n), public: docs.slice(m + n), all: docs };
for (const [name, part] of Object.entries(parts)) await writeFile(join(out, `${name}.jsonl`), part.map((d) => JSON.stringify(d)).join('\n') + '\n');
console.log(`${m} member, ${n} non-member and ${docs.length - m - n} public judgments`);
