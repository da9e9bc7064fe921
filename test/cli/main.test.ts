import { describe, expect, it, vi } from 'vitest';
import { cli } from '../helpers/cli.js';

// A bug whose message quotes the document being processed, as a parser's error quotes its row.
vi.mock('../../src/cli/commands/info.js', () => ({
  info: async () => {
    throw new Error('Parse Error: unexpected quote in row "Okonkwo Adaeze, MRN 48213377"');
  },
}));

describe('the CLI\'s one catch', () => {
  it('prints neither the message nor the stack of an internal error at default verbosity', async () => {
    const r = await cli('info');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^ppmlm: internal error, please report it .*; rerun with --verbose for details/);
    expect(r.stdout + r.stderr).not.toMatch(/Okonkwo|48213377|at .*\.ts/);
  });

  it('prints them with --verbose', async () => {
    const r = await cli('--verbose', 'info');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/internal error: Error: Parse Error: unexpected quote in row "Okonkwo/);
  });
});
