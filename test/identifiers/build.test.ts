import { UsageError } from '../../src/errors.js';
import { describe, expect, it } from 'vitest';
import { buildBlacklist, closeRecognizers, defaultRecognizers, detectDirect, GazetteerRecognizer, MODEL_SOURCE, patternRecognizers, blacklistFingerprint, silverLabels, type BlacklistEntry, type Recognizer } from '../../src/identifiers/index.js';
import type { Document } from '../../src/corpus/index.js';
import { dropCapitalEvidence, tallyDetection, type DirectTally } from '../../src/identifiers/build.js';
import { formatBlacklist, parseBlacklist } from '../../src/identifiers/blacklist/index.js';
import { Rng } from '../../src/engine/index.js';
import { RuleAnalyzer, analyzerForLanguage } from '../../src/text/index.js';

/** alpha: all three authors; beta: a and b; gamma: only c (twice); delta: only a. */
const CORPUS: Document[] = [
  { id: '1', author: 'a', text: 'alpha beta delta' },
  { id: '2', author: 'b', text: 'alpha beta' },
  { id: '3', author: 'c', text: 'alpha gamma' },
  { id: '4', author: 'c', text: 'gamma alpha' },
];

const terms = (entries: BlacklistEntry[]) => entries.map((e) => e.term).sort();
/** A build that keeps its detections, and the silver labels they give, each with the text it covers. */
async function silverOf(docs: Document[], options: Parameters<typeof buildBlacklist>[1]) {
  const { blacklist, engine, found, stats } = await buildBlacklist(docs, { ...options, keepDetections: true });
  await engine.close();
  const labels: { id: string; text: string; label: string }[] = [];
  for await (const d of silverLabels(docs, found!, blacklist)) labels.push(...d.spans.map((s) => ({ id: d.id, text: d.text.slice(s.start, s.end), label: s.label })));
  return { blacklist, stats, labels };
}

describe('buildBlacklist: the author-word graph threshold', () => {
  it('k=1 blacklists nothing (no term has fewer than 1 author)', async () => {
    const { blacklist, engine } = await buildBlacklist(CORPUS, { k: 1, ngrams: [1, 1] });
    await engine.close();
    expect(blacklist.entries).toEqual([]);
  });

  it('k=2 blacklists the terms of exactly one author, counting distinct authors not documents', async () => {
    const { blacklist, engine } = await buildBlacklist(CORPUS, { k: 2, ngrams: [1, 1] });
    await engine.close();
    expect(terms(blacklist.entries)).toEqual(['delta', 'gamma']);
    expect(blacklist.entries.find((e) => e.term === 'gamma')).toEqual({ term: 'gamma', kind: 'indirect', category: 'RARE', authors: 1, occurrences: 2, sources: ['graph:k=2'] });
  });

  it('k=3 adds the terms of two authors', async () => {
    const { blacklist, engine } = await buildBlacklist(CORPUS, { k: 3, ngrams: [1, 1] });
    await engine.close();
    expect(terms(blacklist.entries)).toEqual(['beta', 'delta', 'gamma']);
  });

  it('builds n-grams, honours the stop list and minimum occurrences', async () => {
    const { blacklist, engine } = await buildBlacklist(CORPUS, { k: 2, ngrams: [1, 2], stopList: new Set(['delta']), minOccurrences: 2 });
    await engine.close();
    expect(terms(blacklist.entries)).toEqual(['gamma']);
    const all = await buildBlacklist(CORPUS, { k: 2, ngrams: [2, 2], allNgrams: true });
    await all.engine.close();
    expect(terms(all.blacklist.entries)).toEqual(['alpha gamma', 'beta delta', 'gamma alpha']);
    // By default an n-gram is a term only when it holds a listed name that is no common word.
    const anchored = await buildBlacklist(CORPUS, { k: 2, ngrams: [2, 2] });
    await anchored.engine.close();
    expect(terms(anchored.blacklist.entries)).toEqual([]);
    // ... and when its other words are names, initials or words no English list holds: "robert v quigley",
    // not "with quigley", nor the figures after a name ("quigley 16").
    const named = await buildBlacklist([{ id: '1', author: 'a', text: 'left the room with Robert V Quigley 16 11' }, { id: '2', author: 'b', text: 'left the room' }], { k: 2, ngrams: [1, 3], recognizers: [] });
    await named.engine.close();
    expect(terms(named.blacklist.entries).filter((t) => t.includes(' '))).toEqual(['robert v', 'robert v quigley', 'v quigley']);
  });

  it('gives identical blacklists with the graph, counting and DuckDB engines, and after spilling to DuckDB', async () => {
    const names = ['quigley', 'mcallister', 'hendricks', 'okonkwo'];
    // Words of letters only, so that anchored n-grams hold them (a number is no part of a name).
    const letters = (n: number) => n.toString(10).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
    const docs = Array.from({ length: 300 }, (_, i): Document => ({ id: String(i), author: `p${i % 37}`, text: `word${letters(i % 11)} shared ${names[i % 4]} term${letters(i % 53)} x${(i * 7) % 101} 홍길동${i % 5}이` }));
    const run = async (engine: 'auto' | 'graph' | 'duckdb' | 'counting', spillTerms?: number) => {
      const r = await buildBlacklist(docs, { k: 3, engine, spillTerms, analyzer: new RuleAnalyzer() });
      await r.engine.close();
      return { entries: r.blacklist.entries.sort((a, b) => (a.term < b.term ? -1 : 1)), engine: r.engine.name };
    };
    const graph = await run('graph');
    const duck = await run('duckdb');
    const counting = await run('counting');
    const spilled = await run('auto', 100);
    expect([graph.engine, duck.engine, counting.engine, spilled.engine]).toEqual(['graph', 'duckdb', 'counting', 'duckdb']);
    expect(graph.entries.length).toBeGreaterThan(10);
    expect(duck.entries).toEqual(graph.entries);
    expect(counting.entries).toEqual(graph.entries);
    expect(spilled.entries).toEqual(graph.entries);
  });
});

