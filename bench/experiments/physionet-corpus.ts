/**
 * Writes the PhysioNet nursing notes as ppmlm corpora split by patient, for experiments:
 *   npx tsx bench/experiments/physionet-corpus.ts ../shared/data/physionet-deid OUT_DIR [MEMBER_PATIENTS]
 * members.jsonl (the notes of the first MEMBER_PATIENTS patients, default 30) and non-members.jsonl (the
 * rest); author = patient id.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const [dir = '../shared/data/physionet-deid', out = 'physionet-corpus', count = '30'] = process.argv.slice(2);
const raw = await readFile(join(dir, 'id.text'), 'utf8');
const notes = [...raw.matchAll(/START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\n([\s\S]*?)\|\|\|\|END_OF_RECORD/g)].map((m) => ({ id: `${m[1]}-${m[2]}`, author: `patient-${m[1]}`, text: m[3]!.trim() })).filter((d) => d.text.length > 0);
const patients = [...new Set(notes.map((n) => n.author))];
const members = new Set(patients.slice(0, Number(count)));
await mkdir(out, { recursive: true });
const lines = (keep: boolean) => notes.filter((n) => members.has(n.author) === keep).map((n) => JSON.stringify(n)).join('\n') + '\n';
await writeFile(join(out, 'members.jsonl'), lines(true));
await writeFile(join(out, 'non-members.jsonl'), lines(false));
console.log(`${notes.filter((n) => members.has(n.author)).length} member notes of ${members.size} patients, ${notes.filter((n) => !members.has(n.author)).length} non-member notes`);
