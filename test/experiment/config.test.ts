import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readExperimentConfig } from '../../src/experiment/index.js';
import { tempDir } from '../helpers/tmp.js';
import { ConfigError } from '../../src/errors.js';

const BASE = { model: 'm', members: 'a.jsonl', nonMembers: 'b.jsonl', strategies: ['standard', 'constrained+dp'], epochs: [1], finetune: { targetEpsilon: 8, dpMaxWindows: 4 }, canaries: { count: 2 } };

/** Reads `config` from a folder that holds the paths BASE names, written on one line or, with `indent`, pretty. */
async function read(config: object, indent?: number): Promise<unknown> {
  const dir = await tempDir();
  await mkdir(join(dir, 'm'));
  for (const file of ['a.jsonl', 'b.jsonl']) await writeFile(join(dir, file), '');
  const path = join(dir, 'exp.json');
  await writeFile(path, JSON.stringify(config, null, indent));
  return readExperimentConfig(path);
}

/** The line an error of `read(config, 2)` names. */
async function lineOf(config: object): Promise<number | undefined> {
  const err = await read(config, 2).then(() => undefined, (e: unknown) => e);
  if (!(err instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(err)}`);
  return err.line;
}

/** The 1-based line of `config` written pretty where `needle` first stands. */
const lineIn = (config: object, needle: string) => JSON.stringify(config, null, 2).split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('readExperimentConfig', () => {
  it('reads a config whose keys are all known', async () => {
    await expect(read(BASE)).resolves.toMatchObject({ strategies: ['standard', 'constrained+dp'], seeds: [42] });
  });

  it('refuses an unknown key at any level, naming it and the known keys, instead of running with a default', async () => {
    await expect(read({ ...BASE, finetune: { targetEpsilon: 8, dpMaxWindow: 4 } })).rejects.toThrow(/^unknown key "finetune\.dpMaxWindow"; the known keys of "finetune" are seqLen, .*dpMaxWindows/);
    await expect(read({ ...BASE, seed: [1] })).rejects.toThrow(/unknown key "seed"; the known keys are model, .*seeds/);
    await expect(read({ ...BASE, canaries: { count: 2, repeat: 3 } })).rejects.toThrow(/unknown key "canaries\.repeat"/);
    await expect(read({ ...BASE, audit: [] })).rejects.toThrow(/"audit" must be a JSON object/);
    // Names every object has are no keys of the config.
    await expect(read({ ...BASE, finetune: { ...BASE.finetune, constructor: 1 } })).rejects.toThrow(/^unknown key "finetune\.constructor"/);
  });

  it('refuses a key written twice, which JSON.parse would settle silently, and a cell listed twice', async () => {
    const dir = await tempDir();
    const path = join(dir, 'twice.json');
    await writeFile(path, '{\n  "epochs": [0],\n  "model": "m",\n  "epochs": [1]\n}\n');
    const err = await readExperimentConfig(path).then(() => undefined, (e: unknown) => e as ConfigError);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.located).toBe(`${path}:4: "epochs" is given twice; keep one`);
    await expect(read({ ...BASE, strategies: ['standard', 'standard'] })).rejects.toThrow('"strategies" lists "standard" twice; keep one');
    await expect(read({ ...BASE, strategies: ['constrained+dp', 'dp+constrained'] })).rejects.toThrow('"strategies" lists "constrained+dp" and "dp+constrained", one training; keep one');
    await expect(read({ ...BASE, epochs: [1, 3, 1] })).rejects.toThrow('"epochs" lists 1 twice; keep one');
    await expect(read({ ...BASE, epochs: [] })).rejects.toThrow('"epochs" is empty: list the epoch counts to audit each strategy at, e.g. [1, 3]');
    // Without a strategy only the base model is audited: no epoch is needed.
    await expect(read({ ...BASE, strategies: [], epochs: [] })).resolves.toMatchObject({ strategies: [] });
    await expect(read({ ...BASE, columns: { text: 5 } })).rejects.toThrow('"columns.text" must be a column name (a string)');
  });

  it('refuses lists of the wrong type instead of failing on them', async () => {
    await expect(read({ ...BASE, strategies: 'standard' })).rejects.toThrow('"strategies" must be an array of strategy names, e.g. ["standard", "constrained"]');
    await expect(read({ ...BASE, epochs: 3 })).rejects.toThrow('"epochs" must be an array of positive integers, e.g. [1, 3]');
    await expect(read({ ...BASE, seeds: [1.5] })).rejects.toThrow('"seeds" must be an array of non-negative integers, e.g. [1, 2, 3]');
    await expect(read({ ...BASE, audit: { maxOccurrences: 0 } })).rejects.toThrow('"audit.maxOccurrences" must be a positive integer');
  });

  it('refuses a path that does not exist, naming its key, before any work', async () => {
    await expect(read({ ...BASE, members: 'c.jsonl' })).rejects.toThrow(/^"members": .*c\.jsonl does not exist; paths are relative to the config file's folder$/);
    await expect(read({ ...BASE, gold: 'gold' })).rejects.toThrow(/^"gold": .*gold does not exist/);
    await expect(read({ ...BASE, model: 3 })).rejects.toThrow('"model" must be a path (a string)');
  });

  it('refuses a setting outside the range its finetune flag takes, as the flag is refused', async () => {
    await expect(read({ ...BASE, finetune: { ...BASE.finetune, lr: -1 } })).rejects.toThrow('"finetune.lr" must be a number between 0 and 1 (exclusive), got -1');
    await expect(read({ ...BASE, finetune: { ...BASE.finetune, maskProb: 5 } })).rejects.toThrow('"finetune.maskProb" must be a number between 0.001 and 1, got 5');
    await expect(read({ ...BASE, finetune: { ...BASE.finetune, batchSize: 0 } })).rejects.toThrow(/"finetune.batchSize" must be an integer between 1 and \d+, got 0/);
    await expect(read({ ...BASE, finetune: { ...BASE.finetune, seqLen: '32' } })).rejects.toThrow('"finetune.seqLen" must be an integer between 8 and 4096, got "32"');
    await expect(read({ ...BASE, finetune: { ...BASE.finetune, dropout: 0.95 } })).rejects.toThrow('"finetune.dropout" must be a number between 0 and 0.9, got 0.95');
    await expect(read({ ...BASE, audit: { seqLen: 4 } })).rejects.toThrow('"audit.seqLen" must be an integer between 8 and 4096, got 4');
    await expect(read({ ...BASE, finetune: { ...BASE.finetune, lr: 1e-3, batchSize: 8, seqLen: 64 } })).resolves.toMatchObject({ finetune: { lr: 1e-3 } });
  });

  it('names the line of the value an error is about, as a syntax error does', async () => {
    const cases: [object, string][] = [
      [{ ...BASE, finetune: { ...BASE.finetune, lr: -1 } }, '"lr": -1'],
      [{ ...BASE, finetune: { ...BASE.finetune, dpMaxWindow: 4 } }, '"dpMaxWindow"'],
      [{ ...BASE, finetune: { ...BASE.finetune, untieDecoder: 'yes' } }, '"untieDecoder"'],
      [{ ...BASE, canaries: { count: 2, protect: 'some' } }, '"protect"'],
      [{ ...BASE, members: 'c.jsonl' }, '"members"'],
    ];
    for (const [config, needle] of cases) expect(await lineOf(config), needle).toBe(lineIn(config, needle));
    // An element of a list: its own line.
    const epochs = { ...BASE, epochs: [1, 0] };
    expect(await lineOf(epochs)).toBe(lineIn(epochs, '"epochs"') + 2);
    // A key the config lacks has no line of its own: the file alone.
    const { model: _, ...noModel } = BASE;
    expect(await lineOf(noModel)).toBeUndefined();
  });
});
