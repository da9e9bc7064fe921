import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_MODELS, resolveModelDir } from '../../src/deid/index.js';

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
});
