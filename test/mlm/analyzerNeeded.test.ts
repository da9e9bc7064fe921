import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finetuneNeedsAnalyzer } from '../../src/mlm/index.js';

const dir = await mkdtemp(join(tmpdir(), 'ppmlm-needs-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
/** A model folder whose record says its vocabulary was learnt on `morphemes`' cut (none: no record of a cut). */
async function model(name: string, morphemes?: string): Promise<string> {
  const at = join(dir, name);
  await mkdir(at, { recursive: true });
  await writeFile(join(at, 'ppmlm.json'), JSON.stringify({ ppmlm: '0', createdAt: '', vocabulary: morphemes === undefined ? {} : { morphemes } }));
  return at;
}

describe('finetuneNeedsAnalyzer', () => {
  it('starts an analyser for a blacklist or own-text protection, and for Korean text read by a vocabulary learnt on mecab morphemes only', async () => {
    const korean = [{ text: '피해자 홍길동에게' }];
    const english = [{ text: 'Alice met Bob' }];
    const plain = await model('plain');
    const mecab = await model('mecab', 'mecab');
    expect(await finetuneNeedsAnalyzer({ model: plain, docs: korean })).toBe(false);
    expect(await finetuneNeedsAnalyzer({ model: plain, docs: english, blacklist: true })).toBe(true);
    expect(await finetuneNeedsAnalyzer({ model: plain, docs: english, protectOwnText: true })).toBe(true);
    expect(await finetuneNeedsAnalyzer({ model: mecab, docs: korean })).toBe(true);
    expect(await finetuneNeedsAnalyzer({ model: mecab, docs: english })).toBe(false);
    // The rule analyser is a function: a vocabulary learnt on its morphemes gets one of its own, nothing to start.
    expect(await finetuneNeedsAnalyzer({ model: await model('rule', 'rule'), docs: korean })).toBe(false);
  });
});
