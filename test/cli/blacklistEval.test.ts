import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
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
    expect(table.stderr + table.stdout).not.toMatch(/quigley|thelma/i);
    const both = await cli('blacklist', 'eval', '--gold', file, '--only', 'direct', '--protection', 'occurrences');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give one of them/);
  });

  it('refuses a span outside its text, naming the file and line, with exit code 2', async () => {
    const dir = await tempDir();
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, JSON.stringify({ id: 'a', text: 'short', spans: [{ start: 2, end: 40, label: 'NAME' }] }) + '\n');
    const r = await cli('blacklist', 'eval', '--gold', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl:1: span \[2, 40\) is outside its document's text/);
  });
});
