/**
 * How well each Korean analyser cuts particles off nouns, against the gold morpheme segmentation of the
 * KMOU NER corpus: `npx tsx bench/experiments/korean-morphology.ts ../shared/data/kmou-ner [maxSentences]`.
 *
 * An eojeol counts when it is pure Hangul and its gold morphemes are nouns (N*, XSN, XPN) optionally
 * followed by particles (J*). The analyser is right when the content stem it yields equals the gold noun
 * part: `홍길동이` → `홍길동`, and a bare noun stays whole.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentWords, createKoreanAnalyzer, type MorphAnalyzer } from '../../src/text/index.js';

interface Case {
  sentence: string;
  eojeol: string;
  start: number;
  gold: string;
  withParticle: boolean;
}

const NOUNISH = /^(N|XSN|XPN)/;

async function loadCases(dir: string, limit: number): Promise<Case[]> {
  const files = (await readdir(join(dir, 'corpus_morph_ner'))).filter((f) => f.endsWith('.txt')).sort();
  const cases: Case[] = [];
  let sentences = 0;
  for (const file of files) {
    const blocks = (await readFile(join(dir, 'corpus_morph_ner', file), 'utf8')).split(/\n(?=## \d+\n)/);
    for (const block of blocks) {
      if (sentences >= limit) return cases;
      const lines = block.split('\n');
      const raw = lines[1]?.replace(/^## /, '');
      if (raw === undefined) continue;
      sentences++;
      const eojeols: [string, string][][] = [[]];
      for (const line of lines.slice(3)) {
        const [tok, , pos] = line.split('\t');
        if (tok === undefined || pos === undefined) continue;
        if (tok === '_') eojeols.push([]);
        else eojeols.at(-1)!.push([tok, pos]);
      }
      let cursor = 0;
      for (const morphs of eojeols) {
        const surface = morphs.map(([t]) => t).join('');
        const at = raw.indexOf(surface, cursor);
        if (at === -1 || !/^[가-힣]+$/.test(surface)) continue;
        cursor = at + surface.length;
        const before = raw[at - 1];
        const after = raw[at + surface.length];
        if ((before !== undefined && before !== ' ') || (after !== undefined && after !== ' ')) continue;
        const firstParticle = morphs.findIndex(([, pos]) => pos.startsWith('J'));
        const nounPart = firstParticle === -1 ? morphs : morphs.slice(0, firstParticle);
        const rest = firstParticle === -1 ? [] : morphs.slice(firstParticle);
        if (nounPart.length === 0 || !nounPart.every(([, pos]) => NOUNISH.test(pos)) || !rest.every(([, pos]) => pos.startsWith('J'))) continue;
        cases.push({ sentence: raw, eojeol: surface, start: at, gold: nounPart.map(([t]) => t).join(''), withParticle: rest.length > 0 });
      }
    }
  }
  return cases;
}

async function score(analyzer: MorphAnalyzer, cases: Case[]): Promise<{ particle: number; bare: number; nParticle: number; nBare: number; seconds: number }> {
  const bySentence = new Map<string, Case[]>();
  for (const c of cases) bySentence.set(c.sentence, [...(bySentence.get(c.sentence) ?? []), c]);
  let particle = 0;
  let bare = 0;
  const t0 = performance.now();
  for (const [sentence, group] of bySentence) {
    const words = await contentWords(sentence, analyzer);
    for (const c of group) {
      const w = words.find((x) => x.start === c.start);
      const ok = w !== undefined && w.surface === c.gold;
      if (ok && c.withParticle) particle++;
      if (ok && !c.withParticle) bare++;
    }
  }
  return { particle, bare, nParticle: cases.filter((c) => c.withParticle).length, nBare: cases.filter((c) => !c.withParticle).length, seconds: (performance.now() - t0) / 1000 };
}

const dir = process.argv[2] ?? '../shared/data/kmou-ner';
const limit = Number(process.argv[3] ?? 5000);
const cases = await loadCases(dir, limit);
console.error(`${cases.length} eojeols from ${new Set(cases.map((c) => c.sentence)).size} sentences`);
console.log('| analyser | noun+particle split exactly | bare noun kept whole | sentences/s |\n|---|---:|---:|---:|');
for (const choice of ['mecab', 'rule'] as const) {
  const analyzer = createKoreanAnalyzer(choice);
  const r = await score(analyzer, cases);
  await analyzer.close();
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}% (${a}/${b})`;
  const sentences = new Set(cases.map((c) => c.sentence)).size;
  console.log(`| ${analyzer.name} | ${pct(r.particle, r.nParticle)} | ${pct(r.bare, r.nBare)} | ${(sentences / r.seconds).toFixed(0)} |`);
}
