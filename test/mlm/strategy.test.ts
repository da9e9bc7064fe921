import { describe, expect, it } from 'vitest';
import { axesName, parseAxes, PRESETS, resolveAxes, STRATEGIES, INPUT_REWRITES, MASKING_POLICIES, PRIVACY_MECHANISMS, finetune, assertBlacklistFor } from '../../src/mlm/index.js';
import { join } from 'node:path';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/tmp.js';

describe('training axes', () => {
  it('names every point of the three axes and reads the name back, presets by their own names', () => {
    for (const masking of MASKING_POLICIES)
      for (const input of INPUT_REWRITES)
        for (const privacy of PRIVACY_MECHANISMS) {
          const axes = { masking, input, privacy };
          expect(parseAxes(axesName(axes))).toEqual(axes);
        }
    for (const s of STRATEGIES) expect(axesName(PRESETS[s])).toBe(s);
    expect(axesName({ masking: 'constrained', input: 'original', privacy: 'dp' })).toBe('constrained+dp');
    expect(parseAxes('dp+constrained')).toEqual({ masking: 'constrained', input: 'original', privacy: 'dp' });
  });

  it('lets an axis flag override the preset, and refuses unknown or repeated values', () => {
    expect(resolveAxes('constrained', { privacy: 'dp' })).toEqual({ masking: 'constrained', input: 'original', privacy: 'dp' });
    expect(resolveAxes('dp', { privacy: 'none' })).toEqual(PRESETS.standard);
    expect(resolveAxes('pseudonymized', {})).toEqual(PRESETS.pseudonymized);
    expect(() => parseAxes('constrained+constrained')).toThrow(UsageError);
    expect(() => parseAxes('standard+dp')).toThrow(/unknown --strategy "standard\+dp"/);
    expect(() => resolveAxes('standard', { masking: 'loose' as 'standard' })).toThrow(/unknown --masking "loose"; use one of standard, constrained/);
  });
});

describe('finetune (the library) without a blacklist', () => {
  it('refuses constrained masking and pseudonymized input, as the CLI does, before loading anything', async () => {
    const docs = [{ id: '1', author: 'a', text: 'Alice Whitfield seen today.' }];
    for (const strategy of ['constrained', 'pseudonymized', 'constrained+dp'] as const) {
      await expect(finetune({ model: '/nonexistent-model', docs, strategy, out: '/nonexistent-out' })).rejects.toThrow(/needs --blacklist FILE/);
    }
    expect(() => assertBlacklistFor({ masking: 'standard', input: 'original', privacy: 'dp' }, false)).not.toThrow();
  });

  it('refuses, from code as the CLI does from flags, a numeric option out of its range and an empty corpus, before loading anything', async () => {
    const docs = [{ id: '1', author: 'a', text: 'Alice Whitfield seen today.' }];
    const base = { model: '/nonexistent-model', docs, strategy: 'standard' as const, out: '/nonexistent-out' };
    const cases: [Record<string, unknown>, string][] = [
      [{ batchSize: 0 }, 'finetune: batchSize must be an integer between 1 and 9007199254740991, got 0'],
      [{ lr: -1 }, 'finetune: lr must be a number between 0 and 1 (exclusive), got -1'],
      [{ maskProb: 2 }, 'finetune: maskProb must be a number between 0.001 and 1, got 2'],
      [{ epochs: 1.5 }, 'finetune: epochs must be an integer between 1 and 9007199254740991, got 1.5'],
      [{ accumulate: 0 }, 'finetune: accumulate must be an integer between 1 and 9007199254740991, got 0'],
      [{ seqLen: 4 }, 'finetune: seqLen must be an integer between 8 and 4096, got 4'],
      [{ seqLen: 16, stride: 14 }, 'finetune: stride must be below the window\'s 14 tokens between [CLS] and [SEP], got 14'],
      [{ docs: [] }, 'finetune: docs holds no document to fine-tune on'],
      [{ strategy: 'dp', dp: { noiseMultiplier: -1 } }, 'finetune: dp.noiseMultiplier must be a number between 0.01 and Infinity, got -1'],
    ];
    for (const [options, message] of cases) {
      const err = await finetune({ ...base, ...options } as Parameters<typeof finetune>[0]).catch((e: unknown) => e);
      expect(err, message).toBeInstanceOf(UsageError);
      expect((err as Error).message).toBe(message);
    }
    // An output over the base model, or inside it, even with force: it would replace what is read.
    const dir = await tempDir();
    for (const out of [dir, join(dir, 'sub')]) await expect(finetune({ ...base, model: dir, out, force: true })).rejects.toThrow(/^--out \S+ (is the input --model too|lies inside the input --model)/);
  });
});