describe('the engines against one another', () => {
  it('counting (interned n-grams) and DuckDB give the graph\'s rare terms and usages on random corpora and n-gram options (property)', async () => {
    const rng = new Rng(11);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rng.next() * xs.length)]!;
    const vocabulary = ['a', 'bb', 'Cc', 'cc', '1', '22', '3', 'x-1', 'ÉTÉ', 'été', 'o’k'];
    for (let trial = 0; trial < 25; trial++) {
      const docs = Array.from({ length: 2 + Math.floor(rng.next() * 12) }, (_, i): Document => ({
        id: String(i),
        author: pick(['p', 'q', 'r', 's']),
        text: Array.from({ length: Math.floor(rng.next() * 9) }, () => pick(vocabulary)).join(' '),
      }));
      const min = 1 + Math.floor(rng.next() * 2);
      const options = { k: 1 + Math.floor(rng.next() * 3), ngrams: [min, min + Math.floor(rng.next() * 3)] as [number, number], ignoreNumbers: rng.next() < 0.5, minLength: 1 + Math.floor(rng.next() * 3) };
      const sorted = async (engine: 'graph' | 'counting' | 'duckdb') => {
        const r = await buildBlacklist(docs, { ...options, engine });
        const everyTerm = await r.engine.usage(vocabulary.map((w) => w.toLowerCase()).concat(['a bb', 'bb a 1', '1 22', 'zz']));
        const stats = await r.engine.stats();
        await r.engine.close();
        // The counting engine stops counting authors at k.
        const usage = [...everyTerm.values()].map((u) => ({ ...u, authors: Math.min(u.authors, options.k) }));
        return { entries: r.blacklist.entries.sort((a, b) => (a.term < b.term ? -1 : 1)), usage, terms: stats.terms, authors: stats.authors };
      };
      const graph = await sorted('graph');
      expect(await sorted('counting'), JSON.stringify({ docs, options })).toEqual(graph);
      if (trial < 5) expect({ ...(await sorted('duckdb')), usage: [] }, JSON.stringify({ docs, options })).toEqual({ ...graph, usage: [] });
    }
  });
});

