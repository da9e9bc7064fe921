import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readCorpus } from '../../corpus/index.js';
import { prepareAtomicDir } from '../../io/index.js';
import { toTokenizerJson, toVocabTxt, trainWordPiece } from '../../tokenizer/index.js';
import { UsageError } from '../../errors.js';
import { corpusReadOptions, type CorpusFlags } from '../corpusOptions.js';
import { parseIntFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';
import { createKoreanAnalyzer, type AnalyzerChoice } from '../../text/index.js';

export interface TokenizerTrainOptions extends CorpusFlags {
  type: string;
  vocabSize: string;
  minFrequency: string;
  morphemes?: boolean;
  analyzer: AnalyzerChoice;
  out: string;
  force?: boolean;
}

/** `ppmlm tokenizer train`: a WordPiece vocabulary from a corpus, saved as tokenizer.json + vocab.txt. */
export async function tokenizerTrain(options: TokenizerTrainOptions, out: Reporter): Promise<void> {
  if (options.type !== 'wordpiece') throw new UsageError(`--type ${options.type} is not available yet; use --type wordpiece`);
  const vocabSize = parseIntFlag(options.vocabSize, '--vocab-size', { min: 10 });
  const minFrequency = parseIntFlag(options.minFrequency, '--min-frequency', { min: 1 });
  const target = await prepareAtomicDir(options.out, { force: options.force });
  const analyzer = options.morphemes ? createKoreanAnalyzer(options.analyzer, (why) => out.info(why)) : undefined;
  try {
    const texts = (async function* () {
      for await (const doc of readCorpus(options.corpus, corpusReadOptions(options))) yield doc.text;
    })();
    // With --morphemes, Korean words are cut into morphemes first (Mecab-ko + subwords, as Thunder-DeID does).
    const preTokenize = analyzer
      ? async (text: string) => (await analyzer.analyze(text)).map((m) => m.surface.toLowerCase())
      : undefined;
    const tok = await trainWordPiece(texts, { vocabSize, minFrequency, preTokenize, onProgress: (n) => out.progress(`tokenizer: ${n} tokens`) });
    out.progressDone();
    await writeFile(join(target.tmpDir, 'tokenizer.json'), JSON.stringify(toTokenizerJson(tok)));
    await writeFile(join(target.tmpDir, 'vocab.txt'), toVocabTxt(tok));
    await target.commit();
    out.result(`wrote ${options.out}: WordPiece, ${tok.vocabSize} tokens`);
  } catch (err) {
    await target.abort();
    throw err;
  } finally {
    await analyzer?.close();
  }
}
