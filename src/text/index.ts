export { normalizeTerm, withoutAccents, withoutPossessive } from './normalize.js';
export { segmentWords, isHangulWord } from './segment.js';
export type { WordSpan } from './segment.js';
export { contentWords, plainContentWords, wordNgrams, ngramTerms, visitNgrams, isNgramTerm, nameLikeWord, resolveNgramOptions } from './words.js';
export type { ContentWord, NgramOptions, Ngram } from './words.js';
export * from './korean/index.js';
