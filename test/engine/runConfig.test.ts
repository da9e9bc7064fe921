import { describe, expect, it } from 'vitest';
import { contentFingerprint, diffRunConfig } from '../../src/engine/runConfig.js';

describe('diffRunConfig', () => {
  it('is empty when every setting agrees, whatever the key order', () => {
    expect(diffRunConfig({ '--lr': 0.001, '--strategy': 'standard', '--max-steps': null }, { '--strategy': 'standard', '--max-steps': null, '--lr': 0.001 })).toEqual([]);
  });

  it('names each differing setting with its checkpoint value, then the current one', () => {
    expect(diffRunConfig({ '--strategy': 'standard', '--lr': 0.001, '--seed': 42, '--whole-word': false }, { '--strategy': 'constrained', '--lr': 0.0005, '--seed': 42, '--whole-word': true })).toEqual([
      '--strategy "standard" → "constrained"',
      '--lr 0.001 → 0.0005',
      '--whole-word false → true',
    ]);
  });

  it('counts a setting on one side only as a difference against unset, and null as unset', () => {
    expect(diffRunConfig({ '--max-steps': 5, '--dropout': null }, { '--grad-accum': 2 })).toEqual(['--grad-accum unset → 2', '--max-steps 5 → unset']);
  });
});

describe('contentFingerprint', () => {
  it('is 16 hex digits that change with the content, its order and its boundaries', () => {
    const a = contentFingerprint(['note one', 'note two']);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(contentFingerprint(['note one', 'note two'])).toBe(a);
    expect(contentFingerprint(['note two', 'note one'])).not.toBe(a);
    expect(contentFingerprint(['note on', 'enote two'])).not.toBe(a);
  });
});
