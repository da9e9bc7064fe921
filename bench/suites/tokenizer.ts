import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCorpus } from '../../src/corpus/index.js';
import { trainBpe, trainWordPiece, type Tokenizer } from '../../src/tokenizer/index.js';
import { bestTime, type BenchRow, type BenchSuite } from '../table.js';

const hf = createRequire(import.meta.url)('tokenizers') as typeof import('tokenizers');

const EXAMPLES = ['examples/clinical-en/notes.csv', 'examples/legal-ko/judgments.csv'].map((f) => new URL(`../../${f}`, import.meta.url).pathname);

/** Hugging Face's default trainers (the ones `Tokenizer.train` uses): 30,000 tokens, no minimum frequency. */
const VOCAB = 30_000;

/**
 * Tokenizer training and encoding against Hugging Face `tokenizers` (Rust; it trains and batch-encodes on
 * every core, ppmlm on one) on the same texts, in the same run. The texts: the bundled example corpora, or
 * a corpus file given with `--tokenizer-corpus` (e.g. a real one from ../shared/data; never copied here).
 */
export function tokenizerSuite(corpusPath?: string, textColumn?: string): BenchSuite {
  return {
    name: 'tokenizer',
    async run(log): Promise<BenchRow[]> {
      const docs = (await Promise.all((corpusPath ? [corpusPath] : EXAMPLES).map((f) => loadCorpus(f, { columns: textColumn ? { text: textColumn } : {} })))).flat();
      const texts = docs.map((d) => d.text);
      const chars = texts.reduce((n, t) => n + t.length, 0);
      const dir = await mkdtemp(join(tmpdir(), 'ppmlm-bench-tok-'));
      try {
        // Hugging Face trains from files: one document per line.
        const file = join(dir, 'corpus.txt');
        await writeFile(file, texts.map((t) => t.replace(/[\r\n]+/g, ' ')).join('\n'));
        log(`tokenizer: ${texts.length} documents, ${(chars / 1e6).toFixed(2)} M characters, ${VOCAB} tokens`);
        const rows: BenchRow[] = [];
        // Best of three after a warm-up on the small bundled corpus (where JIT warm-up would dominate), one after a warm-up on a given one.
        const repeats = corpusPath ? 1 : 3;

        let wordPiece: Tokenizer | undefined;
        const wpSeconds = await bestTime(async () => (wordPiece = await trainWordPiece(texts, { vocabSize: VOCAB, minFrequency: 0 })), repeats);
        const hfWordPiece = new hf.Tokenizer(hf.WordPiece.empty());
        hfWordPiece.setNormalizer(hf.bertNormalizer({ cleanText: true, handleChineseChars: true, stripAccents: false, lowercase: true }));
        hfWordPiece.setPreTokenizer(hf.bertPreTokenizer());
        const hfWpSeconds = await bestTime(() => hfWordPiece.train([file]), repeats);
        rows.push({ suite: 'tokenizer', case: 'train WordPiece', value: wpSeconds, unit: 's', lowerIsBetter: true, baseline: { name: 'HF tokenizers', value: hfWpSeconds }, note: `goal: ratio >= 0.33 (within 3x); ${wordPiece!.vocabSize} tokens; HF uses every core` });

        let bpe: Tokenizer | undefined;
        const bpeSeconds = await bestTime(async () => (bpe = await trainBpe(texts, { vocabSize: VOCAB, minFrequency: 0 })), repeats);
        const hfBpe = new hf.Tokenizer(hf.BPE.empty());
        hfBpe.setPreTokenizer(hf.byteLevelPreTokenizer(false, true));
        const hfBpeSeconds = await bestTime(() => hfBpe.train([file]), repeats);
        rows.push({ suite: 'tokenizer', case: 'train byte-level BPE', value: bpeSeconds, unit: 's', lowerIsBetter: true, baseline: { name: 'HF tokenizers', value: hfBpeSeconds }, note: `${bpe!.vocabSize} tokens; HF uses every core` });

        // Encoding: the tokenizers just trained, through the same tokenizer.json semantics.
        for (const [name, ours, theirs] of [['WordPiece', wordPiece!, hfWordPiece], ['byte-level BPE', bpe!, hfBpe]] as const) {
          const oursSeconds = await bestTime(() => texts.forEach((t) => ours.tokenize(t)), 2);
          const theirsSeconds = await bestTime(() => theirs.encodeBatch(texts, { addSpecialTokens: false }), 2);
          rows.push({ suite: 'tokenizer', case: `encode ${name} (with offsets)`, value: chars / 1e6 / oursSeconds, unit: 'M chars/s', baseline: { name: 'HF encodeBatch', value: chars / 1e6 / theirsSeconds } });
        }
        return rows;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
