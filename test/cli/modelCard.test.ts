import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { readBlacklist } from '../../src/identifiers/index.js';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';

describe('model cards', () => {
  it('every model folder gets a Hub card: provenance after init and finetune, the headline after audit, never an identifier', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(4, 2);
    const init = await readFile(join(model, 'README.md'), 'utf8');
    expect(init).toMatch(/^---\nlicense: unknown\nlibrary_name: transformers\npipeline_tag: fill-mask\ntags:\n- "ppmlm"/);
    expect(init).toMatch(/\| base \| random-init \|/);

    const tuned = join(dir, 'tuned');
    const ft = await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', tuned, '--epochs', '1', '--seq-len', '32', '--save-every-epoch');
    expect(ft.code, ft.stderr).toBe(0);
    for (const folder of [tuned, `${tuned}.epoch-1`]) expect(await readFile(join(folder, 'README.md'), 'utf8')).toMatch(/- "ppmlm-constrained"[\s\S]*\| blacklist \| fingerprint [0-9a-f]{16}, \d+ terms \|[\s\S]*Not audited yet/);

    const held = join(dir, 'held.jsonl');
    await writeFile(held, generateClinicalNotes(99, 4, 2).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    // By default an audit writes its report only: the model folder is what gets shared.
    const before = await readFile(join(tuned, 'README.md'), 'utf8');
    const reportOnly = await cli('--quiet', 'audit', '--model', tuned, '--reference', model, '--members', corpus, '--non-members', held, '--blacklist', blacklist, '--out', join(dir, 'audit0'), '--seq-len', '32');
    expect(reportOnly.code, reportOnly.stderr).toBe(0);
    expect(await readFile(join(tuned, 'README.md'), 'utf8')).toBe(before);
    const audit = await cli('--quiet', 'audit', '--model', tuned, '--reference', model, '--members', corpus, '--non-members', held, '--blacklist', blacklist, '--out', join(dir, 'audit'), '--seq-len', '32', '--show-identifiers', '--update-card');
    expect(audit.code, audit.stderr).toBe(0);
    const card = await readFile(join(tuned, 'README.md'), 'utf8');
    expect(card).toMatch(/## Privacy audit\n\nFrom `ppmlm audit` on .*\n[\s\S]*\| privacy score, all protected occurrences \(1 − top-1 recovery\) \| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] over \d+ occurrences \|/);
    expect(card).toMatch(/membership inference AUC per individual \(loss attack \/ calibrated; 0\.5 is chance\) \| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \/ \d\.\d{3}, 4 members against 4 non-members \|/);
    // Even with --show-identifiers (the report then shows terms), the card holds no direct identifier (the
    // indirect terms of so small a corpus include words such as "with").
    const terms = (await readBlacklist(blacklist)).entries.filter((e) => e.kind === 'direct').map((e) => e.term);
    expect(terms.length).toBeGreaterThan(4);
    const words = new Set(card.toLowerCase().split(/[^\p{L}\p{N}]+/u));
    expect(terms.filter((t) => t.split(' ').every((w) => words.has(w)))).toEqual([]);


    // A DP model's card never takes member statistics: refused before the audit's work.
    const dp = join(dir, 'dp');
    expect((await cli('--quiet', 'finetune', '--model', model, '--corpus', corpus, '--blacklist', blacklist, '--out', dp, '--epochs', '1', '--seq-len', '32', '--privacy', 'dp', '--dp-noise', '1', '--dp-allow-private-preprocessing', '--author-col', 'author')).code).toBe(0);
    const dpCard = await readFile(join(dp, 'README.md'), 'utf8');
    const refused = await cli('--quiet', 'audit', '--model', dp, '--members', corpus, '--non-members', held, '--blacklist', blacklist, '--out', join(dir, 'audit-dp'), '--seq-len', '32', '--update-card');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/trained with differential privacy: its model card never carries audit figures/);
    expect(await readFile(join(dp, 'README.md'), 'utf8')).toBe(dpCard);
  }, 120_000);
});
