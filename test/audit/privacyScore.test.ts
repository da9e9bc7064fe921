import { describe, expect, it } from 'vitest';
import { runAudit, secretExposure, wilsonInterval } from '../../src/audit/index.js';
import { selectBackend } from '../../src/engine/index.js';
import { MENTION_SOURCE, type Blacklist } from '../../src/identifiers/index.js';
import { RuleAnalyzer } from '../../src/text/index.js';
import { WordPieceTokenizer } from '../../src/tokenizer/index.js';
import { constantModel } from '../helpers/constantModel.js';

const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'alice', 'smith', 'saw', 'bob', 'jones', 'today', '.'];

const entry = (term: string, kind: 'direct' | 'indirect') => ({ term, kind, category: kind === 'direct' ? 'PERSON' : 'RARE', authors: 1, occurrences: 1, sources: [] });
const BLACKLIST: Blacklist = { header: { version: 1, extra: {} }, entries: [entry('alice smith', 'direct'), entry('jones', 'indirect')] };
const members = [
  { id: '1', author: 'a', text: 'alice smith saw bob jones today .' },
  { id: '2', author: 'b', text: 'bob jones saw alice smith .' },
];
const nonMembers = [{ id: '3', author: 'c', text: 'bob saw alice today .' }];

describe('privacy score on models whose predictions are known', () => {
  it('is 1 - the share of occurrences recovered whole (headline) and 1 - the share of subwords (second figure)', async () => {
    await selectBackend('wasm');
    const tokenizer = new WordPieceTokenizer(VOCAB);
    const run = async (token: string) =>
      runAudit({ target: { name: token, model: constantModel(token, tokenizer), tokenizer }, members, nonMembers, blacklist: BLACKLIST, seqLen: 16 });
    // Protected tokens: alice, smith (x2 each occurrence), jones (x2). Always "smith": right on 2 of 6
    // subwords, but no occurrence recovered whole ("alice smith" needs both).
    const smith = await run('smith');
    expect(smith.privacy.all).toMatchObject({ occurrences: 4, tokens: 6, individuals: 2, score: 1, fullyRecovered: 0 });
    expect(smith.privacy.all.subword.score).toBeCloseTo(1 - 2 / 6, 10);
    expect(smith.privacy.direct.subword.score).toBeCloseTo(1 - 2 / 4, 10);
    expect(smith.privacy.direct.score).toBe(1);
    expect(smith.privacy.indirect.score).toBe(1);
    // Always "jones": both indirect occurrences recovered whole, no direct one: 2 of 4 occurrences.
    const jones = await run('jones');
    expect(jones.privacy.indirect.score).toBe(0);
    expect(jones.privacy.direct.score).toBe(1);
    expect(jones.privacy.all.score).toBeCloseTo(0.5, 10);
    // Each individual recovered one of their two occurrences: every resample of individuals gives 1/2, so
    // the bootstrap alone would collapse to [0.5, 0.5]; four occurrences support no such certainty, and
    // Wilson's interval on them widens it.
    expect(jones.privacy.all.ci).toEqual(wilsonInterval(2, 4));
    // No occurrence recovered: the score is 1, its interval not the bootstrap's collapsed [1, 1].
    expect(smith.privacy.all.ci[1]).toBe(1);
    expect(smith.privacy.all.ci[0]).toBeLessThan(1);
    expect(jones.regurgitation.rows.find((r) => r.kind === 'indirect')).toMatchObject({ top1: 1, trainingOccurrences: 2 });
    expect(jones.regurgitation.rows.every((r) => r.term.startsWith('id-'))).toBe(true);
    // A model that predicts nothing protected scores 1.
    expect((await run('today')).privacy.all.score).toBe(1);
  });

  it("never scores a mention's title: its name is scored on its own", async () => {
    await selectBackend('wasm');
    const tokenizer = new WordPieceTokenizer(VOCAB);
    // "bob jones" stands for a mention ("Mr. Jones"): "bob" is protected with "jones", never scored.
    const mention = { ...entry('bob jones', 'direct'), sources: [MENTION_SOURCE] };
    const blacklist: Blacklist = { ...BLACKLIST, entries: [...BLACKLIST.entries, mention] };
    const bob = await runAudit({ target: { name: 'bob', model: constantModel('bob', tokenizer), tokenizer }, members, nonMembers, blacklist, seqLen: 16 });
    expect(bob.privacy.all).toMatchObject({ occurrences: 4, tokens: 6, score: 1 });
    expect(bob.privacy.all.subword.score).toBe(1);
    expect(bob.regurgitation.rows).toHaveLength(2);
  });
});

