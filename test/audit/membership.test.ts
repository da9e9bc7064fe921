import { describe, expect, it } from 'vitest';
import { findOccurrences, membershipLevel, membershipTallies, queryTokens, type MembershipDocument, type ReferenceScorer, type Scorer } from '../../src/audit/index.js';
import type { Document } from '../../src/corpus/index.js';
import type { BlacklistEntry } from '../../src/identifiers/index.js';
import { WordPieceTokenizer } from '../../src/tokenizer/index.js';

const MEMBER_NAMES = ['alice smith', 'bob jones', 'erin black', 'fred green'];
const NON_MEMBER_NAMES = ['carol brown', 'dave white', 'gina gray', 'hank stone'];
// Members and non-members share no word, so an oracle can tell what it memorised from the label alone.
const MEMBER_WORDS = ['saw', 'doctor', 'today'];
const NON_MEMBER_WORDS = ['met', 'nurse', 'yesterday'];
const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...[...MEMBER_NAMES, ...NON_MEMBER_NAMES].flatMap((n) => n.split(' ')), ...MEMBER_WORDS, ...NON_MEMBER_WORDS];
const tokenizer = new WordPieceTokenizer(VOCAB);
const ids = (words: readonly string[]) => new Set(words.flatMap((w) => w.split(' ')).map((w) => tokenizer.idOf(w)!));

const docs = (names: string[], words: string[], who: string): Document[] =>
  names.flatMap((name, a) => [0, 1].map((k) => ({ id: `${who}${a}-${k}`, author: `${who}${a}`, text: `${name} ${words.join(' ')} ${words[k]} ${words.slice().reverse().join(' ')}` })));
const blacklist: BlacklistEntry[] = [...MEMBER_NAMES, ...NON_MEMBER_NAMES].map((term) => ({ term, kind: 'direct', category: 'PERSON', authors: 1, occurrences: 2, sources: ['test'] }));

/** A model that knows the tokens in `memorised` (log p −0.01, top-1) and nothing else (log p −2). */
function oracle(memorised: ReadonlySet<number>): Scorer {
  return async (queries) => queries.map((q) => q.labels.map((label) => (memorised.has(label) ? { label, logProb: -0.01, top: [label] } : { label, logProb: -2, top: [0] })));
}

async function attack(target: Scorer, references: ReferenceScorer[] = []) {
  const prepare = async (ds: Document[]): Promise<MembershipDocument[]> => {
    const bodies = ds.map((d) => tokenizer.tokenize(d.text));
    const found = await findOccurrences(ds, bodies, blacklist);
    return ds.map((d, i) => ({ id: d.id, author: d.author, body: bodies[i]!, protectedMask: found.protectedMasks[i]!, occurrences: found.occurrences.filter((o) => o.doc === i).map((o) => o.tokens) }));
  };
  const members = await prepare(docs(MEMBER_NAMES, MEMBER_WORDS, 'm'));
  const nonMembers = await prepare(docs(NON_MEMBER_NAMES, NON_MEMBER_WORDS, 'n'));
  const options = { seqLen: 16, maskProb: 0.3, seed: 1, pllSamples: 2, tokens: queryTokens(tokenizer), iterations: 50 };
  const models = { target, reference: oracle(new Set()), references };
  const m = (await membershipTallies(members, 1, models, options)).tallies;
  const n = (await membershipTallies(nonMembers, 2, models, options)).tallies;
  return {
    document: membershipLevel({ docs: members, tallies: m }, { docs: nonMembers, tallies: n }, references, 'document', 1),
    individual: membershipLevel({ docs: members, tallies: m }, { docs: nonMembers, tallies: n }, references, 'individual', 1),
  };
}

describe('membership inference in three variants, on oracle models', () => {
  it('finds a model that memorised only protected tokens through the protected positions alone', async () => {
    const r = await attack(oracle(ids(MEMBER_NAMES)));
    for (const level of [r.document, r.individual]) {
      for (const a of ['loss', 'calibrated', 'pllRatio'] as const) {
        expect(level.protected![a]!.auc).toBe(1);
        expect(level.unprotected![a]!.auc).toBe(0.5);
      }
      // All positions pool the protected ones with the rest: part of the signal.
      expect(level.all!.loss.auc).toBeGreaterThan(0.5);
      // Every resample separates perfectly; the interval still says how few units that rests on.
      expect(level.protected!.loss.ci.auc[1]).toBe(1);
      expect(level.protected!.loss.ci.auc[0]).toBeLessThan(0.9);
      expect(level.protected!.loss.tprAt1).toBe(1);
    }
    expect(r.document.all).toMatchObject({ members: 8, nonMembers: 8 });
    expect(r.individual.all).toMatchObject({ members: 4, nonMembers: 4 });
  });

  it('finds a model that memorised only the rest through the unprotected positions alone', async () => {
    const r = await attack(oracle(ids(MEMBER_WORDS)));
    for (const level of [r.document, r.individual]) {
      for (const a of ['loss', 'calibrated', 'pllRatio'] as const) {
        expect(level.unprotected![a]!.auc).toBe(1);
        expect(level.protected![a]!.auc).toBe(0.5);
      }
      expect(level.unprotected!.loss.ci.auc[1]).toBe(1);
      expect(level.unprotected!.loss.ci.auc[0]).toBeLessThan(0.9);
      // All tied: every resample gives 0.5, yet 8 against 8 cannot rule out a signal either way.
      expect(level.protected!.loss.ci.auc[0]).toBeLessThan(0.5);
      expect(level.protected!.loss.ci.auc[1]).toBeGreaterThan(0.5);
    }
  });

  it('says why LiRA is missing when a unit has fewer than 2 references that did not train on it, instead of dropping it silently', async () => {
    const reference = (trainedOn?: string[]): ReferenceScorer => ({ scorer: oracle(new Set()), ...(trainedOn && { trainedOn: new Set(trainedOn) }) });
    const full = await attack(oracle(ids(MEMBER_NAMES)), [reference(), reference()]);
    expect(full.document.all!.lira).toBeDefined();
    expect(full.document.all!.liraMissing).toBeUndefined();
    // One reference trained on a document with the id of member document m0-0: that document has one out-reference.
    const short = await attack(oracle(ids(MEMBER_NAMES)), [reference(['m0-0']), reference()]);
    expect(short.document.all!.lira).toBeUndefined();
    expect(short.document.all!.liraMissing).toMatch(/^1 of 16 documents have fewer than 2 reference models that did not train on them/);
    expect(short.individual.all!.liraMissing).toMatch(/^1 of 8 individuals/);
  });
});
