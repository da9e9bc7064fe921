import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { bareEncoderCopy, swappedTokensCopy, tinySetup } from '../helpers/tinyModel.js';
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
    expect(r.stdout).toMatch(/^membership\s+loss attack AUC \d\.\d{3} \[[\d.]+, [\d.]+\], TPR@1%FPR \d\.\d{3} \[[\d.]+, [\d.]+\]; calibrated AUC .* \(per document: \d+ members, \d+ non-members\)$/m);
    expect(r.stdout).toMatch(/^utility\s+fill-mask top-1/m);
    for (const f of ['report.json', 'report.html']) expect((await stat(join(out, f))).mode & 0o777).toBe(0o600);
    // The folder made for them is private too: no one else may list it.
    expect((await stat(out)).mode & 0o777).toBe(0o700);
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
    // The task corpus's label column is chosen with --task-label-col, not with --members' --label-col.
    // Both are refused before the audit runs (no progress of it), not after its minutes of work.
    const noLabel = await cli('audit', '--model', tuned, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', join(dir, 'no-label'), '--seq-len', '32', '--task', corpus, '--task-label-col', 'diagnosis');
    expect(noLabel.code).toBe(2);
    expect(noLabel.stderr).toMatch(/no key "diagnosis" for the label; the keys are: .* \(choose one with --task-label-col\)\n$/);
    expect(noLabel.stderr).not.toMatch(/^audit: /m);
    const noEpochs = await cli('audit', '--model', tuned, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', join(dir, 'no-epochs'), '--task', corpus, '--task-epochs', '0');
    expect(noEpochs.stderr).toBe('ppmlm: --task-epochs must be an integer between 1 and 9007199254740991, got "0"\n');

    const again = await cli('audit', '--model', tuned, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/report\.json already exists; pass --force/);
  }, 120_000);
});

describe('ppmlm audit --gold --references', () => {
  it('scores gold identifiers the blacklist missed and runs offline LiRA against reference models', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(6, 2);
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 6, 2).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const finetune = async (docs: string, out: string) => expect((await cli('--quiet', 'finetune', '--model', model, '--corpus', docs, '--strategy', 'constrained', '--blacklist', blacklist, '--out', out, '--epochs', '1', '--seq-len', '32')).code).toBe(0);
    await finetune(corpus, join(dir, 'target'));
    // References: the same recipe on public notes of other patients, two disjoint halves.
    for (const [i, seed] of [77, 78].entries()) {
      const pub = join(dir, `public${i}.jsonl`);
      await writeFile(pub, generateClinicalNotes(seed, 4, 2).map((d) => JSON.stringify({ ...d, id: `p${i}${d.id}` })).join('\n'));
      await finetune(pub, join(dir, `ref${i}`));
    }
    // Gold: every capitalised word, a much wider net than the blacklist: some are protected, some missed.
    const gold = join(dir, 'gold.jsonl');
    const docs = generateClinicalNotes(11, 6, 2);
    await writeFile(gold, docs.map((d) => JSON.stringify({ id: d.id, text: d.text, spans: [...d.text.matchAll(/\b[A-Z][a-z]+\b/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, label: 'CAPITAL' })) })).join('\n'));
    const out = join(dir, 'audit');
    const r = await cli('audit', '--model', join(dir, 'target'), '--reference', model, '--references', join(dir, 'ref0'), join(dir, 'ref1'), '--gold', gold, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', out, '--seq-len', '32');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^gold\s+blacklist recall \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] of \d+ gold occurrences; privacy on the missed \d\.\d{3}/m);
    expect(r.stdout).toMatch(/per individual: loss AUC \d\.\d{3} \[[\d.]+, [\d.]+\]; LiRA AUC/);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    expect(report.gold.occurrences).toBeGreaterThan(0);
    expect(report.gold.recall).toBeGreaterThan(0);
    expect(report.gold.recall).toBeLessThan(1);
    expect(report.membership.references).toBe(2);
    for (const level of ['byIndividual', 'byDocument']) {
      for (const v of ['all', 'unprotected', 'protected']) {
        for (const a of ['loss', 'calibrated', 'pllRatio', 'lira']) expect(report.membership[level][v][a].ci.auc).toHaveLength(2);
      }
    }
    expect(report.membership.byIndividual.all).toMatchObject({ members: 6, nonMembers: 6 });
    expect(report.membership.byDocument.all).toMatchObject({ members: 12, nonMembers: 12 });
    const one = await cli('--quiet', 'audit', '--model', join(dir, 'target'), '--references', join(dir, 'ref0'), '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', out, '--seq-len', '32', '--force');
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/ref0: LiRA needs at least 2 reference models; pass more with --references/);
  }, 180_000);
});

