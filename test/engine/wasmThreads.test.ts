import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/tmp.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the wasm backend and the host process', () => {
  it('leaves the process\'s uncaughtException and unhandledRejection listeners as it found them, so the host\'s handler still catches', async () => {
    const dir = await tempDir();
    const script = join(dir, 'host.mts');
    await writeFile(script, `
import { selectBackend } from ${JSON.stringify(join(ROOT, 'src', 'engine', 'index.ts'))};
const counts = () => [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')].join(',');
process.on('uncaughtException', (e) => { console.log('caught ' + e.message); process.exitCode = 0; });
const before = counts();
await selectBackend('wasm');
console.log('listeners ' + before + ' -> ' + counts());
setTimeout(() => { throw new Error('app'); }, 10);
`);
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, timeout: 60_000 }, (_err, stdout, stderr) => done({ code: child.exitCode, stdout, stderr }));
    });
    expect(r.stdout, r.stderr).toContain('listeners 1,0 -> 1,0');
    expect(r.stdout).toContain('caught app');
    expect(r.code).toBe(0);
  }, 90_000);
});
