import { describe, expect, it } from 'vitest';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { documentKey, publicDocumentOverlap, publicDocumentsPath, recordPublicDocuments } from '../../src/io/index.js';

describe('the record of a public corpus', () => {
  it('keeps keyed document hashes with the key (0600), and counts the training texts it holds, white space aside', async () => {
    const fp = `test${Date.now().toString(16)}`;
    expect(await publicDocumentOverlap(fp, ['anything'])).toBeUndefined();
    const path = await recordPublicDocuments(fp, ['Pt seen by Dr. Quigley.', 'A second note.'].map(documentKey));
    expect(path).toBe(publicDocumentsPath(fp));
    expect(dirname(dirname(path))).toBe(dirname(process.env.PPMLM_KEY_FILE!));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await publicDocumentOverlap(fp, ['  Pt seen by\nDr. Quigley. ', 'another note', 'A second note.'])).toBe(2);
    expect(documentKey('a b')).toMatch(/^[0-9a-f]{16}$/);
    expect(documentKey('a b')).not.toBe(documentKey('a c'));
  });
});