describe('buildBlacklist: direct identifiers', () => {
  it('lists recognised identifiers as direct with category, authors and provenance, once', async () => {
    const docs: Document[] = [
      { id: '1', author: 'a', text: 'Call 617-555-0142 about Alice.' },
      { id: '2', author: 'b', text: 'Alice called from 617-555-0142.' },
    ];
    const names = new GazetteerRecognizer(['Alice'], { category: 'PERSON', source: 'list:names.txt' });
    const { blacklist, engine } = await buildBlacklist(docs, { k: 2, recognizers: [...patternRecognizers('phone'), names] });
    await engine.close();
    const direct = blacklist.entries.filter((e) => e.kind === 'direct');
    expect(direct).toEqual([
      { term: '617-555-0142', kind: 'direct', category: 'PHONE', authors: 2, occurrences: 2, sources: ['rule:phone'] },
      { term: 'alice', kind: 'direct', category: 'PERSON', authors: 2, occurrences: 2, sources: ['list:names.txt'] },
    ]);
    expect(blacklist.header).toMatchObject({ k: 2, ngrams: [1, 3], corpus: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('a term found both ways is direct with both sources', async () => {
    // A phone number is a number (digit groups joined by hyphens): an indirect term only with numbers kept.
    const { blacklist, engine } = await buildBlacklist([{ id: '1', author: 'a', text: 'reach me at 617-555-0142' }, { id: '2', author: 'b', text: 'reach me' }], {
      recognizers: patternRecognizers('phone'),
      ignoreNumbers: false,
    });
    await engine.close();
    expect(blacklist.entries.find((e) => e.term === '617-555-0142')).toMatchObject({ kind: 'direct', sources: ['rule:phone', 'graph:k=2'] });
    expect(blacklist.entries.filter((e) => e.term === '617-555-0142')).toHaveLength(1);
  });

  it('fingerprints the terms, not their order', () => {
    const e = (term: string): BlacklistEntry => ({ term, kind: 'direct', category: 'X', authors: 1, occurrences: 1, sources: [] });
    const h = { version: 1 as const, extra: {} };
    expect(blacklistFingerprint({ header: h, entries: [e('a'), e('b')] })).toBe(blacklistFingerprint({ header: h, entries: [e('b'), e('a')] }));
    expect(blacklistFingerprint({ header: h, entries: [e('a')] })).not.toBe(blacklistFingerprint({ header: h, entries: [e('b')] }));
  });
});

describe('GazetteerRecognizer', () => {
  it('matches capitalised names only and can require context words', async () => {
    const g = new GazetteerRecognizer(['Will', 'Rose'], { category: 'PERSON', source: 'list:n' });
    expect((await g.find('Will said he will call Rose.')).map((d) => d.start)).toEqual([0, 23]);
    const ctx = new GazetteerRecognizer(['Rose'], { category: 'PERSON', source: 'list:n', contextWords: ['mrs'] });
    expect(await ctx.find('Rose Garden')).toEqual([]);
    expect((await ctx.find('Mrs. Rose called')).length).toBe(1);
  });
});

describe('buildBlacklist: how often a model agreed with itself (modelAgreement)', () => {
  /** A stand-in model: it marks "Smith" wherever it stands, "Rowan" only in the first note. */
  const model: Recognizer = {
    name: `${MODEL_SOURCE}fake`,
    find: (text) => [...text.matchAll(/\bSmith\b|(?<=^first )Rowan\b/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, category: 'PERSON', source: `${MODEL_SOURCE}fake` })),
  };
  const rule = new GazetteerRecognizer(['Rowan'], { category: 'PERSON', source: 'list:test' });
  const notes: Document[] = [
    { id: '1', author: 'a', text: 'first Rowan seen by Smith' },
    ...Array.from({ length: 9 }, (_, i) => ({ id: `${i + 2}`, author: `p${i}`, text: `Rowan stable, Smith aware` })),
  ];
  const direct = (entries: BlacklistEntry[]) => terms(entries.filter((e) => e.kind === 'direct'));

  it('drops a term the model marked at one place in ten, keeps one it marked at all; 0 keeps both', async () => {
    const kept = await buildBlacklist(notes, { recognizers: [model], ngrams: [1, 1] });
    await kept.engine.close();
    expect(direct(kept.blacklist.entries)).toEqual(['smith']);
    expect(kept.stats.modelDropped).toBe(1);
    expect(kept.blacklist.header.extra['model-agreement']).toBe('0.2');
    const all = await buildBlacklist(notes, { recognizers: [model], ngrams: [1, 1], modelAgreement: 0 });
    await all.engine.close();
    expect(direct(all.blacklist.entries)).toEqual(['rowan', 'smith']);
  });

  it('gives silver labels only the detections whose term the build kept: a term dropped for agreement is no label', async () => {
    let calls = 0;
    const counted: Recognizer = { name: model.name, find: (text) => (calls++, model.find(text)) };
    const built = await silverOf(notes, { recognizers: [counted], ngrams: [1, 1] });
    expect(built.stats.modelDropped).toBe(1);
    expect(built.labels.map((l) => `${l.text}:${l.label}`)).toEqual(Array.from({ length: 10 }, () => 'Smith:PERSON'));
    // The labels come from the build's own reading: the recogniser ran once a document.
    expect(calls).toBe(notes.length);
    // Kept by every term the model found, Rowan is a label where it was found.
    const all = await silverOf(notes, { recognizers: [model], ngrams: [1, 1], modelAgreement: 0 });
    expect(all.labels.filter((l) => l.text === 'Rowan')).toHaveLength(1);
  });

  it('gives no silver label where the corpus overruled a capital: a drug capitalised at one place, in lower case at others', async () => {
    const drug: Document[] = [
      { id: '1', author: 'a', text: 'Seen by Dr Holloway. Albuterol given.' },
      { id: '2', author: 'b', text: 'Pt on albuterol nebs, Dr Holloway aware.' },
      { id: '3', author: 'c', text: 'Continue albuterol as ordered.' },
    ];
    // A rule found Albuterol where it is capitalised; the build overruled it.
    expect((await detectDirect(drug[0]!.text, defaultRecognizers())).map((d) => drug[0]!.text.slice(d.start, d.end))).toContain('Albuterol');
    const labelled = (await silverOf(drug, {})).labels.map((l) => l.text);
    expect(labelled).toContain('Holloway');
    expect(labelled.join(' ')).not.toMatch(/albuterol/i);
  });

  it('gives no silver label where only a capital found a term the build keeps on other evidence', async () => {
    // A stand-in model marks Brown where no rule does; a rule finds Brown stool only by its capital.
    const marks: Recognizer = { name: `${MODEL_SOURCE}fake`, find: (text) => (text.startsWith('Pt calm') ? [{ start: 9, end: 14, category: 'PERSON', source: `${MODEL_SOURCE}fake` }] : []) };
    const stool: Document[] = [
      { id: '1', author: 'a', text: 'Stool was Brown, soft.' },
      { id: '2', author: 'b', text: 'Stool was brown and soft.' },
      { id: '3', author: 'c', text: 'Pt calm. Brown called back.' },
    ];
    const recognizers = [...defaultRecognizers(), marks];
    expect((await detectDirect(stool[0]!.text, recognizers)).map((d) => d.source)).toEqual(['context:listed-surname']);
    const built = await silverOf(stool, { recognizers });
    expect(built.blacklist.entries.find((e) => e.term === 'brown' && e.kind === 'direct')).toMatchObject({ occurrences: 1, sources: [`${MODEL_SOURCE}fake`] });
    expect(built.labels.map((l) => `${l.id}:${l.text}`)).toEqual(['3:Brown']);
  });

  it('stops silver labels read from another corpus than the build read', async () => {
    const { blacklist, engine, found } = await buildBlacklist(notes, { recognizers: [model], ngrams: [1, 1], keepDetections: true });
    await engine.close();
    const read = async () => {
      for await (const _ of silverLabels(notes.slice(1), found!, blacklist));
    };
    await expect(read()).rejects.toThrow(/silver labels: the second reading of the corpus gave 9 documents, the first 10/);
  });

  it('never drops a term a rule also found', async () => {
    const { blacklist, engine } = await buildBlacklist(notes, { recognizers: [model, rule], ngrams: [1, 1] });
    await engine.close();
    expect(direct(blacklist.entries)).toEqual(['rowan', 'smith']);
  });

  it('weighs a model\'s term by agreement where the only rule beside it rests on a capital its lower case contradicts, whatever the recognisers\' order', async () => {
    // The model marks "Brown" after "first"; the listed-surname rule finds the same span, and comes first, as the CLI orders them.
    const marksFirst: Recognizer = { name: `${MODEL_SOURCE}fake`, find: (text) => (text.startsWith('first') ? [{ start: 6, end: 11, category: 'PERSON', source: `${MODEL_SOURCE}fake` }] : []) };
    const notes = (marked: number, lower: number): Document[] => [
      ...Array.from({ length: marked }, (_, i) => ({ id: `m${i}`, author: `m${i}`, text: 'first Brown, calm.' })),
      ...Array.from({ length: lower }, (_, i) => ({ id: `l${i}`, author: `l${i}`, text: 'Stool was brown and soft.' })),
    ];
    const build = async (docs: Document[]) => {
      const { blacklist, stats, engine } = await buildBlacklist(docs, { recognizers: [...defaultRecognizers(), marksFirst], ngrams: [1, 1] });
      await engine.close();
      return { entry: blacklist.entries.find((e) => e.term === 'brown' && e.kind === 'direct'), dropped: stats.modelDropped };
    };
    // Marked at 3 of its 7 places, written in lower case more often than as a name: kept, on the model's word alone.
    expect(await build(notes(3, 4))).toEqual({ entry: expect.objectContaining({ sources: [`${MODEL_SOURCE}fake`], occurrences: 3 }), dropped: 0 });
    // Marked at 1 of 11: dropped, though the rule found it there too.
    expect(await build(notes(1, 10))).toEqual({ entry: undefined, dropped: 1 });
  });

  it('counts, once a capital is no evidence, only the authors of the occurrences left: never more authors than occurrences', () => {
    const direct = new Map<string, DirectTally>();
    const found = (source: string) => ({ start: 0, end: 7, category: 'PERSON', source });
    // Two authors wrote it capitalised where only the capital made it a name; a third after a title.
    for (const author of ['x', 'y']) tallyDetection(direct, [{ term: 'blocker', source: 'context:unknown-proper-noun' }], found('context:unknown-proper-noun'), author, { cased: true });
    tallyDetection(direct, [{ term: 'blocker', source: 'context:title' }], found('context:title'), 'z', { cased: true });
    // A listed surname written in lower case as often as the capital's finds: they go.
    dropCapitalEvidence(direct, new Map([['blocker', 2]]));
    const t = direct.get('blocker')!;
    expect({ occurrences: t.occurrences, authors: [...t.authors], sources: [...t.sources] }).toEqual({ occurrences: 1, authors: ['z'], sources: ['context:title'] });
  });

  it('keeps a listed name the corpus writes as a name more often than in lower case; any lower case refutes a word no name list holds', async () => {
    const direct = async (texts: string[]) => {
      const { blacklist, engine } = await buildBlacklist(texts.map((text, i) => ({ id: `${i}`, author: `a${i}`, text })), { ngrams: [1, 1] });
      await engine.close();
      return blacklist.entries.filter((e) => e.kind === 'direct').map((e) => e.term);
    };
    // Tweets: Trump written as a name three times, in lower case once; then once against twice.
    expect(await direct(['Not a Trump supporter at all.', 'Whenever Trump says it, they cheer.', 'I saw Trump there today.', 'Play the trump card now.'])).toContain('trump');
    expect(await direct(['Not a Trump supporter at all.', 'Play the trump card now.', 'He played a trump again.'])).not.toContain('trump');
    // Notes in capitals are no evidence either way: one "brown stool" outweighs them; the title keeps its term.
    const notes = await direct(['DR BROWN SAW PT TODAY.', 'DR BROWN CALLED.', 'DR BROWN AWARE.', 'Small brown stool noted today.']);
    expect(notes).toContain('dr brown');
    expect(notes).not.toContain('brown');
    // A drug written with a capital mid-sentence thrice and once in lower case: no name list holds it.
    expect(await direct(['Started Amiodarone today.', 'Continues Amiodarone drip.', 'Gave Amiodarone again.', 'Remains on amiodarone drip.'])).not.toContain('amiodarone');
  });

  it('writes blacklists its reader takes back whole, on random notes with words written both ways (property)', async () => {
    const rng = new Rng(5);
    const words = ['Blocker', 'blocker', 'Anne', 'anne', 'Dr', 'Smith', 'smith', 'seen', 'by', 'today', 'Lasix', 'lasix', 'Rose', 'rose', 'Mrs', 'in', 'Boston'];
    for (let trial = 0; trial < 20; trial++) {
      const docs: Document[] = Array.from({ length: 12 }, (_, i) => ({ id: `${i}`, author: `a${i % 5}`, text: Array.from({ length: 12 }, () => words[Math.floor(rng.next() * words.length)]!).join(' ') + '.' }));
      const { blacklist, engine } = await buildBlacklist(docs, { ngrams: [1, 2] });
      await engine.close();
      for (const e of blacklist.entries) expect(e.authors, e.term).toBeLessThanOrEqual(e.occurrences);
      const byTerm = (entries: readonly BlacklistEntry[]) => [...entries].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
      expect(byTerm(parseBlacklist(formatBlacklist(blacklist), 'built.tsv').entries)).toEqual(byTerm(blacklist.entries));
    }
  });

  it('leaves a dropped term to the indirect rule: rare among individuals, it is still a term', async () => {
    const rare: Document[] = [{ id: '1', author: 'a', text: 'first zorbex, zorbex, zorbex, zorbex, zorbex, zorbex' }, { id: '2', author: 'b', text: 'nothing here' }];
    const marksOnce: Recognizer = { name: `${MODEL_SOURCE}fake`, find: (text) => [...text.matchAll(/^first (zorbex)/g)].map((m) => ({ start: 6, end: 12, category: 'PERSON', source: `${MODEL_SOURCE}fake` })) };
    const { blacklist, engine } = await buildBlacklist(rare, { recognizers: [marksOnce], ngrams: [1, 1] });
    await engine.close();
    expect(blacklist.entries.filter((e) => e.term === 'zorbex').map((e) => e.kind)).toEqual(['indirect']);
  });

  it('counts a term inside a longer direct term only where it stands alone', async () => {
    // "John Smith" nine times, "Smith" alone once: the model marked every one.
    const named: Document[] = [...Array.from({ length: 9 }, (_, i) => ({ id: `${i}`, author: `p${i}`, text: 'seen by John Smith today' })), { id: '9', author: 'p9', text: 'Smith called' }];
    const marks: Recognizer = { name: `${MODEL_SOURCE}fake`, find: (text) => [...text.matchAll(/(?:John )?Smith/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, category: 'PERSON', source: `${MODEL_SOURCE}fake` })) };
    const { blacklist, engine } = await buildBlacklist(named, { recognizers: [marks], ngrams: [1, 1] });
    await engine.close();
    expect(direct(blacklist.entries)).toEqual(['john smith', 'smith']);
  });

  it('reads a stream again only through reread, refused before the first reading; a reread that gives other documents is an error', async () => {
    async function* stream() {
      yield* notes;
    }
    let calls = 0;
    const counted: Recognizer = { name: model.name, find: (text) => (calls++, model.find(text)) };
    await expect(buildBlacklist(stream(), { recognizers: [counted] })).rejects.toThrow(/pass reread, or modelAgreement: 0/);
    expect(calls).toBe(0);
    // The second reading reports its progress apart from the first.
    const readAgain: number[] = [];
    const { blacklist, engine } = await buildBlacklist(stream(), { recognizers: [model], ngrams: [1, 1], reread: stream, onProgress: (p) => void (p.agreement !== undefined && readAgain.push(p.agreement)) });
    await engine.close();
    expect(direct(blacklist.entries)).toEqual(['smith']);
    expect(readAgain).toEqual([10]);
    await expect(buildBlacklist(stream(), { recognizers: [model], reread: () => [] })).rejects.toThrow(/second reading of the corpus gave 0 documents, the first 10/);
    // Without a model nothing is weighed, read again or recorded.
    const plain = await buildBlacklist(stream(), { recognizers: [rule] });
    await plain.engine.close();
    expect(plain.blacklist.header.extra['model-agreement']).toBeUndefined();
  });
});

describe('buildBlacklist: inputs it refuses', () => {
  it('refuses an empty corpus (a blacklist that protects nothing) and an n-gram range upside down', async () => {
    await expect(buildBlacklist([])).rejects.toThrow('buildBlacklist: the corpus gave no document; a blacklist built from it would protect nothing');
    await expect(buildBlacklist((async function* () {})())).rejects.toBeInstanceOf(UsageError);
    await expect(buildBlacklist([{ id: '1', author: 'a', text: 'x' }], { ngrams: [3, 1] })).rejects.toThrow('buildBlacklist: ngrams must be [min, max] with 1 <= min <= max, got [3,1]');
  });
});

describe('buildBlacklist: a model\'s English common words', () => {
  /** A stand-in model trained on tweets reading notes: it marks the care's words and a drug beside the names. */
  const model: Recognizer = {
    name: `${MODEL_SOURCE}fake`,
    find: (text) => [...text.matchAll(/\b(?:sedated|neuro|ativan|thick secretions|Mason|krithika|Holloway|resp-|foley)/gi)].map((m) => ({ start: m.index, end: m.index + m[0].length, category: 'PERSON', source: `${MODEL_SOURCE}fake` })),
  };
  // RESP- is a heading: its term keeps the hyphen. Foley is a clinical word that a place list also holds.
  const notes: Document[] = [
    { id: '1', author: 'a', text: 'Pt sedated on ativan, neuro intact. RESP- clear. Foley in place. Wife Krithika at bedside.' },
    { id: '2', author: 'b', text: 'Thick secretions. Seen by Dr Mason, then holloway.' },
  ];

  it('drops a term only the model found whose words are dictionary or clinical words no list holds as a name; a listed name and an unknown word stay; agreement 0 keeps every one', async () => {
    const direct = (entries: BlacklistEntry[]) => terms(entries.filter((e) => e.kind === 'direct' && e.sources.some((s) => s.startsWith(MODEL_SOURCE))));
    const built = await buildBlacklist(notes, { recognizers: [model], ngrams: [1, 1], reread: () => notes });
    await built.engine.close();
    expect(direct(built.blacklist.entries)).toEqual(['holloway', 'krithika', 'mason']);
    expect(built.stats.modelCommonWords).toBe(6);
    const all = await buildBlacklist(notes, { recognizers: [model], ngrams: [1, 1], modelAgreement: 0 });
    await all.engine.close();
    expect(direct(all.blacklist.entries)).toEqual(['ativan', 'foley', 'holloway', 'krithika', 'mason', 'neuro', 'resp-', 'sedated', 'thick secretions']);
    expect(all.stats.modelCommonWords).toBe(0);
  });
});

describe('buildBlacklist: a model\'s common nouns, with mecab', () => {
  const mecabHere = analyzerForLanguage('ko', 'auto');
  const hasMecab = mecabHere?.name === 'mecab';
  void mecabHere?.close();
  /** A stand-in model trained on other judgments: it marks a face, a quarrel, a name mecab reads as a compound noun, and a company. */
  const model: Recognizer = {
    name: `${MODEL_SOURCE}fake`,
    find: (text) => [...text.matchAll(/얼굴|말다툼|강우진|삼성전자/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, category: 'PERSON', source: `${MODEL_SOURCE}fake` })),
  };
  const judgments: Document[] = [
    { id: '1', author: 'a', text: '피고인은 말다툼 끝에 강우진의 얼굴을 때렸다.' },
    { id: '2', author: 'b', text: '피고인은 삼성전자 앞에서 피해자의 얼굴을 밀쳤다.' },
  ];

  it.skipIf(!hasMecab)('drops a term only the model found that mecab reads as common nouns, keeps a name\'s shape and a proper noun; agreement 0 keeps every one', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab')!;
    try {
      const direct = (entries: BlacklistEntry[]) => terms(entries.filter((e) => e.kind === 'direct'));
      const built = await buildBlacklist(judgments, { recognizers: [model], analyzer, ngrams: [1, 1], reread: () => judgments });
      await built.engine.close();
      expect(direct(built.blacklist.entries)).toEqual(['강우진', '삼성전자']);
      expect(built.stats.modelCommonNouns).toBe(2);
      const all = await buildBlacklist(judgments, { recognizers: [model], analyzer, ngrams: [1, 1], modelAgreement: 0 });
      await all.engine.close();
      expect(direct(all.blacklist.entries)).toEqual(['강우진', '말다툼', '삼성전자', '얼굴']);
      expect(all.stats.modelCommonNouns).toBe(0);
    } finally {
      await analyzer.close();
    }
  });
});

