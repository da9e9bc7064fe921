import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/random.js';
import { corpusReference, englishReference, ownTextBlacklists, ownTextEntries } from '../../src/identifiers/index.js';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';

const doc = (author: string, text: string, id = `${author}-${text.length}`) => ({ id, author, text });

describe('protection from one individual\'s own text', () => {
  it('protects what the recognisers find and the words public English does not know, not units, clitics or typos', async () => {
    const entries = await ownTextEntries([doc('a', 'Spoke with Mrs. Kowalczyk on 3/12/2094. Her zorblat improved; gave 5mg x3 and 100cc. The pt\'s sats stable, reccomended rest.')]);
    const byTerm = new Map(entries.map((e) => [e.term, e]));
    expect(byTerm.get('kowalczyk')).toMatchObject({ kind: 'direct', category: 'PERSON' });
    expect(byTerm.get('3/12/2094')).toMatchObject({ kind: 'direct', category: 'DATE' });
    expect(byTerm.get('zorblat')).toMatchObject({ kind: 'indirect', category: 'RARE', sources: ['reference:scowl-70'], occurrences: 1 });
    for (const known of ['improved', 'gave', '5mg', 'x3', '100cc', 'rest', 'reccomended', 'spoke']) expect(byTerm.has(known), known).toBe(false);
    // `sats` and `pt` are nursing shorthand no public word list holds: protected, the price of depending on no one's text.
    expect(byTerm.has('sats')).toBe(true);
    // A nationality is a public word, however rare among these individuals: known, as an occupation is.
    expect((await ownTextEntries([doc('b', 'The Eritrean patient slept.')])).map((e) => e.term)).not.toContain('eritrean');
  });

  it('weighs a surname its own writer also writes in lower case, as a corpus-wide build does, looking at no one else', async () => {
    const terms = async (text: string) => (await ownTextEntries([doc('a', text)])).filter((e) => e.kind === 'direct').map((e) => e.term);
    expect(await terms('Gordon Brown visited. Brown said little.')).toEqual(expect.arrayContaining(['gordon brown', 'brown']));
    expect(await terms('Gordon Brown visited. The stool was brown.')).not.toContain('brown');
    // Written as a name inside a sentence twice, in lower case once: a name for this writer.
    expect(await terms('Gordon Brown visited, and later Mr Brown left. The stool was brown.')).toContain('brown');
  });

  it('a word public text uses is known once k of its individuals used it', async () => {
    const reference = await corpusReference([doc('p1', 'the zorblat was given'), doc('p2', 'a zorblat again'), doc('p3', 'one flurbix only'), doc('p3', 'flurbix twice by one')], { k: 2 });
    expect(reference.knows('zorblat')).toBe(true);
    expect(reference.knows('flurbix')).toBe(false);
    expect(reference.knows('given')).toBe(true);
    expect(reference.name).toMatch(/^scowl-70\+corpus:[0-9a-f]{16}\/k=2$/);
    expect(reference.documentKeys).toHaveLength(4);
    // Hangul is beyond the English list: left to the recognisers, unless a reference corpus knows it.
    expect(englishReference().knows('법원')).toBeUndefined();
    const entries = await ownTextEntries([doc('a', 'zorblat and flurbix today')], { reference });
    expect(entries.map((e) => e.term)).toEqual(['flurbix']);
  });

  it('one individual\'s terms do not change when anyone else\'s records are added or removed (DP\'s sensitivity)', async () => {
    const corpus = generateClinicalNotes(5, 6, 3);
    const full = await ownTextBlacklists(corpus, (d) => d.author);
    const rng = new Rng(9);
    for (let trial = 0; trial < 8; trial++) {
      const kept = corpus.filter(() => rng.next() < 0.5);
      const part = await ownTextBlacklists(kept, (d) => d.author);
      for (const [author, entries] of part) {
        const mine = corpus.filter((d) => d.author === author);
        // Only an author whose every document was kept has the same text, hence the same terms.
        if (kept.filter((d) => d.author === author).length === mine.length) expect(entries).toEqual(full.get(author));
      }
    }
    // Per document, a term of one note is not another note's.
    const perDoc = await ownTextBlacklists(corpus, (d) => d.id);
    expect(perDoc.size).toBe(corpus.length);
  });
});
