import { isHangulWord, RuleAnalyzer, type MorphAnalyzer } from '../text/index.js';
import { sliceNormalized } from './normalizer.js';
import type { PreToken } from './preTokenizer.js';
import type { Encoding, Tokenizer } from './types.js';
import { bertPreTokenize, WordPieceTokenizer, type WordPieceOptions } from './wordpiece.js';

/**
 * Splits BERT pre-tokens further wherever a morpheme starts (morpheme starts as offsets into the original
 * text), so no subword token spans two morphemes: 홍길동이 → 홍길동 | 이, and an entity's label never covers
 * the particle after it. This is the Mecab-ko + subword tokenisation of Thunder-DeID.
 */
export function splitAtMorphemes(preTokens: readonly PreToken[], morphemeStarts: ReadonlySet<number>): PreToken[] {
  const out: PreToken[] = [];
  for (const p of preTokens) {
    let from = 0;
    for (let k = 1; k < p.text.length; k++) {
      const original = p.starts[k]!;
      if (original !== p.starts[k - 1] && morphemeStarts.has(original)) {
        out.push(sliceNormalized(p, from, k));
        from = k;
      }
    }
    out.push(from === 0 ? p : sliceNormalized(p, from, p.text.length));
  }
  return out;
}

/**
 * The pre-tokens of a vocabulary learnt on morphemes: BERT's, cut again wherever a morpheme starts when the
 * text holds Hangul. Learning the vocabulary and encoding for training both take them from here, so the
 * vocabulary holds the pieces encoding asks for (punctuation the analyser leaves out included).
 */
export async function morphemePreTokens(text: string, options: WordPieceOptions, analyzer: MorphAnalyzer): Promise<PreToken[]> {
  const preTokens = bertPreTokenize(text, options);
  if (!isHangulWord(text)) return preTokens;
  return splitAtMorphemes(preTokens, new Set((await analyzer.analyze(text)).map((m) => m.start)));
}

/**
 * Tokenises with WordPiece on morphemes where an analyser is given (no token crosses a morpheme
 * boundary), else as the tokenizer does; a byte-level BPE tokenizer always reads text as it does.
 */
export async function tokenizeAtMorphemes(tokenizer: Tokenizer, text: string, analyzer?: MorphAnalyzer): Promise<Encoding> {
  if (analyzer === undefined || !(tokenizer instanceof WordPieceTokenizer) || !isHangulWord(text)) return tokenizer.tokenize(text);
  return tokenizer.tokenizePreTokens(await morphemePreTokens(text, tokenizer.options, analyzer));
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
