import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { readSpanCorpus } from '../../src/deid/index.js';
import { Rng } from '../../src/engine/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir, tempFile } from '../helpers/tmp.js';

/** Synthetic English notes with gold PHI spans. */
function phiNotes(n: number, seed: number): string {
  const rng = new Rng(seed);
  const names = ['Alice Whitfield', 'Bruno Okonkwo', 'Clara Lindqvist', 'Dmitri Barros', 'Elena Haldane', 'Farid Szabo', 'Grace Tanaka', 'Hiro Zeller'];
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const parts: [string, string | null][] = [
      ['Patient ', null],
      [rng.pick(names), 'PTName'],
      [' seen on ', null],
      [`${1 + rng.int(12)}/${1 + rng.int(28)}`, 'Date'],
      [rng.pick([' by Dr. ', ' with Dr. ']), null],
      [rng.pick(['Ashworth', 'Bellamy', 'Carrow']), 'HCPName'],
      ['. Call ', null],
      [`(${200 + rng.int(700)}) 555-${String(rng.int(10000)).padStart(4, '0')}`, 'Phone'],
      [rng.pick([' if pain returns.', ' for results.', ' tomorrow.']), null],
    ];
    let text = '';
    const spans: { start: number; end: number; label: string }[] = [];
    for (const [s, label] of parts) {
      if (label) spans.push({ start: text.length, end: text.length + s.length, label });
      text += s;
    }
    rows.push(JSON.stringify({ id: `n${i}`, text, spans }));
  }
  return `${rows.join('\n')}\n`;
}

describe('span-annotated corpora', () => {
  it('reads ppmlm JSONL, Presidio JSON and PhysioNet folders, and names bad spans', async () => {
    expect((await readSpanCorpus(await tempFile('a.jsonl', phiNotes(3, 1)), 'jsonl')).map((d) => d.spans.length)).toEqual([4, 4, 4]);
    const presidio = await tempFile('p.json', JSON.stringify([{ full_text: 'Call Bob at 555', spans: [{ entity_type: 'PERSON', start_position: 5, end_position: 8 }] }]));
    expect(await readSpanCorpus(presidio, 'presidio')).toEqual([{ id: '0', author: '0', text: 'Call Bob at 555', spans: [{ start: 5, end: 8, label: 'PERSON' }] }]);
    const dir = await tempDir();
    await writeFile(join(dir, 'id.text'), 'START_OF_RECORD=1||||1||||\nPT SEEN BY DR SMITH 7/22\n||||END_OF_RECORD\n');
    await writeFile(join(dir, 'id-phi.phrase'), '1 1 14 19 HCPName SMITH\n1 1 20 24 Date 7/22\n');
    const physionet = await readSpanCorpus(dir, 'physionet');
    expect(physionet[0]!.spans.map((s) => physionet[0]!.text.slice(s.start, s.end))).toEqual(['SMITH', '7/22']);
    const bad = await tempFile('b.jsonl', '{"text": "abc", "spans": [{"start": 2, "end": 9, "label": "X"}]}\n');
    await expect(readSpanCorpus(bad, 'jsonl')).rejects.toMatchObject({ line: 1, message: expect.stringMatching(/span \[2, 9\) is outside its document's text/) });
    // The corpus JSONL reader: blank lines counted, the position named, the text not quoted.
    const broken = await tempFile('c.jsonl', '{"text": "ok", "spans": []}\n\n{"text": "Alice Whitfield", spans: []}\n');
    await expect(readSpanCorpus(broken, 'jsonl')).rejects.toMatchObject({ located: `${broken}:3: not valid JSON at column 29; each line must be one JSON object` });
    await expect(readSpanCorpus(join(dir, 'missing.jsonl'), 'jsonl')).rejects.toThrow(/missing\.jsonl: no such file or folder; check the path of the span JSONL file/);
    await mkdir(join(dir, 'empty'));
    await expect(readSpanCorpus(join(dir, 'empty'), 'physionet')).rejects.toThrow(/empty\/id\.text: no such file or folder; a PhysioNet deid folder holds id\.text and id-phi\.phrase/);
  });

  it('trains and evaluates an English PHI tagger with deid train/eval --spans', async () => {
    const dir = await tempDir();
    const spans = join(dir, 'phi.jsonl');
    await writeFile(spans, phiNotes(200, 2));
    const model = join(dir, 'phi');
    const t = await cli('--quiet', 'deid', 'train', '--spans', spans, '--epochs', '4', '--hidden', '32', '--layers', '1', '--vocab-size', '300', '--lr', '3e-3', '--seq-len', '48', '--out', model, '--json');
    expect(t.code, t.stderr).toBe(0);
    expect(JSON.parse(t.stdout)).toMatchObject({ labels: 4 });
    // The model reads the windows it was trained on, recorded in ppmlm.json, unless --seq-len says otherwise.
    const { windowTokens } = JSON.parse(await readFile(join(model, 'ppmlm.json'), 'utf8')) as { windowTokens: number };
    expect(windowTokens).toBeGreaterThan(8);
    expect(windowTokens).toBeLessThanOrEqual(48);
    const e = await cli('--quiet', 'deid', 'eval', '--model', model, '--spans', spans, '--json');
    expect(e.code, e.stderr).toBe(0);
    const m = JSON.parse(e.stdout);
    expect(m.documents).toBe(20);
    expect(m.binary.f1).toBeGreaterThan(0.9);
    expect(Object.keys(m.perLabel).sort()).toEqual(['Date', 'HCPName', 'PTName', 'Phone']);
    const both = await cli('deid', 'train', '--spans', spans, '--judgments', 'x', '--out', join(dir, 'y'));
    expect(both.stderr).toMatch(/give either --judgments DIR \(with --replacements DIR\) or --spans FILE/);
  }, 120_000);
});
