import { describe, expect, it } from 'vitest';
import { Reporter } from '../../src/cli/reporter.js';

describe('Reporter', () => {
  it('says a warning once a run, and info only when not quiet', () => {
    let stderr = '';
    const io = { stdout: () => {}, stderr: (t: string) => void (stderr += t) };
    const quiet = new Reporter(io, { quiet: true, verbose: false });
    quiet.warn('the vocabulary was learnt on mecab morphemes');
    quiet.warn('the vocabulary was learnt on mecab morphemes');
    quiet.warn('another');
    quiet.info('not shown');
    expect(stderr).toBe('warning: the vocabulary was learnt on mecab morphemes\nwarning: another\n');
  });
});
