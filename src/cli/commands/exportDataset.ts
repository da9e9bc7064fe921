import { loadCorpus } from '../../corpus/index.js';
import { exportDataset } from '../../dataset/index.js';
import { readBlacklist } from '../../identifiers/index.js';
import { assertCanWrite, assertOutputsApart } from '../../io/index.js';
import { assertSeqLenFits, readModelConfig, readProvenance } from '../../model/index.js';
import type { AnalyzerChoice, Language } from '../../text/index.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import { corpusReadOptions, type CorpusFlags } from '../corpusOptions.js';
import { parseIntFlag, parseRangedFlag } from '../parseFlags.js';
import { FINETUNE_RANGES } from '../../mlm/index.js';
import type { Reporter } from '../reporter.js';
import { analyzerFor } from './blacklist.js';

export interface ExportDatasetCommandOptions extends CorpusFlags {
  model: string;
  blacklist: string;
  out: string;
  seqLen: string;
  stride?: string;
  premasked?: string;
  seed: string;
  maskProb: string;
  wholeWord?: boolean;
  randomBlacklisted?: boolean;
  allowVocabularyIdentifiers?: boolean;
  shardRows: string;
  lang: Language;
  analyzer: AnalyzerChoice;
  force?: boolean;
  json?: boolean;
}

/** `ppmlm export-dataset`: tokenised windows with special ∪ protected positions as Parquet shards for Hugging Face's Trainer. */
export async function exportDatasetCommand(options: ExportDatasetCommandOptions, out: Reporter): Promise<void> {
  const seqLen = parseRangedFlag(options.seqLen, '--seq-len', FINETUNE_RANGES.seqLen);
  const stride = options.stride === undefined ? undefined : parseIntFlag(options.stride, '--stride', { min: 0, max: seqLen - 3 });
  const epochs = options.premasked === undefined ? undefined : parseIntFlag(options.premasked, '--premasked', { min: 1, max: 1000 });
  const seed = parseIntFlag(options.seed, '--seed');
  const maskProb = parseRangedFlag(options.maskProb, '--mask-prob', FINETUNE_RANGES.maskProb);
  const shardRows = parseIntFlag(options.shardRows, '--shard-rows', { min: 1 });
  await assertOutputsApart({ '--model': options.model, '--corpus': options.corpus, '--blacklist': options.blacklist }, { '--out': options.out });
  await assertCanWrite(options.out, options.force);
  assertSeqLenFits(await readModelConfig(options.model), seqLen, '--seq-len', options.model);
  const tokenizer = await loadTokenizer(options.model);
  const blacklist = await readBlacklist(options.blacklist);
  let skipped = 0;
  const docs = await loadCorpus(options.corpus, corpusReadOptions(options, (err) => {
    skipped++;
    out.warn(`skipped ${err.located}`);
  }));
  const analyzer = analyzerFor(options.lang, options.analyzer, out);
  try {
    const manifest = await exportDataset({
      docs,
      tokenizer,
      model: options.model,
      blacklist,
      vocabulary: (await readProvenance(options.model))?.vocabulary,
      allowVocabularyIdentifiers: options.allowVocabularyIdentifiers,
      onInfo: (line) => out.info(line),
      onWarn: (line) => out.warn(line),
      seqLen,
      stride,
      analyzer,
      premasked: epochs === undefined ? undefined : { epochs, seed, maskProb, wholeWord: options.wholeWord, randomBlacklisted: options.randomBlacklisted },
      out: options.out,
      force: options.force,
      shardRows,
    });
    out.summary(
      options.json,
      { out: options.out, ...manifest, skipped },
      (s) => `wrote ${s.out} (mode 0600): ${s.windows} windows of ${s.documents} documents, ${s.protectedTokens} of ${s.tokens} tokens protected; splits ${Object.keys(s.splits).join(', ')}${s.skipped ? `; skipped ${s.skipped} bad rows` : ''}`,
    );
  } finally {
    await analyzer?.close();
  }
}