describe('ppmlm audit on a model it cannot run', () => {
  it('refuses the default --seq-len 128 on a 64-position model before any work, naming the limit', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(3, 1);
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 3, 1).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const r = await cli('--quiet', 'audit', '--model', model, '--members', corpus, '--non-members', nonMembers, '--blacklist', blacklist, '--out', join(dir, 'audit'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--seq-len 128 exceeds the 64 positions of .*init \(config\.json max_position_embeddings\); pass --seq-len 64 or less/);
  });

  it('refuses non-members that are members, a report inside a model folder, a model without its masked-LM head and a reference of another vocabulary', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(3, 1);
    const audit = (...flags: string[]) => cli('--quiet', 'audit', '--model', model, '--blacklist', blacklist, '--seq-len', '32', ...flags);
    const same = await audit('--members', corpus, '--non-members', corpus, '--out', join(dir, 'a'));
    expect(same.stderr).toBe("ppmlm: every non-member document repeats a member's text; non-members must be texts the model never saw\n");
    const held = join(dir, 'held.jsonl');
    const member = JSON.parse((await readFile(corpus, 'utf8')).split('\n')[0]!) as { text: string };
    await writeFile(held, JSON.stringify({ id: 'h1', author: 'x', text: member.text }));
    const overlap = await audit('--members', corpus, '--non-members', held, '--out', join(dir, 'a'));
    expect(overlap.code).toBe(2);
    expect(overlap.stderr).toBe("ppmlm: every non-member document repeats a member's text; non-members must be texts the model never saw\n");
    const inside = await audit('--members', corpus, '--non-members', held, '--out', join(model, 'reports'));
    expect(inside.stderr).toBe(`ppmlm: --out ${join(model, 'reports')} is inside the model folder ${model}, which is shared; reports hold personal data: write them elsewhere\n`);
    await expect(stat(join(model, 'reports'))).rejects.toThrow();
    // The same model with its masked-LM head taken out of the weights, and with two tokens swapped.
    const bare = await bareEncoderCopy(model, join(dir, 'bare'));
    const headless = await cli('fill-mask', '--model', bare, '--text', 'the patient [MASK] today');
    expect(headless.code).toBe(2);
    expect(headless.stderr).toMatch(/bare\/model\.safetensors: lacks the tensors cls\.predictions\.[^:]*: the masked-LM head, whose predictions this reads; give a …ForMaskedLM folder/);
    const auditedBare = await cli('--quiet', 'audit', '--model', bare, '--blacklist', blacklist, '--seq-len', '32', '--members', corpus, '--non-members', held, '--out', join(dir, 'c'));
    expect(auditedBare.code).toBe(2);
    expect(auditedBare.stderr).toMatch(/bare\/model\.safetensors: lacks the tensors .*: the masked-LM head/);
    const swapped = await swappedTokensCopy(model, join(dir, 'swapped'));
    const held2 = join(dir, 'held2.jsonl');
    await writeFile(held2, generateClinicalNotes(99, 3, 1).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const other = await audit('--members', corpus, '--non-members', held2, '--reference', swapped, '--out', join(dir, 'b'));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/swapped: its vocabulary reads id \d+ as another token than the audited model's; reference models must share the tokenizer\n$/);
  });
});
