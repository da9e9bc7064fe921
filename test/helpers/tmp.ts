import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temp folder, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ppmlm-test-'));
  made.push(dir);
  return dir;
}

/** Writes `content` to `name` in a fresh temp folder and returns the path. */
export async function tempFile(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, content);
  return path;
}

export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
