import { describe, expect, it } from 'vitest';
import { fstatSync, statSync } from 'node:fs';
import { withNativeStderrSilenced } from '../../src/engine/nativeStderr.js';

const sameFile = (a: { dev: number; ino: number; rdev: number }, b: { dev: number; ino: number; rdev: number }) => a.dev === b.dev && a.ino === b.ino && a.rdev === b.rdev;

describe('withNativeStderrSilenced', () => {
  it.runIf(process.platform === 'linux' || process.platform === 'darwin')('points file descriptor 2 at /dev/null while the work runs, and back after, also when it throws', async () => {
    const before = fstatSync(2);
    const devNull = statSync('/dev/null');
    const during = await withNativeStderrSilenced(async () => fstatSync(2));
    expect(sameFile(during, devNull)).toBe(true);
    expect(sameFile(fstatSync(2), before)).toBe(true);
    await expect(withNativeStderrSilenced(async () => Promise.reject(new Error('probe failed')))).rejects.toThrow('probe failed');
    expect(sameFile(fstatSync(2), before)).toBe(true);
  });
});
