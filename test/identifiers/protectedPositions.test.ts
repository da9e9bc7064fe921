import { describe, expect, it } from 'vitest';
import { generateClinicalNotes } from '../../examples/clinical-en/generate.js';
import { findOccurrences } from '../../src/audit/index.js';
import { MENTION_SOURCE, buildBlacklist, occurrenceTokens, patternRecognizers, protectedMask } from '../../src/identifiers/index.js';
import { buildWindows } from '../../src/mlm/index.js';
import { WordPieceTokenizer, trainWordPiece, windowRanges } from '../../src/tokenizer/index.js';

describe('protected positions', () => {
  it('are the non-special tokens overlapping an occurrence, as a mask and per occurrence', () => {
    const offsets: [number, number][] = [[0, 0], [0, 5], [6, 9], [9, 11], [12, 14], [0, 0]];
    const special = [1, 0, 0, 0, 0, 1];
    // "Alice Smi|th is": the second occurrence covers "Smi" and "th" by overlap, never the special tokens.
    expect([...protectedMask(offsets, [{ start: 0, end: 5 }, { start: 7, end: 10 }], special)]).toEqual([0, 1, 1, 1, 0, 0]);
    expect(occurrenceTokens(offsets, { start: 7, end: 10 }, special)).toEqual([2, 3]);
    expect([...protectedMask(offsets, [], special)]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('that fine-tuning excludes are exactly those the audit treats as protected, on the same windows', async () => {
    const docs = generateClinicalNotes(5, 6, 3);
    const { blacklist } = await buildBlacklist(docs, { recognizers: patternRecognizers() });
    expect(blacklist.entries.length).toBeGreaterThan(10);
    const tokenizer = await trainWordPiece(docs.map((d) => d.text), { vocabSize: 300, minFrequency: 2 });
    const { windows, stats } = await buildWindows(docs, tokenizer, { seqLen: 24, stride: 6, blacklist: blacklist.entries });
    expect(stats.protectedTokens).toBeGreaterThan(0);
    const bodies = docs.map((d) => tokenizer.tokenize(d.text));
    const audit = await findOccurrences(docs, bodies, blacklist.entries);
    // Training's protected set, as (document, character span) of each protected token of each window:
    // a document's windows come in the order of windowRanges, [CLS] + body[start, end) + [SEP].
    const key = (d: number, j: number) => `${d}:${bodies[d]!.offsets[j]![0]}-${bodies[d]!.offsets[j]![1]}`;
    const training = new Set<string>();
    const trainingSeen = new Set<string>();
    docs.forEach((_, d) => {
      const ranges = windowRanges(bodies[d]!.ids.length, { maxLength: 24, stride: 6 });
      windows.filter((w) => w.doc === d).forEach((w, k) => {
        const [start, end] = ranges[k]!;
        expect(Array.from(w.ids.slice(1, -1))).toEqual(bodies[d]!.ids.slice(start, end));
        for (let j = start; j < end; j++) {
          trainingSeen.add(key(d, j));
          if (w.protectedMask[j - start + 1]) training.add(key(d, j));
        }
      });
    });
    const auditSet = new Set<string>();
    const fromOccurrences = new Set<string>();
    audit.protectedMasks.forEach((mask, d) => mask.forEach((m, j) => m && auditSet.add(key(d, j))));
    for (const o of audit.occurrences) for (const j of o.tokens) fromOccurrences.add(key(o.doc, j));
    const seenAudit = new Set([...auditSet].filter((k) => trainingSeen.has(k)));
    expect(training.size).toBeGreaterThan(0);
    expect([...training].sort()).toEqual([...seenAudit].sort());
    // Every protected position is in an occurrence the audit attacks here because these recognisers make
    // no mention-only term (a title beside a name), which is protected but never attacked.
    expect([...fromOccurrences].sort()).toEqual([...auditSet].sort());
  });

  it("protect a mention's title with its name, but the audit attacks only the name, in the privacy score and membership inference alike", async () => {
    const tokenizer = new WordPieceTokenizer(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'mr', '.', 'jones', 'came', 'today']);
    const docs = [{ id: '1', author: 'a', text: 'mr . jones came today .' }];
    const bodies = docs.map((d) => tokenizer.tokenize(d.text));
    const entry = (term: string, sources: string[]) => ({ term, kind: 'direct' as const, category: 'PERSON', authors: 1, occurrences: 1, sources });
    const found = await findOccurrences(docs, bodies, [entry('jones', ['list:names']), entry('mr. jones', [MENTION_SOURCE])]);
    const words = (tokens: number[]) => tokens.map((i) => tokenizer.tokenOf(bodies[0]!.ids[i]!));
    expect(words([...found.protectedMasks[0]!].flatMap((m, i) => (m ? [i] : [])))).toEqual(['mr', '.', 'jones']);
    expect(found.occurrences.map((o) => words(o.tokens))).toEqual([['jones']]);
  });
});
