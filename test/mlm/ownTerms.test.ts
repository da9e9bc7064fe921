import { describe, expect, it } from 'vitest';
import { buildWindows } from '../../src/mlm/index.js';
import { trainWordPiece } from '../../src/tokenizer/index.js';

describe('terms protected in their own unit only', () => {
  it('protects a unit\'s own term in its documents and nowhere else', async () => {
    const docs = [
      { id: 'a1', author: 'a', text: 'the zorblat was seen today' },
      { id: 'a2', author: 'a', text: 'zorblat again at noon' },
      { id: 'b1', author: 'b', text: 'the zorblat was seen today' },
    ];
    const tokenizer = await trainWordPiece(docs.map((d) => d.text), { vocabSize: 120 });
    const own = new Map([['a', [{ term: 'zorblat' }]]]);
    const { windows, stats } = await buildWindows(docs, tokenizer, { seqLen: 16, ownTerms: (d) => own.get(d.author) });
    // a's two notes protect `zorblat`; b wrote the same sentence as a1 and has nothing protected.
    expect(windows.map((w) => w.protectedMask.some((p) => p === 1))).toEqual([true, true, false]);
    // Exactly the tokens of `zorblat`, in each of a's notes.
    const zorblat = tokenizer.tokenize('zorblat').ids.length;
    expect(stats.protectedTokens).toBe(2 * zorblat);
  });
});
