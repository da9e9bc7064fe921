import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const gold = [
  { id: 'n1', author: 'p1', text: 'Seen by Dr. Quigley on 3/12 at Holy Cross Hospital.', spans: [{ start: 12, end: 19, label: 'HCPName' }, { start: 23, end: 27, label: 'Date' }, { start: 31, end: 41, label: 'Location' }] },
  { id: 'n2', author: 'p2', text: 'Daughter Thelma called; the patient rested well.', spans: [{ start: 9, end: 15, label: 'RelativeProxyName' }] },
];

describe('ppmlm blacklist eval', () => {
  it('measures a fresh default build against JSONL gold, as a table and as JSON', async () => {
    const dir = await tempDir();
    const file = join(dir, 'gold.jsonl');
    await writeFile(file, gold.map((g) => JSON.stringify(g)).join('\n') + '\n');
    const json = await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--only', 'direct', '--json');
    expect(json.code, json.stderr).toBe(0);
    const e = JSON.parse(json.stdout);
    expect(e).toMatchObject({ format: 'jsonl', only: 'direct', documents: 2, individuals: 2 });
    const all = e.types.find((t: { type: string }) => t.type === 'all');
    expect(all.gold).toBe(4);
    expect(all.full.value).toBe(1);
    expect(all.full.interval[0]).toBeLessThan(1);
    const table = await cli('blacklist', 'eval', '--gold', file);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/\| PERSON \| 2 \| 100\.0% \[/);
    expect(table.stdout).toMatch(/other text protected: .* word characters outside gold spans/);
    // ... and by what protects it: here the words only one patient wrote.
    expect(table.stdout).toMatch(/\n  by indirect terms: [1-9][\d.]*% \[/);
    expect(table.stderr + table.stdout).not.toMatch(/quigley|thelma/i);
    const both = await cli('blacklist', 'eval', '--gold', file, '--only', 'direct', '--protection', 'occurrences');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give one of them/);
  });

  it('writes the gold spans it misses as span JSONL (mode 0600) that --gold reads again, never over a file without --force', async () => {
    const dir = await tempDir();
    const file = join(dir, 'gold.jsonl');
    // A name no list or rule knows, in a document beside one whose identifiers are all found.
    // The second span is protected in part only (3/12 is found, the word after it no one knows): written whole.
    const unknown = { id: 'n3', author: 'p3', text: 'On 3/12 the patient rested; zqxwv ate well.', spans: [{ start: 0, end: 7, label: 'Date' }, { start: 28, end: 33, label: 'PatientName' }] };
    await writeFile(file, [...gold, unknown].map((g) => JSON.stringify(g)).join('\n') + '\n');
    const misses = join(dir, 'misses.jsonl');
    const r = await cli('blacklist', 'eval', '--gold', file, '--only', 'direct', '--misses', misses, '--json');
    expect(r.code, r.stderr).toBe(0);
    const all = JSON.parse(r.stdout).types.find((t: { type: string }) => t.type === 'all');
    expect((await stat(misses)).mode & 0o777).toBe(0o600);
    const written = (await readFile(misses, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    // Only the document with a miss, with only its missed span: as many spans as the figure misses.
    expect(written).toEqual([{ id: 'n3', author: 'p3', text: unknown.text, spans: unknown.spans }]);
    expect(Math.round(all.gold * (1 - all.full.value))).toBe(2);
    expect(Math.round(all.gold * (1 - all.anyOverlap.value))).toBe(1);
    expect(r.stderr).toMatch(/wrote 2 gold spans not fully protected, in 1 documents/);
    expect(r.stderr + r.stdout).not.toMatch(/zqxwv/i);
    const again = await cli('--quiet', 'blacklist', 'eval', '--gold', misses, '--only', 'direct', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).types.find((t: { type: string }) => t.type === 'all')).toMatchObject({ gold: 2, full: { value: 0 } });
    const before = await readFile(misses, 'utf8');
    const kept = await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--misses', misses);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toMatch(/already exists; pass --force to replace it or choose another path/);
    expect(await readFile(misses, 'utf8')).toBe(before);
    await writeFile(misses, 'stale\n');
    expect((await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--only', 'direct', '--misses', misses, '--force')).code).toBe(0);
    expect(await readFile(misses, 'utf8')).toBe(before);
    // Never the gold file itself, even with --force.
    const itself = await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--misses', file, '--force');
    expect(itself.code).toBe(2);
    expect(itself.stderr).toBe(`ppmlm: --misses ${file} is the input --gold too; give --misses a path of its own\n`);
  });

  it('reads CoNLL gold, reports raw labels with --by label, and measures occurrence-level protection', async () => {
    const dir = await tempDir();
    const file = join(dir, 'gold.conll');
    await writeFile(file, 'Seen\tO\nby\tO\nDr.\tO\nZyxwabc\tB-person\nin\tO\nBaltimore\tB-location\n\nzyxwabc\tB-person\ncalled\tO\n');
    const byLabel = JSON.parse((await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--by', 'label', '--json')).stdout);
    expect(byLabel.format).toBe('conll');
    expect(byLabel.types.map((t: { type: string; gold: number }) => `${t.type}:${t.gold}`)).toEqual(['location:1', 'person:2', 'all:3']);
    // Terms: a name no list holds, found after "Dr.", is protected in the second sentence too (written
    // there in lower case, where no rule finds it); occurrences: only where found.
    const terms = JSON.parse((await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--only', 'direct', '--json')).stdout);
    const occurrences = JSON.parse((await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--protection', 'occurrences', '--recognizers', 'places,names', '--json')).stdout);
    const person = (e: { types: { type: string; full: { value: number } }[] }) => e.types.find((t) => t.type === 'PERSON')!.full.value;
    expect(person(terms)).toBe(1);
    expect(occurrences.protection).toBe('occurrences');
    expect(person(occurrences)).toBe(0.5);
  });

  it('reads a CoNLL article as one document, so that a surname alone sentences after the full name is found', async () => {
    const dir = await tempDir();
    const file = join(dir, 'news.conll');
    const tokens = (words: string) => words.split(' ').map((w) => (w.includes('/') ? w.replace('/', '\t') : `${w}\tO`)).join('\n');
    await writeFile(file, ['-DOCSTART- -X- O', '', tokens('Gordon/B-PER Brown/I-PER met the press .'), '', tokens('Brown/B-PER said no .'), '', '-DOCSTART- -X- O', '', tokens('The brown dog ran .'), ''].join('\n'));
    const e = JSON.parse((await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--only', 'direct', '--json')).stdout);
    expect(e.documents).toBe(2);
    expect(e.types.find((t: { type: string }) => t.type === 'PERSON')).toMatchObject({ gold: 2, full: { value: 1 } });
  });

  it('measures protection from each individual\'s own text, with a public reference corpus that widens the known words', async () => {
    const dir = await tempDir();
    const file = join(dir, 'gold.jsonl');
    const docs = [
      { id: 'a1', author: 'a', text: 'Seen by Dr. Quigley today for zorblat.', spans: [{ start: 12, end: 19, label: 'HCPName' }] },
      { id: 'b1', author: 'b', text: 'Quigley called back about the zorblat.', spans: [{ start: 0, end: 7, label: 'HCPName' }] },
    ];
    await writeFile(file, docs.map((g) => JSON.stringify(g)).join('\n') + '\n');
    // A public corpus whose text sits in a column of another name.
    const reference = join(dir, 'public.csv');
    await writeFile(reference, 'author,abstract\nr0,the zorblat was given\nr1,a zorblat again\n');
    const other = (e: { otherTextProtected: { value: number } }) => e.otherTextProtected.value;
    const plain = await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--protection', 'own-text', '--json');
    expect(plain.code, plain.stderr).toBe(0);
    const e = JSON.parse(plain.stdout);
    expect(e).toMatchObject({ protection: 'own-text', reference: 'scowl-70', blacklist: null });
    expect(e.types.find((t: { type: string }) => t.type === 'PERSON').full.value).toBe(1);
    const widened = JSON.parse((await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--protection', 'own-text', '--reference-corpus', reference, '--reference-text-col', 'abstract', '--json')).stdout);
    expect(widened.reference).toMatch(/^scowl-70\+corpus:[0-9a-f]{16}\/k=2$/);
    // `zorblat`, unknown to English, is public once two individuals of the reference used it.
    expect(other(widened)).toBeLessThan(other(e));
    const mixed = await cli('blacklist', 'eval', '--gold', file, '--protection', 'own-text', '--only', 'direct');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--protection own-text computes each individual's protection from their own text: drop --blacklist and --only/);
    const stray = await cli('blacklist', 'eval', '--gold', file, '--reference-corpus', reference);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/--reference-corpus is the public reference of --protection own-text/);
  });

  it('reads a PhysioNet folder and Presidio JSON by their paths, each patient or sentence an individual', async () => {
    const dir = await tempDir();
    const physionet = join(dir, 'physionet');
    await mkdir(physionet);
    await writeFile(join(physionet, 'id.text'), 'START_OF_RECORD=1||||1||||\nPT SEEN BY DR QUIGLEY 7/22\n||||END_OF_RECORD\nSTART_OF_RECORD=2||||1||||\nwife Thelma called\n||||END_OF_RECORD\n');
    await writeFile(join(physionet, 'id-phi.phrase'), '1 1 14 21 HCPName QUIGLEY\n1 1 22 26 Date 7/22\n2 1 5 11 RelativeProxyName Thelma\n');
    const p = JSON.parse((await cli('--quiet', 'blacklist', 'eval', '--gold', physionet, '--only', 'direct', '--json')).stdout);
    expect(p).toMatchObject({ format: 'physionet', documents: 2, individuals: 2 });
    expect(p.types.find((t: { type: string }) => t.type === 'all')).toMatchObject({ gold: 3, full: { value: 1 } });
    const presidio = join(dir, 'synth.json');
    await writeFile(presidio, JSON.stringify([{ full_text: 'Call Dr. Quigley in Baltimore', spans: [{ entity_type: 'PERSON', start_position: 9, end_position: 16 }, { entity_type: 'GPE', start_position: 20, end_position: 29 }] }]));
    const q = JSON.parse((await cli('--quiet', 'blacklist', 'eval', '--gold', presidio, '--only', 'direct', '--json')).stdout);
    expect(q.format).toBe('presidio');
    expect(q.types.map((t: { type: string; gold: number }) => `${t.type}:${t.gold}`)).toEqual(['LOCATION:1', 'PERSON:1', 'all:2']);
  });

  it('refuses a span outside its text, naming the file and line, with exit code 2', async () => {
    const dir = await tempDir();
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, JSON.stringify({ id: 'a', text: 'short', spans: [{ start: 2, end: 40, label: 'NAME' }] }) + '\n');
    const r = await cli('blacklist', 'eval', '--gold', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl:1: span \[2, 40\) is outside its document's text/);
  });
  it('reads a PhysioNet file given as --gold from its folder, and refuses a corpus given as --blacklist', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'id.text'), 'START_OF_RECORD=1||||1||||\nSeen by Dr Okonkwo today.\n||||END_OF_RECORD\n');
    await writeFile(join(dir, 'id-phi.phrase'), '1 1 11 18 HCPName Okonkwo\n');
    const r = await cli('--quiet', 'blacklist', 'eval', '--gold', join(dir, 'id-phi.phrase'), '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'physionet', documents: 1, types: [{ type: 'PERSON', gold: 1 }, { type: 'all', gold: 1 }] });
    const gold = join(dir, 'gold.jsonl');
    await writeFile(gold, JSON.stringify({ id: 'a', text: 'John Smith', spans: [] }) + '\n');
    // A PhysioNet gold is a folder: nothing is written inside it, said before the gold is read.
    const into = await cli('blacklist', 'eval', '--gold', dir, '--misses', join(dir, 'id.text'), '--force');
    expect(into.stderr).toBe(`ppmlm: --misses ${join(dir, 'id.text')} lies inside the input --gold ${dir}; give --misses a path outside that folder\n`);
    const b = await cli('blacklist', 'eval', '--gold', gold, '--blacklist', gold);
    expect(b.code).toBe(2);
    expect(b.stderr).toBe(`ppmlm: ${gold}:1: a JSON object where a term should be: a blacklist is a ppmlm blacklist TSV or one term a line, not a corpus or gold file\n`);
  });

  it('adds the bundled public NER model by name as a recogniser', async () => {
    const dir = await tempDir();
    const file = join(dir, 'tweets.jsonl');
    const tweets = [
      { id: 't1', author: 'u1', text: 'i love justin bieber so much', spans: [{ start: 7, end: 20, label: 'person' }] },
      { id: 't2', author: 'u2', text: 'lol my mom is so funny', spans: [] },
    ];
    await writeFile(file, tweets.map((t) => JSON.stringify(t)).join('\n') + '\n');
    const person = async (...flags: string[]) => {
      const r = await cli('--quiet', 'blacklist', 'eval', '--gold', file, '--only', 'direct', '--json', ...flags);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).types.find((t: { type: string }) => t.type === 'PERSON').full.value as number;
    };
    expect(await person('--recognizers', 'none')).toBe(0);
    expect(await person('--recognizers', 'none', '--deid-model', 'public-ner-en')).toBe(1);
  });
});
