import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { readProvenance, writeModelCard, writeProvenance, defaultConfig, type Provenance } from '../../src/model/index.js';
import { FormatError } from '../../src/errors.js';
import { tempDir } from '../helpers/tmp.js';

describe('ppmlm.json', () => {
  it('reads back what it wrote; a folder without one has none', async () => {
    const dir = await tempDir();
    expect(await readProvenance(dir)).toBeUndefined();
    const provenance: Provenance = { ppmlm: '0.1.0', createdAt: '2026-12-07T00:00:00.000Z', strategy: 'constrained', blacklistFingerprint: 'ab12', epochs: 2, lossByEpoch: [3.1, 2.4], dp: { unit: 'author', epsilon: 8, delta: 1e-5, individuals: 163, noiseMultiplier: 1.1, clip: 1, sampleRate: 0.1, releases: 40, accountant: 'rdp', secureNoise: true } };
    await writeProvenance(dir, provenance);
    expect(await readProvenance(dir)).toEqual(provenance);
  });

  it('names the file and the position of a corrupt one, and the model card refuses it instead of taking it for none', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'ppmlm.json'), '{"ppmlm": "0.1.0",\n  "dp": {');
    const err = await readProvenance(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).located).toBe(`${join(dir, 'ppmlm.json')}:2: not valid JSON: it ends at column 10 before the value is complete; ppmlm.json is damaged; delete it to treat the folder as made elsewhere`);
    await expect(writeModelCard(dir, defaultConfig({ vocab_size: 100 }))).rejects.toBeInstanceOf(FormatError);
  });
});
