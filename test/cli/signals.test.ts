import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/tmp.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('a command stopped by a signal', () => {
  it('exits 130 or 143 and leaves no temp file or folder of the writes it had in progress', async () => {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      const dir = await tempDir();
      const script = join(dir, 'cmd.mts');
      await writeFile(script, `
import { exitCleanlyOnSignals } from ${JSON.stringify(join(ROOT, 'src', 'cli', 'signals.ts'))};
import { openAtomicWriteStream, prepareAtomicDir } from ${JSON.stringify(join(ROOT, 'src', 'io', 'index.ts'))};
exitCleanlyOnSignals();
const stream = await openAtomicWriteStream(${JSON.stringify(join(dir, 'out', 'surrogates.jsonl'))});
await stream.write('half of a corpus\\n');
const folder = await prepareAtomicDir(${JSON.stringify(join(dir, 'out', 'model'))});
setInterval(() => undefined, 1000);
process.kill(process.pid, ${JSON.stringify(signal)});
`);
      const exit = await new Promise<number | null>((done) => {
        const child = execFile(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, timeout: 60_000 }, () => done(child.exitCode));
      });
      expect(exit, signal).toBe(code);
      expect(await readdir(join(dir, 'out')), signal).toEqual([]);
    }
  }, 120_000);
});
