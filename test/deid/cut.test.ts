import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openModelAnalyzer, openTrainingAnalyzer, parseAnnotated, splitDocuments, type DeidSource, type SpanDocument } from '../../src/deid/index.js';

const dir = await mkdtemp(join(tmpdir(), 'ppmlm-cut-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const spans = (text: string): DeidSource => {
  const docs: SpanDocument[] = [{ id: 'a', author: 'a', text, spans: [] }];
  return { kind: 'spans', shares: [1, 0, 0], split: splitDocuments(docs, [1, 0, 0], 1) };
};
/** An encoder folder whose record says its vocabulary was learnt on `morphemes`' cut. */
async function encoder(morphemes: string): Promise<string> {
  const at = join(dir, morphemes);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(at, { recursive: true });
  await writeFile(join(at, 'ppmlm.json'), JSON.stringify({ ppmlm: '0', createdAt: '', vocabulary: { morphemes } }));
  return at;
}
/** What `openTrainingAnalyzer` decides: the analyser's name (or "whole") and what it warned. */
async function decided(source: DeidSource, options: Omit<Parameters<typeof openTrainingAnalyzer>[1], 'onWarn'>) {
  const warnings: string[] = [];
  const { analyzer, close } = await openTrainingAnalyzer(source, { ...options, onWarn: (w) => warnings.push(w) });
  await close();
  return { cut: analyzer?.name ?? 'whole', warnings };
}

describe('openTrainingAnalyzer', () => {
  it('reads English span data whole, and Korean span data cut only where an analyser is named or an encoder learnt its vocabulary on morphemes', async () => {
    expect(await decided(spans('Alice met Bob in Boston'), { choice: 'auto' })).toEqual({ cut: 'whole', warnings: [] });
    const korean = await decided(spans('피해자 홍길동에게'), { choice: 'auto' });
    expect(korean.cut).toBe('whole');
    expect(korean.warnings).toEqual([expect.stringMatching(/^the span data holds Korean, read whole; pass --analyzer mecab/)]);
    expect(await decided(spans('피해자 홍길동에게'), { choice: 'rule' })).toEqual({ cut: 'rule', warnings: [] });
    expect(await decided(spans('피해자 홍길동에게'), { choice: 'rule', morphemes: false })).toEqual({ cut: 'whole', warnings: [] });
    // An encoder learnt on the rule analyser's morphemes cuts Korean spans with its own analyser, unasked.
    expect(await decided(spans('피해자 홍길동에게'), { choice: 'auto', model: await encoder('rule') })).toEqual({ cut: 'rule', warnings: [] });
  });

  it('cuts annotated judgments always, with the analyser named', async () => {
    const doc = parseAnnotated('피해자 <<<내국인이름>>>A<<</내국인이름>>>에게', 'doc_1.md');
    const source: DeidSource = { kind: 'annotated', shares: [1, 0, 0], split: splitDocuments([doc], [1, 0, 0], 1), lists: new Map(), resolver: undefined as never, level: 2, replacement: 'single' };
    expect(await decided(source, { choice: 'rule' })).toEqual({ cut: 'rule', warnings: [] });
  });
});

describe('openModelAnalyzer', () => {
  it("follows the model's record: no analyser for a model trained on whole text, and a warning where the analyser differs from its training's", () => {
    const info: string[] = [];
    const warn: string[] = [];
    const messages = { onInfo: (m: string) => info.push(m), onWarn: (m: string) => warn.push(m) };
    expect(openModelAnalyzer({ ppmlm: '0', createdAt: '', morphemes: false }, 'rule', messages)).toBeUndefined();
    expect(info.pop()).toMatch(/trained without morpheme pre-tokenisation/);
    expect(openModelAnalyzer({ ppmlm: '0', createdAt: '', morphemes: true, analyzer: 'mecab' }, 'rule', messages)?.name).toBe('rule');
    expect(warn).toEqual([expect.stringMatching(/trained on mecab morphemes but text is cut by the rule analyser/)]);
  });
});
