import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/index.js';
import { IGNORE, eligiblePositions, makeBatch, mask, randomPool, type TrainingWindow } from '../../src/mlm/index.js';

const CONFIG = { probability: 0.15, maskId: 4, randomPool: randomPool(100, new Set([0, 1, 2, 3, 4, 50])) };

/** A random window: [CLS] tokens [SEP], some tokens protected, words of 1-3 tokens. */
function randomWindow(rng: Rng, n: number): TrainingWindow {
  const ids = Int32Array.from({ length: n }, (_, i) => (i === 0 ? 2 : i === n - 1 ? 3 : 5 + rng.int(90)));
  const special = Uint8Array.from({ length: n }, (_, i) => (i === 0 || i === n - 1 ? 1 : 0));
  const protectedMask = Uint8Array.from({ length: n }, (_, i) => (special[i] ? 0 : rng.next() < 0.3 ? 1 : 0));
  const words = new Int32Array(n).fill(-1);
  let w = 0;
  for (let i = 1; i < n - 1; ) {
    const len = 1 + rng.int(3);
    for (let k = 0; k < len && i < n - 1; k++, i++) words[i] = w;
    w++;
  }
  return { doc: 0, ids, special, protectedMask, words };
}

describe('mask (property tests over random documents and blacklists)', () => {
  it('never selects a protected position for constrained, nor a special one for any strategy', () => {
    const rng = new Rng(1);
    for (let trial = 0; trial < 300; trial++) {
      const w = randomWindow(rng, 5 + rng.int(60));
      for (const wholeWord of [false, true]) {
        for (const strategy of ['standard', 'constrained'] as const) {
          const { labels } = mask(w.ids, eligiblePositions(strategy, w), CONFIG, new Rng(trial), wholeWord ? w.words : undefined);
          labels.forEach((label, i) => {
            if (label === IGNORE) return;
            expect(w.special[i]).toBe(0);
            if (strategy === 'constrained') expect(w.protectedMask[i]).toBe(0);
            expect(label).toBe(w.ids[i]);
          });
        }
      }
    }
  });

  it('selects a share of eligible tokens that converges to p, with 80/10/10 replacement', () => {
    const rng = new Rng(2);
    let eligible = 0;
    let selected = 0;
    let masked = 0;
    let replaced = 0;
    for (let trial = 0; trial < 400; trial++) {
      const w = randomWindow(rng, 128);
      const e = eligiblePositions('constrained', w);
      const { inputIds, labels } = mask(w.ids, e, CONFIG, new Rng(1000 + trial));
      eligible += e.reduce((a, b) => a + b, 0);
      labels.forEach((l, i) => {
        if (l === IGNORE) return;
        selected++;
        if (inputIds[i] === 4) masked++;
        else if (inputIds[i] !== w.ids[i]) replaced++;
      });
    }
    expect(selected / eligible).toBeGreaterThan(0.14);
    expect(selected / eligible).toBeLessThan(0.16);
    expect(masked / selected).toBeGreaterThan(0.77);
    expect(masked / selected).toBeLessThan(0.83);
    expect(replaced / selected).toBeGreaterThan(0.07);
    expect(replaced / selected).toBeLessThan(0.12);
  });

  it('makes standard equal constrained with an empty blacklist, bit for bit, and constrained = standard minus protected', () => {
    const rng = new Rng(3);
    for (let trial = 0; trial < 100; trial++) {
      const w = randomWindow(rng, 40);
      const noBlacklist = { ...w, protectedMask: new Uint8Array(w.ids.length) };
      const std = mask(noBlacklist.ids, eligiblePositions('standard', noBlacklist), CONFIG, new Rng(trial));
      const con = mask(noBlacklist.ids, eligiblePositions('constrained', noBlacklist), CONFIG, new Rng(trial));
      expect(con).toEqual(std);
      const stdP = mask(w.ids, eligiblePositions('standard', w), CONFIG, new Rng(trial));
      const conP = mask(w.ids, eligiblePositions('constrained', w), CONFIG, new Rng(trial));
      stdP.labels.forEach((l, i) => expect(conP.labels[i]).toBe(w.protectedMask[i] ? IGNORE : l));
    }
  });

  it('masks all subwords of a selected word together in whole-word mode', () => {
    const rng = new Rng(4);
    for (let trial = 0; trial < 100; trial++) {
      const w = randomWindow(rng, 50);
      const { labels } = mask(w.ids, eligiblePositions('constrained', w), { ...CONFIG, probability: 0.4 }, new Rng(trial), w.words);
      const byWord = new Map<number, boolean[]>();
      labels.forEach((l, i) => w.words[i]! >= 0 && byWord.set(w.words[i]!, [...(byWord.get(w.words[i]!) ?? []), l !== IGNORE]));
      for (const flags of byWord.values()) expect(new Set(flags).size).toBe(1);
    }
  });

  it('never draws excluded ids as random replacements and is deterministic for a seed', () => {
    const w = randomWindow(new Rng(5), 500);
    const a = mask(w.ids, eligiblePositions('standard', w), { ...CONFIG, probability: 1, maskShare: 0, randomShare: 1 }, new Rng(9));
    for (const id of a.inputIds.slice(1, -1)) expect([0, 1, 2, 3, 4, 50]).not.toContain(id);
    expect(mask(w.ids, eligiblePositions('standard', w), CONFIG, new Rng(9))).toEqual(mask(w.ids, eligiblePositions('standard', w), CONFIG, new Rng(9)));
    expect(Array.from(w.ids)).toEqual(Array.from(randomWindow(new Rng(5), 500).ids));
  });
});

describe('makeBatch', () => {
  it('pads windows, flattens target positions and counts protected targets honestly', () => {
    const rng = new Rng(6);
    const windows = [randomWindow(rng, 30), randomWindow(rng, 20)];
    const std = makeBatch(windows, 'standard', { ...CONFIG, probability: 0.5, padId: 0 }, () => new Rng(1));
    const con = makeBatch(windows, 'constrained', { ...CONFIG, probability: 0.5, padId: 0 }, () => new Rng(1));
    expect(std.seqLen).toBe(30);
    expect(Array.from(std.attentionMask.slice(30 + 20))).toEqual(new Array(10).fill(0));
    expect(Array.from(std.inputIds.slice(30 + 20))).toEqual(new Array(10).fill(0));
    expect(std.protectedTargets).toBeGreaterThan(0);
    expect(con.protectedTargets).toBe(0);
    for (const p of std.positions) expect(std.attentionMask[p]).toBe(1);
  });

  it('marks the protected positions as frozen inputs only when asked, padded like the ids, with the same masks', () => {
    const rng = new Rng(8);
    const windows = [randomWindow(rng, 30), randomWindow(rng, 20)];
    const plain = makeBatch(windows, 'constrained', { ...CONFIG, padId: 0 }, () => new Rng(2));
    const frozen = makeBatch(windows, 'constrained', { ...CONFIG, padId: 0, freezeProtectedInputs: true }, () => new Rng(2));
    expect(plain.frozenInputs).toBeUndefined();
    expect(Array.from(frozen.frozenInputs!)).toEqual([...windows[0]!.protectedMask, ...windows[1]!.protectedMask, ...new Array(10).fill(0)]);
    expect(frozen.inputIds).toEqual(plain.inputIds);
    expect(frozen.positions).toEqual(plain.positions);
  });
});
