import { describe, expect, it, vi } from 'vitest';
import { Readable } from 'node:stream';
import { UsageError } from '../../src/errors.js';
import { loadCorpus } from '../../src/corpus/index.js';
import { tempFile } from '../helpers/tmp.js';
import { cli } from '../helpers/cli.js';

// Tests run as root here, which may read any file: the permission error is simulated at the stream.
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  return {
    ...fs,
    createReadStream: (path: string) => {
      if (!String(path).includes('locked')) return fs.createReadStream(path);
      const stream = new Readable({ read() {} });
      queueMicrotask(() => stream.destroy(Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', path })));
      return stream;
    },
  };
});

describe('readCorpus on an unreadable file', () => {
  it.each(['locked.csv', 'locked.tsv', 'locked.jsonl'])('%s is a one-line UsageError naming the file and the fix', async (name) => {
    const path = await tempFile(name, 'id,author,text\n1,a,x\n');
    const err = await loadCorpus(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(`${path}: permission denied; choose a path you may use, or change its permissions; check the corpus path and its permissions`);
  });

  it('exits 2 through the CLI with that one line', async () => {
    const path = await tempFile('locked.csv', 'id,author,text\n1,a,x\n');
    const { code, stderr } = await cli('corpus', 'stats', '--corpus', path);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/locked\.csv: permission denied; .*corpus path/)]);
  });
});
