/**
 * Writes the PhysioNet nursing notes as ppmlm corpora split by patient, for experiments:
 *   npx tsx bench/experiments/physionet-corpus.ts ../shared/data/physionet-deid OUT_DIR [MEMBERS] [NON_MEMBERS]
 * members.jsonl (the notes of the first MEMBERS patients, default 30), non-members.jsonl (the next
 * NON_MEMBERS patients, default all the rest) and public.jsonl (the remaining patients, for pretraining,
 * disjoint from both); all.jsonl holds every note, for the author–word statistics. author = patient id.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const [dir = '../shared/data/physionet-deid', out = 'physionet-corpus', memberCount = '30', nonMemberCount] = process.argv.slice(2);
const raw = await readFile(join(dir, 'id.text'), 'utf8');
const notes = [...raw.matchAll(/START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\n([\s\S]*?)\|\|\|\|END_OF_RECORD/g)].map((m) => ({ id: `${m[1]}-${m[2]}`, author: `patient-${m[1]}`, text: m[3]!.trim() })).filter((d) => d.text.length > 0);
const patients = [...new Set(notes.map((n) => n.author))];
const m = Number(memberCount);
const n = nonMemberCount === undefined ? patients.length - m : Number(nonMemberCount);
const part = new Map(patients.map((p, i) => [p, i < m ? 'members' : i < m + n ? 'non-members' : 'public']));
await mkdir(out, { recursive: true });
const write = async (name: string, docs: typeof notes) => {
  await writeFile(join(out, `${name}.jsonl`), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  return `${docs.length} ${name} notes`;
};
const counts = [];
for (const name of ['members', 'non-members', 'public']) counts.push(await write(name, notes.filter((d) => part.get(d.author) === name)));
await write('all', notes);
console.log(`${counts.join(', ')} (${m} member patients, ${n} non-member patients)`);
