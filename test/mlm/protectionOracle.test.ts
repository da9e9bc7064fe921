import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/index.js';
import { canonicalTerm, type BlacklistEntry } from '../../src/identifiers/index.js';
import { buildWindows, makeBatch, maskConfigFor, type TrainingWindow } from '../../src/mlm/index.js';
import { createKoreanAnalyzer, type MorphAnalyzer } from '../../src/text/index.js';
import { trainBpe, trainWordPiece, windowsOf, type Tokenizer } from '../../src/tokenizer/index.js';

/**
 * An oracle along the whole path that fine-tuning takes — text, analyser, matcher, offsets, tokens,
 * masks — which knows only where identifiers were planted (character spans), never the protected mask the
 * code computes: no target may fall on a token that overlaps a planted span.
 */
interface Planted {
  docs: { id: string; author: string; text: string }[];
  spans: [number, number][][];
  entries: BlacklistEntry[];
}

const SYLLABLES_EN = ['zor', 'quen', 'vath', 'mir', 'tal', 'ox', 'bre', 'dun', 'kai', 'lev'];
const SYLLABLES_KO = ['민', '서', '준', '하', '윤', '지', '현', '우', '수', '연'];
const FILLER_EN = ['the patient', 'was seen', 'today', 'and reports', 'mild pain', 'in the chest', 'follow up', 'next week', 'with family'];
const FILLER_KO = ['피고인은', '피해자에게', '거짓말을', '하였다', '법정에서', '진술하였다', '계좌로', '송금하였다'];
/** A particle that agrees with the word's last syllable (이/을/은/과 after a final consonant, 가/를/는/와 after a vowel). */
function particle(rng: Rng, word: string): string {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  const batchim = code >= 0 && code < 11172 && code % 28 !== 0;
  return rng.pick(/\d$/.test(word) ? ['', '의', '에서'] : batchim ? ['이', '을', '은', '과', '의', '에게', ''] : ['가', '를', '는', '와', '의', '에게', '']);
}

function plant(language: 'en' | 'ko', seed: number, docsCount = 24): Planted {
  const rng = new Rng(seed);
  const word = (syllables: string[], n: number) => Array.from({ length: n }, () => rng.pick(syllables)).join('');
  const names = Array.from({ length: 12 }, () => (language === 'en' ? `${word(SYLLABLES_EN, 2)} ${word(SYLLABLES_EN, 3)}` : word(SYLLABLES_KO, 3)));
  const numbers = Array.from({ length: 6 }, () => String(10_000_000 + rng.int(90_000_000)));
  const docs: Planted['docs'] = [];
  const spans: Planted['spans'] = [];
  for (let d = 0; d < docsCount; d++) {
    let text = '';
    const own: [number, number][] = [];
    for (let k = 0; k < 14; k++) {
      if (rng.next() < 0.3) {
        const secret = rng.next() < 0.7 ? rng.pick(names) : rng.pick(numbers);
        // Clinical notes are often upper case; names appear capitalised or as stored.
        const shown = language === 'en' ? [secret, secret.toUpperCase(), secret.replace(/\b\w/g, (c) => c.toUpperCase())][rng.int(3)]! : secret;
        const start = text.length;
        own.push([start, start + shown.length]);
        text += shown + (language === 'ko' ? particle(rng, shown) : rng.pick([',', '', '.']));
      } else text += rng.pick(language === 'en' ? FILLER_EN : FILLER_KO);
      text += ' ';
    }
    docs.push({ id: String(d), author: `p${d % 6}`, text: text.trim() });
    spans.push(own);
  }
  const entries = [...names, ...numbers].map((term): BlacklistEntry => ({ term: canonicalTerm(term), kind: 'direct', category: 'PERSON', authors: 1, occurrences: 1, sources: ['test'] }));
  return { docs, spans, entries };
}

/** Every target of `seeds` mask draws per window, as [document, character start, end] of its token. */
async function targets(planted: Planted, tokenizer: Tokenizer, analyzer: MorphAnalyzer | undefined, masking: 'standard' | 'constrained', seeds: number): Promise<[number, number, number][]> {
  const options = { seqLen: 24, stride: 6, blacklist: planted.entries, analyzer };
  const { windows } = await buildWindows(planted.docs, tokenizer, options);
  // The windows' token offsets, recomputed from the tokenizer alone (the oracle's side of the path).
  const offsets = planted.docs.flatMap((d, doc) => windowsOf(tokenizer, tokenizer.tokenize(d.text), { maxLength: 24, stride: 6 }).map((w) => ({ doc, w })));
  expect(offsets.map((o) => [...o.w.ids])).toEqual(windows.map((w: TrainingWindow) => [...w.ids]));
  const config = { ...(await maskConfigFor(tokenizer, planted.entries, { maskProb: 0.5 })) };
  const out: [number, number, number][] = [];
  for (let seed = 0; seed < seeds; seed++) {
    windows.forEach((w, i) => {
      const batch = makeBatch([w], masking, config, () => new Rng(seed * 7919 + i));
      for (const p of batch.positions) {
        const [s, e] = offsets[i]!.w.offsets[p]!;
        out.push([offsets[i]!.doc, s, e]);
      }
    });
  }
  return out;
}

const onPlanted = (planted: Planted, ts: [number, number, number][]) => ts.filter(([d, s, e]) => planted.spans[d]!.some(([a, b]) => s < b && e > a));

const CASES: { name: string; language: 'en' | 'ko'; tokenizer: (texts: string[]) => Promise<Tokenizer>; analyzer?: () => MorphAnalyzer }[] = [
  { name: 'WordPiece (BERT)', language: 'en', tokenizer: (texts) => trainWordPiece(texts, { vocabSize: 300, minFrequency: 2 }) },
  { name: 'byte-level BPE (RoBERTa)', language: 'en', tokenizer: (texts) => trainBpe(texts, { vocabSize: 400, minFrequency: 2 }) },
  { name: 'Korean with particles, WordPiece, rule analyser', language: 'ko', tokenizer: (texts) => trainWordPiece(texts, { vocabSize: 300, minFrequency: 2 }), analyzer: () => createKoreanAnalyzer('rule') },
  { name: 'Korean with particles, byte-level BPE, the default analyser', language: 'ko', tokenizer: (texts) => trainBpe(texts, { vocabSize: 400, minFrequency: 2 }), analyzer: () => createKoreanAnalyzer('auto') },
];

describe('no target ever falls on a planted identifier (an oracle along the whole path)', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const analyzer = c.analyzer?.();
      try {
        for (const seed of [1, 2, 3]) {
          const planted = plant(c.language, seed);
          // Trained on the text itself, so identifiers become whole tokens as well as pieces.
          const tokenizer = await c.tokenizer(planted.docs.map((d) => d.text));
          const constrained = await targets(planted, tokenizer, analyzer, 'constrained', 20);
          expect(constrained.length).toBeGreaterThan(500);
          expect(onPlanted(planted, constrained)).toEqual([]);
          // The oracle is not vacuous: the same draws under standard masking do hit the planted spans.
          expect(onPlanted(planted, await targets(planted, tokenizer, analyzer, 'standard', 3)).length).toBeGreaterThan(10);
        }
      } finally {
        await analyzer?.close();
      }
    }, 60_000);
  }
});
