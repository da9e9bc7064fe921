import { UsageError } from '../../errors.js';
import { RuleAnalyzer } from './ruleAnalyzer.js';
import { MecabAnalyzer, locateMecab } from './mecab.js';
import type { MorphAnalyzer } from './morpheme.js';

export type { Morpheme, MorphAnalyzer } from './morpheme.js';
export { commonNounPhrases, isFunctionalTag, mecabReading, morphemeCursor, morphemesByStart, quantity, verbForm } from './morpheme.js';
export { RuleAnalyzer, analyzeByRule } from './ruleAnalyzer.js';
export { MecabAnalyzer, locateMecab, npmDictionary } from './mecab.js';
export type { MecabLocation } from './mecab.js';
export { splitParticle, PARTICLE_FORMS, endsInConsonant, finalConsonant } from './josa.js';

export const ANALYZER_CHOICES = ['auto', 'mecab', 'rule'] as const;
export type AnalyzerChoice = (typeof ANALYZER_CHOICES)[number];

/** A text's language as commands take it: `ko` and `auto` bring Korean morphology, `en` never does. */
export const LANGUAGES = ['auto', 'en', 'ko'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The analyser texts of `lang` need: none for `en`, else the Korean one ({@link createKoreanAnalyzer}),
 * which `contentWords` consults only for texts with Hangul.
 */
export function analyzerForLanguage(lang: Language, choice: AnalyzerChoice = 'auto', onFallback?: (why: string) => void): MorphAnalyzer | undefined {
  return lang === 'en' ? undefined : createKoreanAnalyzer(choice, onFallback);
}

/**
 * The Korean analyser: mecab when it can be found (`auto`, `mecab`), else the rule-based fallback, about
 * which `onFallback` is told once. `madeWith` names the analyser a model or vocabulary was made with:
 * left to choose, the rule one stays the rule one (its pieces are not mecab's).
 */
export function createKoreanAnalyzer(choice: AnalyzerChoice = 'auto', onFallback?: (why: string) => void, madeWith?: string): MorphAnalyzer {
  if (choice === 'rule' || (choice === 'auto' && madeWith === 'rule')) return new RuleAnalyzer();
  const location = locateMecab();
  if ('missing' in location) {
    if (choice === 'mecab') throw new UsageError(`--analyzer mecab: ${location.missing}; or use --analyzer rule`);
    onFallback?.(`Korean morphology uses the built-in rule analyser (${location.missing})`);
    return new RuleAnalyzer();
  }
  return new MecabAnalyzer(location);
}
