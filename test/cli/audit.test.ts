import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';

describe('ppmlm audit', () => {
  it('writes private JSON and HTML reports with every measurement, and hides identifiers by default', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(6, 3);
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 6, 3).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const tuned = join(dir, 'std');
    expect((await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--strategy', 'standard', '--out', tuned, '--epochs', '1', '--seq-len', '32')).code).toBe(0);
    const out = join(dir, 'audit');
    const r = await cli('audit', '--model', tuned, '--reference', model, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', out, '--seq-len', '32');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^privacy score\s+all \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]\s+direct/m);
    expect(r.stdout).toMatch(/^membership\s+loss attack AUC \d\.\d{3}, TPR@1%FPR \d\.\d{3}; calibrated AUC/m);
    expect(r.stdout).toMatch(/^utility\s+fill-mask top-1/m);
    for (const f of ['report.json', 'report.html']) expect((await stat(join(out, f))).mode & 0o777).toBe(0o600);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    expect(report.membership).toMatchObject({ members: 18, nonMembers: 18, calibrated: { auc: expect.any(Number) } });
    expect(report.privacy.all.occurrences).toBeGreaterThan(0);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/<svg class="plot roc"/);
    expect(html).toMatch(/<svg class="plot regurgitation"/);
    expect(html).not.toMatch(/<script|(src|href)="https?:/);
    const names = generateClinicalNotes(11, 6, 3).map((d) => /^(.*?) \(MRN/m.exec(d.text)?.[1]).filter(Boolean) as string[];
    for (const name of names) expect(html.toLowerCase()).not.toContain(name.toLowerCase());

    const task = await cli('--quiet', 'audit', '--model', tuned, '--reference', model, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', out, '--seq-len', '32', '--force', '--task', corpus, '--task-epochs', '2', '--json');
    expect(task.code, task.stderr).toBe(0);
    const downstream = JSON.parse(task.stdout).utility.downstream;
    expect(downstream).toMatchObject({ train: 14, test: 4, macroF1: expect.any(Number), reference: { macroF1: expect.any(Number) } });
    expect(downstream.microF1).toBeGreaterThanOrEqual(0);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toMatch(/Downstream classification \(14 training, 4 test documents\)/);

    const again = await cli('audit', '--model', tuned, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/report\.json already exists; pass --force/);
  }, 120_000);
});

describe('ppmlm audit on a model it cannot run', () => {
  it('refuses the default --seq-len 128 on a 64-position model before any work, naming the limit', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(3, 1);
    const r = await cli('--quiet', 'audit', '--model', model, '--members', corpus, '--non-members', corpus, '--blacklist', blacklist, '--out', join(dir, 'audit'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--seq-len 128 exceeds the 64 positions of .*init \(config\.json max_position_embeddings\); pass --seq-len 64 or less/);
  });
});
