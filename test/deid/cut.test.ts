import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openModelAnalyzer, openTrainingAnalyzer, parseAnnotated, trainedOnMorphemes, type DeidSource, type SpanDocument } from '../../src/deid/index.js';
import { analyzerForLanguage } from '../../src/text/index.js';

const mecabHere = analyzerForLanguage('ko', 'auto');
const hasMecab = mecabHere?.name === 'mecab';
void mecabHere?.close();
const dir = await mkdtemp(join(tmpdir(), 'ppmlm-cut-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const doc = (id: string, text: string): SpanDocument => ({ id, author: id, text, spans: [] });
/** Span data whose training part is `train` and dev part `dev`. */
const spans = (train: string, dev?: string): DeidSource => ({ kind: 'spans', shares: [1, 1, 0], split: { train: [doc('a', train)], dev: dev === undefined ? [] : [doc('b', dev)], test: [] } });
/** An encoder folder whose record says its vocabulary was learnt on `morphemes`' cut. */
async function encoder(morphemes: string): Promise<string> {
  const at = join(dir, morphemes);
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

describe('trainedOnMorphemes', () => {
  it('follows the record in ppmlm.json, and for older models the kind of training data', () => {
    expect(trainedOnMorphemes({ ppmlm: '0', createdAt: '', morphemes: false, level: 2 })).toBe(false);
    expect(trainedOnMorphemes({ ppmlm: '0', createdAt: '', morphemes: true, data: 'spans' })).toBe(true);
    expect(trainedOnMorphemes({ ppmlm: '0', createdAt: '', level: 3 })).toBe(true);
    expect(trainedOnMorphemes({ ppmlm: '0', createdAt: '', data: 'spans' })).toBe(false);
    expect(trainedOnMorphemes(undefined)).toBe(true);
  });
});

describe('openTrainingAnalyzer', () => {
  it('reads English span data whole, and Korean span data cut only where an analyser is named or an encoder learnt its vocabulary on morphemes', async () => {
    expect(await decided(spans('Alice met Bob in Boston'), { choice: 'auto' })).toEqual({ cut: 'whole', warnings: [] });
    // Korean anywhere in the data, the dev part too, is read whole only with a warning that says both ways out.
    const korean = await decided(spans('Alice met Bob', '피해자 홍길동에게'), { choice: 'auto' });
    expect(korean.cut).toBe('whole');
    expect(korean.warnings).toEqual([expect.stringMatching(/^the span data holds Korean, read whole; pass --analyzer mecab \(or rule\).*--no-morphemes/)]);
    expect(await decided(spans('피해자 홍길동에게'), { choice: 'rule' })).toEqual({ cut: 'rule', warnings: [] });
    expect(await decided(spans('피해자 홍길동에게'), { choice: 'rule', morphemes: false })).toEqual({ cut: 'whole', warnings: [] });
    // An encoder learnt on the rule analyser's morphemes cuts Korean spans with its own analyser, unasked;
    // --no-morphemes still reads them whole.
    const rule = await encoder('rule');
    expect(await decided(spans('피해자 홍길동에게'), { choice: 'auto', model: rule })).toEqual({ cut: 'rule', warnings: [] });
    expect(await decided(spans('피해자 홍길동에게'), { choice: 'auto', model: rule, morphemes: false })).toEqual({ cut: 'whole', warnings: [] });
    // An encoder learnt on mecab's, cut here by the rule analyser, is warned about.
    const mecab = await decided(spans('피해자 홍길동에게'), { choice: 'rule', model: await encoder('mecab') });
    expect(mecab.cut).toBe('rule');
    expect(mecab.warnings).toEqual([expect.stringMatching(/^the vocabulary was learnt on mecab morphemes but the rule analyser cuts the text here/)]);
  });

  it('cuts annotated judgments without being asked, unless --no-morphemes', async () => {
    const judgment = parseAnnotated('피해자 <<<내국인이름>>>A<<</내국인이름>>>에게', 'doc_1.md');
    const source: DeidSource = { kind: 'annotated', shares: [1, 0, 0], split: { train: [judgment], dev: [], test: [] }, lists: new Map(), resolver: undefined as never, level: 2, replacement: 'single' };
    expect((await decided(source, { choice: 'auto' })).cut).toBe(hasMecab ? 'mecab' : 'rule');
    expect(await decided(source, { choice: 'auto', morphemes: false })).toEqual({ cut: 'whole', warnings: [] });
  });
});

describe('openModelAnalyzer', () => {
  const messages = () => {
    const said = { info: [] as string[], warn: [] as string[] };
    return { said, onInfo: (m: string) => said.info.push(m), onWarn: (m: string) => said.warn.push(m) };
  };

  it("follows the model's record: no analyser for a model trained on whole text, an old model's kind of data, and a warning where mecab's cut is not available", () => {
    const whole = messages();
    expect(openModelAnalyzer({ ppmlm: '0', createdAt: '', morphemes: false }, 'rule', whole)).toBeUndefined();
    expect(whole.said.info).toEqual([expect.stringMatching(/trained without morpheme pre-tokenisation/)]);
    // A model from before the record: span-trained ones read whole.
    expect(openModelAnalyzer({ ppmlm: '0', createdAt: '', data: 'spans' }, 'rule', messages())).toBeUndefined();
    const mecab = messages();
    expect(openModelAnalyzer({ ppmlm: '0', createdAt: '', morphemes: true, analyzer: 'mecab' }, 'rule', mecab)?.name).toBe('rule');
    expect(mecab.said.warn).toEqual([expect.stringMatching(/trained on mecab morphemes but text is cut by the rule analyser/)]);
  });

  it.skipIf(!hasMecab)('cuts a model trained on the rule analyser with it, whatever --analyzer names, as its recogniser does', async () => {
    const rule = messages();
    const analyzer = openModelAnalyzer({ ppmlm: '0', createdAt: '', morphemes: true, analyzer: 'rule' }, 'mecab', rule);
    expect(analyzer?.name).toBe('rule');
    expect(rule.said.warn).toEqual([]);
    await analyzer?.close();
  });
});
