import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_MODELS, resolveModelDir } from '../../src/deid/index.js';
import { tempDir } from '../helpers/tmp.js';

describe('bundled models', () => {
  it('resolve by name to a Hugging Face folder in the package, with its licence stated', () => {
    for (const name of BUNDLED_MODELS) {
      const dir = resolveModelDir(name);
      for (const file of ['config.json', 'model.safetensors', 'tokenizer.json', 'ppmlm.json', 'README.md']) expect(existsSync(join(dir, file)), `${name}/${file}`).toBe(true);
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/^license: (?!unknown)\S+$/m);
    }
  });

  it('install with the package (its files list), not only in this checkout', () => {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { encoding: 'utf8' })) as { files: { path: string }[] }[];
    const paths = packed[0]!.files.map((f) => f.path);
    for (const name of BUNDLED_MODELS) for (const file of ['config.json', 'model.safetensors', 'tokenizer.json', 'ppmlm.json', 'README.md']) expect(paths).toContain(`models/${name}/${file}`);
  }, 60_000);

  it('leave any other path as given', () => {
    expect(resolveModelDir('runs/my-model')).toBe('runs/my-model');
  });

  it("leave a folder of a bundled model's name in the working directory to win over the bundled one", async () => {
    const here = await tempDir();
    const name = BUNDLED_MODELS[0]!;
    expect(resolveModelDir(name, here)).not.toBe(name);
    mkdirSync(join(here, name));
    expect(resolveModelDir(name, here)).toBe(join(here, name));
  });
});
