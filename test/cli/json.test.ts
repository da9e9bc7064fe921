import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { stat, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';

/** Every runnable command of the program, as the words that invoke it. */
function leafCommands(cmd: Command, path: string[] = []): [string, Command][] {
  return cmd.commands.flatMap((sub) => (sub.commands.length > 0 ? leafCommands(sub, [...path, sub.name()]) : [[[...path, sub.name()].join(' '), sub] as [string, Command]]));
}

const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe('--json', () => {
  it('is an option of every command', () => {
    const commands = leafCommands(buildProgram({ stdout() {}, stderr() {} }));
    expect(commands.length).toBeGreaterThan(15);
    expect(commands.filter(([, c]) => !c.options.some((o) => o.long === '--json')).map(([name]) => name)).toEqual([]);
  });

  it('prints one JSON document for tokenizer train and model init', async () => {
    const dir = await tempDir();
    const corpus = join(FIXTURES, 'corpus', 'notes.csv');
    const tok = await cli('--quiet', 'tokenizer', 'train', '--corpus', corpus, '--public-corpus', '--out', join(dir, 'tok'), '--vocab-size', '60', '--json');
    expect(tok.code, tok.stderr).toBe(0);
    expect(json(tok.stdout)).toEqual({ out: join(dir, 'tok'), type: 'wordpiece', vocabSize: expect.any(Number), files: ['tokenizer.json', 'vocab.txt', 'ppmlm.json'], morphemes: false, blacklist: false, publicCorpus: true });
    const bpe = await cli('--quiet', 'tokenizer', 'train', '--corpus', corpus, '--out', join(dir, 'bpe'), '--type', 'bpe', '--vocab-size', '300', '--json');
    expect(json(bpe.stdout)).toMatchObject({ type: 'bpe', files: ['tokenizer.json', 'ppmlm.json'], publicCorpus: false });
    const init = await cli('--quiet', 'model', 'init', '--vocab', join(dir, 'tok'), '--out', join(dir, 'm'), '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--max-positions', '64', '--json');
    expect(init.code, init.stderr).toBe(0);
    expect(json(init.stdout)).toMatchObject({ out: join(dir, 'm'), modelType: 'bert', layers: 1, hidden: 16, heads: 2, maxPositions: 64, seed: 42, parameters: expect.any(Number) });
  });

  it('gives blacklist show the spans and the marked text', async () => {
    const dir = await tempDir();
    const list = join(dir, 'names.txt');
    await writeFile(list, 'alice smith\n');
    const text = join(dir, 't.txt');
    await writeFile(text, 'Seen: Alice Smith, twice.');
    const r = await cli('--quiet', 'blacklist', 'show', '--blacklist', list, '--text', text, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual({ spans: [{ start: 6, end: 17, text: 'Alice Smith' }], marked: 'Seen: ⟦Alice Smith⟧, twice.' });
    const plain = await cli('--quiet', 'blacklist', 'show', '--blacklist', list, '--text', text);
    expect(plain.stdout).toBe('Seen: ⟦Alice Smith⟧, twice.\n');
  });

  it('summarises deid generate in counts', async () => {
    const out = join(await tempDir(), 'gen.jsonl');
    const r = await cli('--quiet', 'deid', 'generate', '--judgments', 'examples/legal-ko/judgments', '--replacements', 'examples/legal-ko/replacements', '--out', out, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual({ out, documents: 200, replicas: 1, replacement: 'per-epoch', spans: expect.any(Number), skipped: 0 });
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const text = await cli('--quiet', 'deid', 'generate', '--judgments', 'examples/legal-ko/judgments', '--replacements', 'examples/legal-ko/replacements', '--out', out, '--force');
    expect(text.stdout).toMatch(/^wrote .*gen\.jsonl: 200 documents \(1 replica\(s\), per-epoch replacement\), \d+ labelled spans\n$/);
  });
});