describe('buildBlacklist: a model\'s short numbers', () => {
  /** A stand-in model that splits addresses and names: house, flat, room and unit numbers, a shop's 24, a longer number, a ticket, an account number and a name. */
  const model: Recognizer = {
    name: `${MODEL_SOURCE}fake`,
    find: (text) => [...text.matchAll(/\b(?:89|5-2|24|91|408|1234|12B|110-482-339201)\b|정하람/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, category: 'ADDRESS', source: `${MODEL_SOURCE}fake` })),
  };
  /** The age rule finds 91 too. */
  const age: Recognizer = { name: 'age', find: (text) => [...text.matchAll(/\b91\b/g)].map((m) => ({ start: m.index, end: m.index + 2, category: 'AGE', source: 'rule:age' })) };
  const docs: Document[] = [
    { id: '1', author: 'a', text: '정하람 lives at 89 Main St, flat 5-2, aged 91. Paid 24\nto 110-482-339201.' },
    { id: '2', author: 'b', text: '24 of the 89 flats are empty; flat 5-2 is one.' },
    { id: '3', author: 'c', text: 'Room 408 and 1234 Elm; unit B-89, ticket 12B.\n89 left - 89 right.' },
  ];

  it('makes a number of three digits or fewer that only the model found a term with the word before it, none at a line\'s start or after punctuation; a longer number, one with a letter, a word it is part of, a name and a rule\'s number stand alone', async () => {
    const { blacklist, engine, found } = await buildBlacklist(docs, { recognizers: [model, age], ngrams: [1, 1], reread: () => docs, keepDetections: true });
    await engine.close();
    expect(terms(blacklist.entries.filter((e) => e.kind === 'direct'))).toEqual(['110-482-339201', '1234', '12b', '91', 'at 89', 'b-89', 'flat 5-2', 'paid 24', 'room 408', 'the 89', '정하람']);
    // The 24 that starts a text makes no term.
    expect(blacklist.entries.find((e) => e.term === 'paid 24')).toMatchObject({ occurrences: 1 });
    // Its silver label is the number alone.
    const labels: string[] = [];
    for await (const d of silverLabels(docs, found!, blacklist)) labels.push(...d.spans.map((s) => d.text.slice(s.start, s.end)));
    expect(labels).toEqual(expect.arrayContaining(['89', '5-2', '24', '408']));
    expect(labels).not.toContain('at 89');
  });
});

describe('closeRecognizers', () => {
  it('closes every recogniser that holds something, the others too when one fails, and throws the failure', async () => {
    const closed: string[] = [];
    const holding = (name: string, fail = false): Recognizer => ({ name, find: () => [], close: async () => { closed.push(name); if (fail) throw new Error(`${name} failed`); } });
    const plain: Recognizer = { name: 'rules', find: () => [] };
    await closeRecognizers([holding('a'), plain, holding('b')]);
    expect(closed).toEqual(['a', 'b']);
    closed.length = 0;
    await expect(closeRecognizers([holding('a', true), holding('b')])).rejects.toThrow('a failed');
    expect(closed).toEqual(['a', 'b']);
  });
});
