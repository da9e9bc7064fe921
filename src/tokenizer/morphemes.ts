import { isHangulWord, RuleAnalyzer, type MorphAnalyzer } from '../text/index.js';
import type { Encoding, Tokenizer } from './types.js';

/**
 * Where a vocabulary learnt on Korean morphemes cuts a text: the offsets where the analyser's morphemes
 * start, for text holding Hangul (none otherwise). Learning the vocabulary (`trainWordPiece`, `trainBpe`
 * with `morphemes`) and encoding both cut there, so the vocabulary holds the pieces encoding asks for and
 * no token spans two morphemes: 홍길동이 → 홍길동 | 이, an entity's label never covering the particle after
 * it (the Mecab-ko + subword tokenisation of Thunder-DeID). The tokenizer's own pre-tokenisation stays: a
 * cut only splits its words, so punctuation the analyser leaves out is kept.
 */
export async function morphemeStarts(text: string, analyzer: MorphAnalyzer): Promise<ReadonlySet<number> | undefined> {
  if (!isHangulWord(text)) return undefined;
  return new Set((await analyzer.analyze(text)).map((m) => m.start));
}

/** Tokenises cut at morphemes where an analyser is given ({@link morphemeStarts}), else as the tokenizer does. */
export async function tokenizeAtMorphemes(tokenizer: Tokenizer, text: string, analyzer?: MorphAnalyzer): Promise<Encoding> {
  return tokenizer.tokenize(text, analyzer && (await morphemeStarts(text, analyzer)));
}

/**
 * The analyser that cuts text for what was made on `madeWith`'s morphemes, given the run's `analyzer`
 * (which matches blacklist terms): the rule analyser is a function, so what was made on its morphemes gets
 * one of its own whatever the run uses; anything else is cut by the run's analyser.
 */
export function cuttingAnalyzer(madeWith: string | undefined, analyzer: MorphAnalyzer | undefined): MorphAnalyzer | undefined {
  return madeWith === 'rule' && analyzer?.name !== 'rule' ? new RuleAnalyzer() : analyzer;
}

/**
 * The analyser that cuts the texts for a vocabulary learnt on `learntWith`'s morphemes (ppmlm.json
 * `vocabulary.morphemes`; none: read as the tokenizer does; see {@link cuttingAnalyzer}), and what to
 * warn when they cannot be cut as it was learnt: a mecab vocabulary where the run does not use mecab.
 */
export function morphemesFor(learntWith: string | undefined, analyzer: MorphAnalyzer | undefined, texts: readonly string[]): { morphemes?: MorphAnalyzer; warning?: string } {
  if (learntWith === undefined || !texts.some(isHangulWord)) return {};
  const morphemes = cuttingAnalyzer(learntWith, analyzer);
  if (morphemes?.name === learntWith) return { morphemes };
  const how = morphemes === undefined ? 'no Korean analyser reads the text here (as with --lang en): Korean words are tokenised whole' : `the ${morphemes.name} analyser cuts the text here`;
  return { ...(morphemes && { morphemes }), warning: `the vocabulary was learnt on ${learntWith} morphemes but ${how}; use ${learntWith} (--analyzer ${learntWith}${learntWith === 'mecab' ? ', apt-get install mecab where it is missing' : ''})` };
}
