import { assertOutputsApart, commitOrAbort, documentKey, prepareAtomicDir, recordPublicDocuments } from '../../io/index.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { corpusFingerprinter, readCorpus } from '../../corpus/index.js';
import { writeProvenance, type VocabularyOrigin } from '../../model/index.js';
import { blacklistFingerprint } from '../../identifiers/index.js';
import { PACKAGE_VERSION } from '../../version.js';
import { BlacklistedTerms, bpeToTokenizerJson, toTokenizerJson, toVocabTxt, trainBpe, trainWordPiece } from '../../tokenizer/index.js';
import { BlacklistMatcher, readBlacklist } from '../../identifiers/index.js';
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
  blacklist?: string;
  publicCorpus?: boolean;
  analyzer: AnalyzerChoice;
  out: string;
  force?: boolean;
  json?: boolean;
}

/** `ppmlm tokenizer train`: a WordPiece vocabulary from a corpus, saved as tokenizer.json + vocab.txt. */
export async function tokenizerTrain(options: TokenizerTrainOptions, out: Reporter): Promise<void> {
  if (options.type !== 'wordpiece' && options.type !== 'bpe') throw new UsageError(`--type must be wordpiece or bpe, got "${options.type}"`);
  const vocabSize = parseIntFlag(options.vocabSize, '--vocab-size', { min: 10 });
  const minFrequency = parseIntFlag(options.minFrequency, '--min-frequency', { min: 1 });
  await assertOutputsApart({ '--corpus': options.corpus, '--blacklist': options.blacklist }, { '--out': options.out });
  const blacklist = options.blacklist === undefined ? undefined : await readBlacklist(options.blacklist);
  const blacklisted = blacklist && new BlacklistedTerms(blacklist.entries.map((e) => e.term));
  const target = await prepareAtomicDir(options.out, { force: options.force });
  const analyzer = options.morphemes ? createKoreanAnalyzer(options.analyzer, (why) => out.warn(why)) : undefined;
  // Korean terms match as the blacklist cut them, with the analyser its header records, --morphemes or not.
  const builtWith = blacklist?.header.extra.analyzer;
  const ownMatchAnalyzer = (builtWith === 'mecab' || builtWith === 'rule') && analyzer?.name !== builtWith ? createKoreanAnalyzer(builtWith) : undefined;
  const matchAnalyzer = ownMatchAnalyzer ?? analyzer;
  const report = (trained: { type: 'wordpiece' | 'bpe'; vocabSize: number; files: string[] }) =>
    out.summary(options.json, { out: options.out, ...trained, morphemes: options.morphemes === true, blacklist: options.blacklist !== undefined, publicCorpus: options.publicCorpus === true }, (s) => `wrote ${s.out}: ${s.type === 'bpe' ? 'byte-level BPE' : 'WordPiece'}, ${s.vocabSize} tokens`);
  // How the vocabulary was made decides, when a model is made from it, whether it may ship (model/vocabularyCheck.ts).
  const fingerprint = corpusFingerprinter();
  const documentKeys: string[] = [];
  const writeOrigin = async () => {
    const vocabulary: VocabularyOrigin = { corpus: fingerprint.digest(), publicCorpus: options.publicCorpus === true, ...(blacklist && { blacklist: blacklistFingerprint(blacklist) }), ...(analyzer && { morphemes: analyzer.name }) };
    // Kept with the key, never in the tokenizer folder (which model init copies): a DP run checks its training documents against it.
    if (options.publicCorpus) await recordPublicDocuments(vocabulary.corpus, documentKeys);
    return writeProvenance(target.tmpDir, { ppmlm: PACKAGE_VERSION, createdAt: new Date().toISOString(), vocabulary });
  };
  if (!options.publicCorpus && !blacklist) out.info('the corpus is not declared public (--public-corpus) and no --blacklist keeps identifiers out of the vocabulary: a model made from this tokenizer will be refused unless checked against a blacklist');
  try {
    const trained = await commitOrAbort(target, async () => {
      // No merge is learned inside a blacklisted term's occurrence, where fine-tuning protects it.
      const matcher = blacklist && new BlacklistMatcher(blacklist.entries);
      const texts = (async function* () {
        for await (const doc of readCorpus(options.corpus, corpusReadOptions(options))) {
          fingerprint.add(doc);
          if (options.publicCorpus) documentKeys.push(documentKey(doc.text));
          yield matcher ? { text: doc.text, protect: await matcher.match(doc.text, matchAnalyzer) } : doc.text;
        }
      })();
      const onProgress = (n: number) => out.progress(`tokenizer: ${n} tokens`);
      if (options.type === 'bpe') {
        const tok = await trainBpe(texts, { vocabSize, minFrequency, morphemes: analyzer, onProgress, blacklisted });
        await writeFile(join(target.tmpDir, 'tokenizer.json'), JSON.stringify(bpeToTokenizerJson(tok)));
        await writeOrigin();
        out.progressDone();
        return { type: 'bpe' as const, vocabSize: tok.vocabSize, files: ['tokenizer.json', 'ppmlm.json'] };
      }
      const tok = await trainWordPiece(texts, { vocabSize, minFrequency, morphemes: analyzer, onProgress, blacklisted });
      out.progressDone();
      await writeFile(join(target.tmpDir, 'tokenizer.json'), JSON.stringify(toTokenizerJson(tok)));
      await writeFile(join(target.tmpDir, 'vocab.txt'), toVocabTxt(tok));
      await writeOrigin();
      return { type: 'wordpiece' as const, vocabSize: tok.vocabSize, files: ['tokenizer.json', 'vocab.txt', 'ppmlm.json'] };
    });
    report(trained);
  } finally {
    await analyzer?.close();
    await ownMatchAnalyzer?.close();
  }
}
