import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors.js';

const KEY_BYTES = 32;
const keys = new Map<string, Buffer>();

/**
 * Where the data holder's fingerprint key lives: `$PPMLM_KEY_FILE`, else `ppmlm/fingerprint.key` in the
 * user's config folder (`$XDG_CONFIG_HOME`, or `~/.config`).
 */
export function fingerprintKeyPath(): string {
  if (process.env.PPMLM_KEY_FILE) return process.env.PPMLM_KEY_FILE;
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'ppmlm', 'fingerprint.key');
}

/**
 * The data holder's secret for fingerprints: 32 random bytes, created with mode 0600 on first use (a
 * concurrent first use keeps one of them). A key others can read would let them confirm candidates, so
 * one that is not private is refused.
 */
export function fingerprintKey(): Buffer {
  const path = fingerprintKeyPath();
  const cached = keys.get(path);
  if (cached !== undefined) return cached;
  try {
    statSync(path);
  } catch {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, randomBytes(KEY_BYTES), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    try {
      linkSync(tmp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(tmp);
    }
  }
  const info = statSync(path);
  if ((info.mode & 0o077) !== 0) throw new ConfigError(`the fingerprint key is readable by others (mode ${(info.mode & 0o777).toString(8)}); run chmod 600 on it, or delete it to make a new one (fingerprints made with it will no longer match)`, { file: path });
  const key = readFileSync(path);
  if (key.length !== KEY_BYTES) throw new ConfigError(`the fingerprint key must hold ${KEY_BYTES} bytes, not ${key.length}; delete it to make a new one`, { file: path });
  keys.set(path, key);
  return key;
}

/**
 * A streaming keyed fingerprint: HMAC-SHA256 under the data holder's key, first 16 hex digits. What
 * leaves the data holder (ppmlm.json, model cards, ONNX metadata) records blacklists and corpora so:
 * an unkeyed hash would let anyone holding a candidate list or corpus confirm it.
 *
 * @example
 * const fp = keyedFingerprinter();
 * for (const term of terms) fp.update(`${term}\0`);
 * fp.digest(); // e.g. '8c1d0a7e3f92b614'
 */
export function keyedFingerprinter(): { update(part: string): void; digest(): string } {
  const hmac = createHmac('sha256', fingerprintKey());
  return {
    update: (part) => void hmac.update(part),
    digest: () => hmac.digest('hex').slice(0, 16),
  };
}

/** {@link keyedFingerprinter} over parts, each length-prefixed so that no two lists of parts collide. */
export function keyedFingerprint(parts: Iterable<string>): string {
  const fp = keyedFingerprinter();
  for (const p of parts) fp.update(`${p.length}:${p}`);
  return fp.digest();
}
