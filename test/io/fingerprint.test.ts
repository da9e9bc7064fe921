import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { chmod, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fingerprintKeyPath, keyedFingerprint } from '../../src/io/index.js';
import { blacklistFingerprint, type Blacklist } from '../../src/identifiers/index.js';
import { tempDir } from '../helpers/tmp.js';

const run = promisify(execFile);
const LIST: Blacklist = { header: { version: 1, extra: {} }, entries: ['alice smith', 'bob jones'].map((term) => ({ term, kind: 'direct', category: 'PERSON', authors: 1, occurrences: 1, sources: ['t'] })) };

/** The blacklist fingerprint computed in a fresh process under the key file `key`. */
async function fingerprintUnder(key: string): Promise<string> {
  const script = "import { blacklistFingerprint } from './src/identifiers/index.ts'; console.log(blacklistFingerprint({ header: { version: 1, extra: {} }, entries: ['alice smith', 'bob jones'].map((term) => ({ term, kind: 'direct', category: 'PERSON', authors: 1, occurrences: 1, sources: ['t'] })) }));";
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, PPMLM_KEY_FILE: key } });
  return stdout.trim();
}

describe('keyed fingerprints', () => {
  it('key the blacklist fingerprint with a secret created 0600: a candidate list cannot be confirmed without it', async () => {
    const fp = blacklistFingerprint(LIST);
    expect(fp).toMatch(/^[0-9a-f]{16}$/);
    expect((await stat(fingerprintKeyPath())).mode & 0o777).toBe(0o600);
    // Not the unkeyed hash anyone could compute from the candidate terms.
    const unkeyed = createHash('sha256');
    for (const t of ['alice smith', 'bob jones']) unkeyed.update(`${t}\0`);
    expect(fp).not.toBe(unkeyed.digest('hex').slice(0, 16));
    expect(keyedFingerprint(['a', 'b'])).toBe(keyedFingerprint(['a', 'b']));
    expect(keyedFingerprint(['ab'])).not.toBe(keyedFingerprint(['a', 'b']));
    // Another data holder's key gives another fingerprint; the same key the same one.
    const dir = await tempDir();
    const other = await fingerprintUnder(join(dir, 'other.key'));
    expect(other).not.toBe(fp);
    expect(await fingerprintUnder(join(dir, 'other.key'))).toBe(other);
    expect(await fingerprintUnder(fingerprintKeyPath())).toBe(fp);
  });

  it('refuses a key others can read, or one of the wrong size, naming the file and the fix', async () => {
    const dir = await tempDir();
    const open = join(dir, 'open.key');
    await writeFile(open, Buffer.alloc(32, 1));
    await chmod(open, 0o644);
    const stderrOf = (key: string) => fingerprintUnder(key).then(() => '', (e: { stderr: string }) => e.stderr);
    expect(await stderrOf(open)).toMatch(/the fingerprint key is readable by others \(mode 644\); run chmod 600/);
    const short = join(dir, 'short.key');
    await writeFile(short, Buffer.alloc(5), { mode: 0o600 });
    expect(await stderrOf(short)).toMatch(/must hold 32 bytes, not 5/);
  });
});
