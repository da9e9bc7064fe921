import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readExperimentConfig } from '../../src/experiment/index.js';
import { tempDir } from '../helpers/tmp.js';

const BASE = { model: 'm', members: 'a.jsonl', nonMembers: 'b.jsonl', strategies: ['standard', 'constrained+dp'], epochs: [1], finetune: { targetEpsilon: 8, dpMaxWindows: 4 }, canaries: { count: 2 } };

async function read(config: object): Promise<unknown> {
  const path = join(await tempDir(), 'exp.json');
  await writeFile(path, JSON.stringify(config));
  return readExperimentConfig(path);
}

describe('readExperimentConfig', () => {
  it('reads a config whose keys are all known', async () => {
    await expect(read(BASE)).resolves.toMatchObject({ strategies: ['standard', 'constrained+dp'], seeds: [42] });
  });

  it('refuses an unknown key at any level, naming it and the known keys, instead of running with a default', async () => {
    await expect(read({ ...BASE, finetune: { targetEpsilon: 8, dpMaxWindow: 4 } })).rejects.toThrow(/^unknown key "finetune\.dpMaxWindow"; the known keys of "finetune" are seqLen, .*dpMaxWindows/);
    await expect(read({ ...BASE, seed: [1] })).rejects.toThrow(/unknown key "seed"; the known keys are model, .*seeds/);
    await expect(read({ ...BASE, canaries: { count: 2, repeat: 3 } })).rejects.toThrow(/unknown key "canaries\.repeat"/);
    await expect(read({ ...BASE, audit: [] })).rejects.toThrow(/"audit" must be a JSON object/);
  });
});
