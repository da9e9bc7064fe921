import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { cli } from '../helpers/cli.js';
import { tinySetup } from '../helpers/tinyModel.js';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { writeBlacklist } from '../../src/identifiers/index.js';

describe('ppmlm experiment', () => {
  it('runs a 3-cell comparison (constrained+dp among them), writes the table and plots, and resumes without recomputing', async () => {
    const { dir, corpus, blacklist, model } = await tinySetup(5, 3);
    const nonMembers = join(dir, 'held.jsonl');
    await writeFile(nonMembers, generateClinicalNotes(99, 5, 3).map((d) => JSON.stringify({ ...d, id: `h${d.id}` })).join('\n'));
    const config = join(dir, 'exp.json');
    await writeFile(config, JSON.stringify({ model, members: corpus, nonMembers, blacklist, strategies: ['standard', 'constrained', 'constrained+dp'], epochs: [1], seeds: [3], finetune: { seqLen: 32, batchSize: 8, lr: 0.002, dpNoise: 1, dpMaxWindows: 2 }, audit: { maxOccurrences: 200 }, canaries: { count: 2, repeats: 3, candidates: 20 } }));
    const out = join(dir, 'exp');
    const r = await cli('--quiet', 'experiment', '--config', config, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\| standard \| 1 \| 3 \| \d\.\d{4} /);
    expect(r.stdout).toMatch(/\| constrained \| 1 \| 3 \|/);
    const csv = (await readFile(join(out, 'results.csv'), 'utf8')).trim().split('\n');
    expect(csv[0]).toBe('strategy,epochs,seed,privacyAll,privacyDirect,privacyIndirect,privacyCanary,canaryExposure,miaAuc,miaTpr1,calibratedAuc,calibratedTpr1,utility,utilityBase,utilityBaseline,epsilon,epsilonUnit');
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
    expect(result.rows.map((row: { strategy: string }) => row.strategy)).toEqual(['base', 'standard', 'constrained']);
    expect(result.files).toEqual({ csv: join(out, 'results.csv'), markdown: join(out, 'results.md'), plots: join(out, 'plots.html') });
  }, 120_000);

  it('matches blacklist terms inside Korean words with lang auto or ko, not with en', async () => {
    const { dir, model } = await tinySetup(2, 1);
    const docs = (who: string, n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${who}${i}`, author: `${who}${i}`, text: `피해자 김민서는 ${i}일 송금하였고 김민서에게 연락하였다.` })).join('\n');
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
    expect(r.stderr).toMatch(/bad\.json: a strategy with dp needs finetune\.dpNoise or finetune\.targetEpsilon/);
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', blacklist: 'c', strategies: ['constrained+private'], epochs: [1] }));
    const axes = await cli('experiment', '--config', config, '--out', join(dir, 'w'));
    expect(axes.code).toBe(2);
    expect(axes.stderr).toMatch(/bad\.json: "strategies": unknown strategy "constrained\+private"; use one of standard, constrained, pseudonymized, dp or a combination such as constrained\+dp/);
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', blacklist: 'c', strategies: ['standard'], epochs: [1], canaries: { count: 1, repeats: 1, language: 'fr' } }));
    const lang = await cli('experiment', '--config', config, '--out', join(dir, 'y'));
    expect(lang.code).toBe(2);
    expect(lang.stderr).toMatch(/bad\.json: unknown canaries\.language "fr"; use en or ko/);
    await writeFile(config, JSON.stringify({ model: 'm', members: 'a', nonMembers: 'b', blacklist: 'c', strategies: ['standard'], epochs: [1], lang: 'kr' }));
    expect((await cli('experiment', '--config', config, '--out', join(dir, 'z'))).stderr).toMatch(/bad\.json: unknown lang "kr"; use auto, en, ko/);
    // A syntax error names line and column and what the file must be, never V8's message quoting the text.
    await writeFile(config, '{\n  "model": "m",\n  "members": secret-name\n}');
    const syntax = await cli('experiment', '--config', config, '--out', join(dir, 'w'));
    expect(syntax.code).toBe(2);
    expect(syntax.stderr.trim()).toBe(`ppmlm: ${config}:3: not valid JSON at column 14; an experiment config is one JSON object (see bench/experiments/*/config.json)`);
  });
});
