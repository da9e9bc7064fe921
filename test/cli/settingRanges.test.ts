import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('a setting that several commands take', () => {
  it('has the range finetune gives it, in every command', async () => {
    const dir = await tempDir();
    const none = join(dir, 'absent');
    const seqLen = '--seq-len must be an integer between 8 and 4096, got "5000"';
    const runs: [string[], string][] = [
      [['finetune', '--model', none, '--corpus', none, '--strategy', 'standard', '--out', join(dir, 'f'), '--seq-len', '5000'], seqLen],
      [['audit', '--model', none, '--blacklist', none, '--members', none, '--non-members', none, '--out', join(dir, 'a'), '--seq-len', '5000'], seqLen],
      [['export-dataset', '--model', none, '--corpus', none, '--blacklist', none, '--out', join(dir, 'd'), '--seq-len', '5000'], seqLen],
      [['deid', 'apply', '--model', none, '--in', none, '--out', join(dir, 'x.txt'), '--seq-len', '5000'], seqLen],
      [['--quiet', 'deid', 'train', '--judgments', 'examples/legal-ko/judgments', '--replacements', 'examples/legal-ko/replacements', '--out', join(dir, 't'), '--dropout', '0.95'], '--dropout must be a number between 0 and 0.9, got "0.95"'],
      // A learning rate of 1 or 0 is no setting anyone trains with: both bounds are refused.
      [['finetune', '--model', none, '--corpus', none, '--strategy', 'standard', '--out', join(dir, 'f'), '--lr', '1'], '--lr must be a number between 0 and 1 (exclusive), got "1"'],
      [['--quiet', 'deid', 'train', '--judgments', 'examples/legal-ko/judgments', '--replacements', 'examples/legal-ko/replacements', '--out', join(dir, 't'), '--lr', '0'], '--lr must be a number between 0 and 1 (exclusive), got "0"'],
    ];
    for (const [args, message] of runs) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(`ppmlm: ${message}\n`);
    }
  });
});
