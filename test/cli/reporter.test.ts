import { describe, expect, it } from 'vitest';
import { Reporter } from '../../src/cli/reporter.js';

describe('Reporter', () => {
  it('says a warning asked once a run only once, every other warning each time, and info only when not quiet', () => {
    let stderr = '';
    const io = { stdout: () => {}, stderr: (t: string) => void (stderr += t) };
    const quiet = new Reporter(io, { quiet: true, verbose: false });
    quiet.warnOnce('the vocabulary was learnt on mecab morphemes');
    quiet.warnOnce('the vocabulary was learnt on mecab morphemes');
    quiet.warn('skipped row 3');
    quiet.warn('skipped row 3');
    quiet.info('not shown');
    expect(stderr).toBe('warning: the vocabulary was learnt on mecab morphemes\nwarning: skipped row 3\nwarning: skipped row 3\n');
  });
});