describe('exposure of planted secrets on models whose predictions are known', () => {
  it('ranks the secret among fresh values by the model\'s likelihood: log2(candidates + 1) - log2(rank)', async () => {
    await selectBackend('wasm');
    const tokenizer = new WordPieceTokenizer(VOCAB);
    const probe = { label: 'p', text: 'alice smith saw bob jones today .', secret: 'jones', candidates: ['alice', 'smith', 'today', 'bob', 'jones'] };
    const exposure = async (token: string) => (await secretExposure(constantModel(token, tokenizer), tokenizer, [probe], { seqLen: 16, padId: 0 }))[0]!;
    // Predicts the secret: first of 5 (the candidate equal to the secret is dropped).
    expect(await exposure('jones')).toEqual({ label: 'p', rank: 1, candidates: 4, exposure: Math.log2(5) });
    // Predicts one candidate: that one ranks above the secret, the other three tie with it and count half:
    // ties must not favour the secret (a strict count would rank it 2nd, near the maximal exposure).
    expect((await exposure('today')).rank).toBe(3.5);
    expect((await exposure('today')).exposure).toBeCloseTo(Math.log2(5) - Math.log2(3.5), 10);
    // A model that tells no value apart: every candidate ties, the secret sits in the middle.
    expect((await exposure('[PAD]')).rank).toBe(3);
    // A candidate too long for a window yields no query: left out, not ranked below the secret.
    const long = { ...probe, candidates: ['alice', 'alice smith bob today alice smith'] };
    expect((await secretExposure(constantModel('alice', tokenizer), tokenizer, [long], { seqLen: 6, padId: 0 }))[0]).toMatchObject({ rank: 2, candidates: 1 });
    // A secret too long for a window is flagged and scores nothing.
    const unscorable = { ...probe, text: 'alice smith bob jones jones jones jones today .', secret: 'bob jones jones jones jones' };
    expect((await secretExposure(constantModel('alice', tokenizer), tokenizer, [unscorable], { seqLen: 6, padId: 0 }))[0]).toMatchObject({ unscored: 'no query', exposure: NaN });
    await expect(secretExposure(constantModel('jones', tokenizer), tokenizer, [{ ...probe, secret: 'carol' }], { seqLen: 16, padId: 0 })).rejects.toThrow(/not in its text/);
  });

  it('queries a vocabulary learnt on Korean morphemes on the secret cut as training read it', async () => {
    await selectBackend('wasm');
    // The rule analyser reads 김민도 as 김민 + 도: cut, its last piece is the word-initial 도 a model that
    // always predicts 도 gives the secret; read whole it is ##도, which that model never predicts.
    const tokenizer = new WordPieceTokenizer(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', '.', '김민', '도', '##도', '박수', '##영']);
    const probe = { label: 'p', text: '김민도 .', secret: '김민도', candidates: ['박수영'] };
    const rank = async (morphemes?: RuleAnalyzer) => (await secretExposure(constantModel('도', tokenizer), tokenizer, [probe], { seqLen: 16, padId: 0, morphemes }))[0]!.rank;
    expect(await rank(new RuleAnalyzer())).toBe(1);
    expect(await rank()).toBe(1.5);
  });
});
