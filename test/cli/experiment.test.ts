import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { bareEncoderCopy, tinySetup } from '../helpers/tinyModel.js';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { readBlacklist, writeBlacklist } from '../../src/identifiers/index.js';

describe('ppmlm experiment', () => {
  it('runs a 3-cell comparison (constrained+dp among them), writes the table and plots, and resumes without recomputing', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(5, 3);
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 5, 3).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const config = join(dir, 'exp.json');
    await writeFile(config, JSON.stringify({ model, members: corpus, nonMembers, blacklist, strategies: ['standard', 'constrained', 'constrained+dp'], epochs: [1], seeds: [3], finetune: { seqLen: 32, batchSize: 8, lr: 0.002, dpNoise: 1, dpMaxWindows: 2, dpAllowPrivatePreprocessing: true }, audit: { maxOccurrences: 200 }, canaries: { count: 2, repeats: 3, candidates: 20 } }));
    const out = join(dir, 'exp');
    const r = await cli('--quiet', 'experiment', '--config', config, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\| standard \| 1 \| 3 \| (1|0\.\d{4}) /);
    expect(r.stdout).toMatch(/\| constrained \| 1 \| 3 \|/);
    const csv = (await readFile(join(out, 'results.csv'), 'utf8')).trim().split('\n');
    expect(csv[0]).toBe('strategy,epochs,seed,privacyAll,privacyDirect,privacyIndirect,privacyCanary,canaryExposure,miaAuc,miaTpr1,calibratedAuc,calibratedTpr1,utility,utilityBase,utilityBaseline,epsilon,epsilonUnit,privacySubword,canaryControl,canaryExcess,canaryExcessSe,miaIndividualAuc,miaProtectedAuc,liraAuc,goldRecall,privacyGoldMissed');
    expect(csv).toHaveLength(5);
    // The new cell: constrained masking with DP-SGD per individual, its epsilon labelled with its unit.
    const dpRow = csv[4]!.split(',');
    expect(dpRow[0]).toBe('constrained+dp');
    expect(Number(dpRow[15])).toBeGreaterThan(0);
    expect(dpRow[16]).toBe('author');
    expect(csv[2]!.split(',')[16]).toBe('');
    const dpCell = JSON.parse(await readFile(join(out, 'cells', 'constrained+dp-e1-s3', 'report.json'), 'utf8'));
    expect(dpCell.target.provenance.axes).toEqual({ masking: 'constrained', input: 'original', privacy: 'dp' });
    // The base model's own row comes first: 0 epochs, its utility is every cell's utilityBase.
    const baseRow = csv[1]!.split(',');
    expect(baseRow.slice(0, 3)).toEqual(['base', '0', '3']);
    expect(baseRow[12]).toBe(baseRow[13]);
    for (const line of csv.slice(1)) expect(Number(line.split(',')[6])).toBeGreaterThanOrEqual(0);
    // Both cells start from the same base model and are audited on the same positions.
    const base = csv.slice(1).map((l) => l.split(',').slice(13, 15).join());
    expect(new Set(base).size).toBe(1);
    const report0 = JSON.parse(await readFile(join(out, 'cells', 'standard-e1-s3', 'report.json'), 'utf8'));
    expect(Number(csv[2]!.split(',')[14])).toBeCloseTo(report0.utility.unigramBaseline, 4);
    expect(Number(csv[2]!.split(',')[10])).toBeCloseTo(report0.membership.calibrated.auc, 4);
    const canaryReport = JSON.parse(await readFile(join(out, 'cells', 'constrained-e1-s3', 'report.json'), 'utf8'));
    expect(canaryReport.privacy.byCategory.CANARY.occurrences).toBe(12);
    expect(canaryReport.privacy.byCategory.CANARY.score).toBe(1);
    // Two secrets (name, reference) per canary, each ranked among 20 fresh values.
    expect(canaryReport.exposure.probes).toHaveLength(4);
    for (const p of canaryReport.exposure.probes) {
      expect(p.candidates).toBe(20);
      expect(p.exposure).toBeCloseTo(Math.log2(21) - Math.log2(p.rank), 10);
    }
    expect(JSON.stringify(canaryReport.exposure)).not.toMatch(/Emergency|[A-Z][a-z]+ [A-Z][a-z]+/);
    // Controls: as many secrets never planted, their exposure beside the planted one; the headline is the difference.
    expect(canaryReport.canaries.control.n).toBe(4);
    expect(canaryReport.canaries.difference.value).toBeCloseTo(canaryReport.canaries.planted.mean - canaryReport.canaries.control.mean, 10);
    expect(canaryReport.canaries.difference.se).toBeGreaterThan(0);
    expect(JSON.stringify(canaryReport.canaries)).not.toMatch(/Emergency|[A-Z][a-z]+ [A-Z][a-z]+/);
    // Documents carrying canaries are left out of membership inference; the blacklist was given.
    expect(canaryReport.membership.excludedDocuments).toBeGreaterThan(0);
    expect(canaryReport.membership.byDocument.all.members).toBe(15 - canaryReport.membership.excludedDocuments);
    expect(canaryReport.blacklistScope).toBe('given');
    expect(await readFile(join(out, 'plots.html'), 'utf8')).toMatch(/<svg class="plot privacy"[\s\S]*<svg class="plot mia"[\s\S]*<svg class="plot tradeoff"/);
    const report = join(out, 'cells', 'standard-e1-s3', 'report.json');
    const before = (await stat(report)).mtimeMs;
    const again = await cli('--quiet', 'experiment', '--config', config, '--out', out);
    expect(again.code).toBe(0);
    expect((await stat(report)).mtimeMs).toBe(before);
    expect(again.stdout).toBe(r.stdout);
    const rows = await cli('--quiet', 'experiment', '--config', config, '--out', out, '--json');
    expect(rows.code, rows.stderr).toBe(0);
    const result = JSON.parse(rows.stdout);
    expect(result.rows.map((row: { strategy: string }) => row.strategy)).toEqual(['base', 'standard', 'constrained', 'constrained+dp']);
    expect(result.files).toEqual({ csv: join(out, 'results.csv'), markdown: join(out, 'results.md'), plots: join(out, 'plots.html') });
    // Another setting or other data would mix the kept cells with new ones in one table: refused, naming what changed.
    const settings = JSON.parse(await readFile(config, 'utf8'));
    await writeFile(config, JSON.stringify({ ...settings, finetune: { ...settings.finetune, lr: 0.001 }, canaries: { ...settings.canaries, count: 3 } }));
    const changed = await cli('--quiet', 'experiment', '--config', config, '--out', out);
    expect(changed.stderr).toBe(`ppmlm: ${out} holds the cells of an experiment run with other settings (then → now): finetune.lr 0.002 → 0.001, canaries.count 2 → 3; give another --out, or delete ${out} to run this config from the start (strategies and seeds may change, and epochs up to the largest already run: they only add cells)\n`);
    // An epoch past the largest trained would train the strategies again, whose checkpoints refused it only
    // after the canaries were planted, telling of a --force the command has not: refused before, by name.
    const largest = Math.max(...(settings.epochs as number[]));
    await writeFile(config, JSON.stringify({ ...settings, epochs: [...settings.epochs, largest + 1] }));
    const grown = await cli('--quiet', 'experiment', '--config', config, '--out', out);
    expect(grown.code).toBe(2);
    expect(grown.stderr).toBe(`ppmlm: ${out} holds the cells of an experiment run with other settings (then → now): epochs up to ${largest} → up to ${largest + 1}; give another --out, or delete ${out} to run this config from the start (strategies and seeds may change, and epochs up to the largest already run: they only add cells)\n`);
    await writeFile(config, JSON.stringify(settings));
    await writeFile(nonMembers, (await readFile(nonMembers, 'utf8')).replace('"text":"', '"text":"Seen. '));
    expect((await cli('--quiet', 'experiment', '--config', config, '--out', out)).stderr).toMatch(/other settings \(then → now\): nonMembers \(read\) "[0-9a-f]+" → "[0-9a-f]+"; /);
    expect((await stat(join(out, 'experiment.json'))).mode & 0o777).toBe(0o600);
    // Before any cell finishes, a config corrected after a check's advice replaces the record.
    const early = join(dir, 'early');
    await writeFile(config, JSON.stringify({ ...settings, strategies: [], lira: { references: 9 } }));
    const tooMany = await cli('--quiet', 'experiment', '--config', config, '--out', early);
    expect(tooMany.code).toBe(2);
    expect(JSON.parse(await readFile(join(early, 'experiment.json'), 'utf8'))).toMatchObject({ 'lira.references': 9 });
    await writeFile(config, JSON.stringify({ ...settings, strategies: [] }));
    const corrected = await cli('--quiet', 'experiment', '--config', config, '--out', early);
    expect(corrected.code, corrected.stderr).toBe(0);
  }, 120_000);

  it('refuses a base vocabulary that holds blacklisted terms before any audit, naming the config key; the key lets it through and is recorded (freezeProtectedEmbeddings reaches the constrained cells, untieDecoder every cell)', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(2, 1);
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 2, 1).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    // A whole word of the vocabulary, then blacklisted: the tokenizer was trained before the blacklist knew it.
    const word = (await readFile(join(model, 'vocab.txt'), 'utf8')).split('\n').find((t) => /^[a-z]{5,}$/.test(t))!;
    const list = await readBlacklist(blacklist);
    list.entries.push({ term: word, kind: 'indirect', category: 'TERM', authors: 1, occurrences: 1, sources: ['test'] });
    const withWord = join(dir, 'with-word.tsv');
    await writeBlacklist(withWord, list);
    const config = join(dir, 'exp.json');
    const write = (finetune: object) => writeFile(config, JSON.stringify({ model, members: corpus, nonMembers, blacklist: withWord, strategies: ['standard'], epochs: [1], seeds: [1], finetune: { seqLen: 32, batchSize: 8, ...finetune }, audit: { maxOccurrences: 50 } }));
    await write({});
    const refused = await cli('experiment', '--config', config, '--out', join(dir, 'refused'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/vocabulary has \d+ tokens? that (is a blacklisted term|are blacklisted terms).* or set "finetune": \{ "allowVocabularyIdentifiers": true \} in the config/);
    expect(refused.stderr + refused.stdout).not.toMatch(/audit base/);
    expect(refused.stderr).not.toContain(word);
    await write({ allowVocabularyIdentifiers: 'yes' });
    const badType = await cli('experiment', '--config', config, '--out', join(dir, 'bad'));
    expect(badType.code).toBe(2);
    expect(badType.stderr).toMatch(/exp\.json.*"finetune\.allowVocabularyIdentifiers" must be true or false/);
    // A corpus row the config's columns cannot read names the config key, not a flag experiment does not have.
    const badRow = join(dir, 'bad-row.jsonl');
    await writeFile(badRow, '{"text": "seen today", "author": ["a", "b"]}\n');
    await writeFile(config, JSON.stringify({ model, members: corpus, nonMembers: badRow, blacklist: withWord, strategies: ['standard'], epochs: [1], seeds: [1], finetune: { seqLen: 32 } }));
    const unread = await cli('experiment', '--config', config, '--out', join(dir, 'unread'));
    // A corpus whose format the path cannot tell is told to rename it: the config has no format key to set.
    const extensionless = join(dir, 'non-members');
    await writeFile(extensionless, '{"text": "seen today"}\n');
    await writeFile(config, JSON.stringify({ model, members: corpus, nonMembers: extensionless, blacklist: withWord, strategies: ['standard'], epochs: [1], seeds: [1], finetune: { seqLen: 32 } }));
    const unnamed = await cli('experiment', '--config', config, '--out', join(dir, 'unnamed'));
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain(`ppmlm: ${extensionless}: cannot tell the corpus format from the extension ""; rename it to .csv/.tsv/.jsonl/.parquet\n`);
    // A bare encoder is refused before any corpus is read: the base row and every audit's reference read its head.
    const bareModel = await bareEncoderCopy(model, join(dir, 'bare'));
    await writeFile(config, JSON.stringify({ model: bareModel, members: corpus, nonMembers: badRow, strategies: ['standard'], epochs: [1], seeds: [1], finetune: { seqLen: 32 } }));
    const headless = await cli('experiment', '--config', config, '--out', join(dir, 'headless'));
    expect(headless.code).toBe(2);
    expect(headless.stderr).toMatch(/bare\/model\.safetensors: lacks the tensors cls\.predictions\.[^:]*: the masked-LM head, whose predictions this reads; set "model" in the config to a …ForMaskedLM folder/);
    // A DP cell per individual on members read without authors is refused before any audit, naming the config's keys.
    const anonymous = join(dir, 'anonymous.jsonl');
    await writeFile(anonymous, generateClinicalNotes(5, 2, 2).map(({ author: _, ...d }) => JSON.stringify(d)).join('\n'));
    await writeFile(config, JSON.stringify({ model, members: anonymous, nonMembers, blacklist, strategies: ['constrained+dp'], epochs: [1], seeds: [1], finetune: { seqLen: 32, targetEpsilon: 8 } }));
    const perDocument = await cli('experiment', '--config', config, '--out', join(dir, 'per-document'));
    expect(perDocument.code).toBe(2);
    expect(perDocument.stderr).toContain(`ppmlm: ${config}: "finetune.dpUnit" author (the default) needs the members' author column: each of their 4 documents is its own author; set "columns.author" in the config (or "finetune": { "dpUnit": "window" }, a guarantee per window, not per person)\n`);
    expect(perDocument.stderr).not.toMatch(/audit base/);
    expect(unread.code).toBe(2);
    expect(unread.stderr).toContain(`ppmlm: ${badRow}:1: key "author" must be a string or a number, got an array; write the author as one, or choose another key with "columns.author" in the config\n`);
    // With the key; freezeProtectedEmbeddings applies to the constrained cells only.
    await writeFile(config, JSON.stringify({ model, members: corpus, nonMembers, blacklist: withWord, strategies: ['standard', 'constrained'], epochs: [1], seeds: [1], finetune: { seqLen: 32, batchSize: 8, allowVocabularyIdentifiers: true, freezeProtectedEmbeddings: true, untieDecoder: true }, audit: { maxOccurrences: 50 } }));
    const out = join(dir, 'allowed');
    const allowed = await cli('--quiet', 'experiment', '--config', config, '--out', out);
    expect(allowed.code, allowed.stderr).toBe(0);
    const provenance = async (run: string) => JSON.parse(await readFile(join(out, 'runs', `${run}-s1.epoch-1`, 'ppmlm.json'), 'utf8'));
    expect(await provenance('standard')).toMatchObject({ vocabularyCheck: { status: 'checked', against: 'run blacklist', identifiers: expect.any(Number), allowed: true } });
    expect((await provenance('standard')).freezeProtectedEmbeddings).toBeUndefined();
    expect((await provenance('constrained')).freezeProtectedEmbeddings).toBe(true);
    // untieDecoder applies to every cell.
    for (const run of ['standard', 'constrained']) expect((await provenance(run)).untiedDecoder).toBe(true);
  }, 120_000);

  it('builds the blacklist from the members when none is given, scores gold spans and runs offline LiRA', async () => {
    const { dir, corpus, model } = await tinySetup(4, 2);
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 4, 2).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const gold = join(dir, 'gold.jsonl');
    await writeFile(gold, generateClinicalNotes(11, 4, 2).map((d) => JSON.stringify({ id: d.id, text: d.text, spans: [...d.text.matchAll(/\b[A-Z][a-z]+\b/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, label: 'CAPITAL' })) })).join('\n'));
    const config = join(dir, 'lira.json');
    await writeFile(config, JSON.stringify({ model, members: corpus, nonMembers, gold, strategies: ['constrained'], epochs: [1], seeds: [2], lira: { references: 3 }, finetune: { seqLen: 32, batchSize: 8 }, audit: { maxOccurrences: 100 } }));
    const out = join(dir, 'exp');
    const r = await cli('experiment', '--config', config, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).toMatch(/blacklist built from the 8 member documents only: \d+ terms/);
    expect(r.stderr + r.stdout).toMatch(/fine-tune constrained, seed 3002, 1 epochs \(LiRA reference 3 of 3\)/);
    const report = JSON.parse(await readFile(join(out, 'cells', 'constrained-e1-s2', 'report.json'), 'utf8'));
    expect(report.blacklistScope).toBe('members');
    expect(report.gold.occurrences).toBeGreaterThan(0);
    expect(report.membership.references).toBe(3);
    // The references trained on thirds of the non-members (by individual): a non-member is scored against
    // the two that never saw it, a member against all three.
    for (const v of ['all', 'unprotected', 'protected']) expect(report.membership.byIndividual[v].lira.ci.auc).toHaveLength(2);
    const csv = (await readFile(join(out, 'results.csv'), 'utf8')).trim().split('\n').map((l) => l.split(','));
    const col = (name: string) => csv[0]!.indexOf(name);
    expect(Number(csv[2]![col('goldRecall')])).toBeGreaterThan(0);
    expect(csv[2]![col('liraAuc')]).toMatch(/^(0|1|0\.\d{4})$/);
    // More references than non-member individuals to split between them: named before any training.
    await writeFile(config, JSON.stringify({ model, members: corpus, nonMembers, strategies: ['constrained'], epochs: [1], lira: { references: 9 }, finetune: { seqLen: 32 } }));
    const tooMany = await cli('experiment', '--config', config, '--out', join(dir, 'too-many'));
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain(`ppmlm: ${config}: "lira.references" is 9`);
    expect(tooMany.stderr).toMatch(/"lira\.references" is 9, but its corpus has 4 individuals to split between them; lower it or give "lira\.corpus"/);
  }, 180_000);

  it('matches blacklist terms inside Korean words with lang auto or ko, not with en', async () => {
    const { dir, model } = await tinySetup(2, 1);
    const docs = (who: string, n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${who}${i}`, author: `${who}${i}`, text: `피해자 김민서는 ${i}일 송금하였고 ${who === 'm' ? '김민서에게 연락하였다' : '다음 날 김민서에게 전화하였다'}.` })).join('\n');
    await writeFile(join(dir, 'm.jsonl'), docs('m', 3));
    await writeFile(join(dir, 'n.jsonl'), docs('n', 3));
    await writeBlacklist(join(dir, 'names.tsv'), { header: { version: 1, extra: {} }, entries: [{ term: '김민서', kind: 'direct', category: 'PERSON', authors: 1, occurrences: 6, sources: ['test'] }] });
    const occurrences = async (lang: string) => {
      const config = join(dir, `${lang}.json`);
      // No strategy: only the base model is audited, which is all the matching needs.
      await writeFile(config, JSON.stringify({ model, members: 'm.jsonl', nonMembers: 'n.jsonl', blacklist: 'names.tsv', lang, analyzer: 'rule', strategies: [], epochs: [1], seeds: [1], audit: { seqLen: 32 } }));
      const r = await cli('--quiet', 'experiment', '--config', config, '--out', join(dir, `out-${lang}`));
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(await readFile(join(dir, `out-${lang}`, 'cells', 'base-e0-s1', 'report.json'), 'utf8')).privacy.all.occurrences as number;
    };
    // --out a file is refused before the base audit, which would fail writing its report only after it ran.
    const taken = join(dir, 'taken.txt');
    await writeFile(taken, 'x');
    await writeFile(join(dir, 'file.json'), JSON.stringify({ model, members: 'm.jsonl', nonMembers: 'n.jsonl', blacklist: 'names.tsv', strategies: [], epochs: [1], seeds: [1], audit: { seqLen: 32 } }));
    const refused = await cli('--quiet', 'experiment', '--config', join(dir, 'file.json'), '--out', taken);
    expect(refused.stderr).toBe(`ppmlm: ${taken}: a file, not a folder; give experiment --out a folder (its runs, cells and results go there)\n`);
    expect(await occurrences('ko')).toBe(6);
    expect(await occurrences('auto')).toBe(6);
    expect(await occurrences('en')).toBe(0);
  }, 60_000);

  it('names what is wrong in a config', async () => {
    const { dir } = await tinySetup(2, 1);
    const config = join(dir, 'bad.json');
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', blacklist: 'c', strategies: ['dp'], epochs: [1] }));
    const r = await cli('experiment', '--config', config, '--out', join(dir, 'x'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.json:1: a strategy with dp needs finetune\.dpNoise or finetune\.targetEpsilon/);
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', blacklist: 'c', strategies: ['constrained+private'], epochs: [1] }));
    const axes = await cli('experiment', '--config', config, '--out', join(dir, 'w'));
    expect(axes.code).toBe(2);
    expect(axes.stderr).toMatch(/bad\.json:1: "strategies": unknown strategy "constrained\+private"; use one of standard, constrained, pseudonymized, dp or a combination such as constrained\+dp/);
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', blacklist: 'c', strategies: ['standard'], epochs: [1], canaries: { count: 1, repeats: 1, language: 'fr' } }));
    const lang = await cli('experiment', '--config', config, '--out', join(dir, 'y'));
    expect(lang.code).toBe(2);
    expect(lang.stderr).toMatch(/bad\.json:1: unknown canaries\.language "fr"; use en or ko/);
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', blacklist: 'c', strategies: ['standard'], epochs: [1], lang: 'kr' }));
    expect((await cli('experiment', '--config', config, '--out', join(dir, 'z'))).stderr).toMatch(/bad\.json:1: unknown lang "kr"; use auto, en, ko/);
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', strategies: ['standard'], epochs: [1], lira: { references: 1 } }));
    const lira = await cli('experiment', '--config', config, '--out', join(dir, 'l'));
    expect(lira.code).toBe(2);
    expect(lira.stderr).toMatch(/bad\.json:1: "lira\.references" must be an integer of at least 2/);
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', strategies: ['standard'], epochs: [1], canaries: { count: 0 } }));
    expect((await cli('experiment', '--config', config, '--out', join(dir, 'c'))).stderr).toMatch(/bad\.json:1: "canaries\.count" must be a positive integer/);
    // A window beyond the model's positions, said before any cell runs, naming the config's key.
    const { corpus, model } = await tinySetup(2, 1);
    await writeFile(config, JSON.stringify({ model, members: corpus, nonMembers: corpus, strategies: ['standard'], epochs: [1] }));
    const long = await cli('experiment', '--config', config, '--out', join(dir, 'p'));
    expect(long.code).toBe(2);
    expect(long.stderr.trim().split('\n').at(-1)).toBe(`ppmlm: ${config}: "finetune.seqLen" is 128 (the default), beyond the 64 positions of ${model} (config.json max_position_embeddings); set "finetune.seqLen" to 64 or less in the config`);
    await expect(stat(join(dir, 'p', 'cells'))).rejects.toThrow();
    // A syntax error names line and column and what the file must be, never V8's message quoting the text.
    await writeFile(config, '{\n  "model": "m",\n  "members": secret-name\n}');
    const syntax = await cli('experiment', '--config', config, '--out', join(dir, 'w'));
    expect(syntax.code).toBe(2);
    expect(syntax.stderr.trim()).toBe(`ppmlm: ${config}:3: not valid JSON at column 14; an experiment config is one JSON object (see bench/experiments/*/config.json)`);
  });
});
