import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertOutputsApart } from '../../src/io/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('outputs kept apart from inputs', () => {
  it('refuses an output that is an input, holds one, lies in an input folder, or meets another output, through links too', async () => {
    const dir = await tempDir();
    const corpus = join(dir, 'notes.csv');
    await writeFile(corpus, 'text\nseen today\n');
    const folder = join(dir, 'judgments');
    await mkdir(join(folder, 'a'), { recursive: true });
    await symlink(corpus, join(dir, 'link.csv'));
    const refused = (inputs: Record<string, string>, outputs: Record<string, string | undefined>) => assertOutputsApart(inputs, outputs).then(() => 'accepted', (err: Error) => err.message);
    expect(await refused({ '--corpus': corpus }, { '--out': corpus })).toBe(`--out ${corpus} is the input --corpus too; give --out a path of its own`);
    // A link to the input is the input.
    expect(await refused({ '--corpus': join(dir, 'link.csv') }, { '--out': corpus })).toMatch(/is the input --corpus too/);
    expect(await refused({ '--corpus': corpus }, { '--out': dir })).toBe(`--out ${dir} holds the input --corpus ${corpus}, which writing it would replace; give --out a path outside it`);
    expect(await refused({ '--judgments': folder }, { '--out': join(folder, 'a', 'generated.jsonl') })).toBe(`--out ${join(folder, 'a', 'generated.jsonl')} lies inside the input --judgments ${folder}; give --out a path outside that folder`);
    // Through a link to the folder, and below a folder that does not exist yet.
    await symlink(folder, join(dir, 'linked'));
    expect(await refused({ '--judgments': join(dir, 'linked') }, { '--out': join(folder, 'new', 'x.jsonl') })).toMatch(/lies inside the input --judgments/);
    expect(await refused({ '--in': corpus }, { '--out': join(dir, 'o'), '--spans-out': join(dir, 'o', 'spans.jsonl') })).toMatch(/^--spans-out .* and the output --out .* lie one inside the other/);
    expect(await refused({ '--in': corpus }, { '--out': join(dir, 'o.txt'), '--spans-out': join(dir, 'o.txt') })).toMatch(/^--spans-out .* is the output --out too/);
    // A sibling, an absent flag and a file beside an input file are fine.
    expect(await refused({ '--corpus': corpus, '--blacklist': undefined as unknown as string }, { '--out': join(dir, 'bl.tsv'), '--graph-out': undefined })).toBe('accepted');
  });

  it('keeps every writing command from replacing what it reads, with --force too', async () => {
    const dir = await tempDir();
    const corpus = join(dir, 'notes.csv');
    await writeFile(corpus, 'text,author\nseen today,a\n');
    const blacklist = join(dir, 'bl.tsv');
    await writeFile(blacklist, 'Smith\n');
    const runs: [string[], RegExp][] = [
      [['export-dataset', '--model', 'models/public-ner-en', '--corpus', corpus, '--blacklist', blacklist, '--out', corpus], /^ppmlm: --out \S+notes\.csv is the input --corpus/],
      [['export-dataset', '--model', 'models/public-ner-en', '--corpus', corpus, '--blacklist', blacklist, '--out', dir], /^ppmlm: --out \S+ holds the input --corpus/],
      [['tokenizer', 'train', '--corpus', corpus, '--blacklist', blacklist, '--out', blacklist], /^ppmlm: --out \S+bl\.tsv is the input --blacklist/],
      [['export', 'onnx', '--model', 'models/public-ner-en', '--out', 'models/public-ner-en'], /^ppmlm: --out models\/public-ner-en is the input --model/],
      [['finetune', '--model', 'models/public-ner-en', '--corpus', corpus, '--blacklist', blacklist, '--strategy', 'constrained', '--out', blacklist], /^ppmlm: --out \S+bl\.tsv is the input --blacklist/],
      [['deid', 'train', '--spans', corpus, '--out', corpus], /^ppmlm: --out \S+notes\.csv is the input --spans/],
      [['deid', 'generate', '--judgments', 'examples/legal-ko/judgments', '--replacements', 'examples/legal-ko/replacements', '--out', 'examples/legal-ko/judgments/new.jsonl'], /^ppmlm: --out \S+ lies inside the input --judgments/],
      [['model', 'init', '--vocab', 'models/public-ner-en', '--out', 'models/public-ner-en'], /^ppmlm: --out models\/public-ner-en is the input --vocab/],
      [['deid', 'apply', '--model', 'models/public-ner-en', '--in', corpus, '--out', 'models/public-ner-en/tokenizer.json'], /^ppmlm: --out \S+ lies inside the input --model models\/public-ner-en/],
      [['blacklist', 'build', '--corpus', corpus, '--deid-model', 'models/public-ner-en', '--out', 'models/public-ner-en/model.safetensors'], /^ppmlm: --out \S+ lies inside the input --deid-model \(1\) models\/public-ner-en/],
      [['audit', '--model', 'models/public-ner-en', '--members', corpus, '--non-members', corpus, '--blacklist', blacklist, '--out', 'models/public-ner-en/audit'], /^ppmlm: --out models\/public-ner-en\/audit is inside the model folder models\/public-ner-en/],
    ];
    for (const [args, message] of runs) {
      const r = await cli('--quiet', ...args, '--force');
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    const config = join(dir, 'exp.json');
    await writeFile(config, JSON.stringify({ model: join(process.cwd(), 'models/public-ner-en'), members: corpus, nonMembers: corpus, strategies: ['standard'], epochs: [1] }));
    const experiment = await cli('--quiet', 'experiment', '--config', config, '--out', join(process.cwd(), 'models/public-ner-en/runs'));
    expect(experiment.code).toBe(2);
    expect(experiment.stderr).toMatch(/^ppmlm: --out \(cells\) \S+ lies inside the input "model" of \S+exp\.json/);
    // A folder only added to may hold inputs: a config kept beside its results, members beside the reports.
    const beside = await cli('--quiet', 'audit', '--model', 'models/public-ner-en', '--members', join(dir, 'missing.csv'), '--non-members', corpus, '--blacklist', blacklist, '--out', dir);
    expect(beside.stderr).not.toMatch(/holds the input|lies inside/);
  });
});
