/** One morpheme of a text; its characters are text.slice(start, end) (for contracted forms, the surface). */
export interface Morpheme {
  surface: string;
  /** Sejong-style tag as mecab-ko-dic prints it (NNG, NNP, JKS, EF, ...). The rule analyser uses NN, J, E. */
  tag: string;
  /** mecab-ko-dic's semantic class of a proper noun: 인명 (a person's name), 지명 (a place name). */
  semantic?: string;
  start: number;
  end: number;
}

/** A Korean morphological analyser: the real one (mecab) or the rule-based fallback. */
export interface MorphAnalyzer {
  readonly name: string;
  analyze(text: string): Promise<readonly Morpheme[]>;
  close(): Promise<void>;
}

/**
 * Tags that end the content part of an eojeol: particles (J*), endings (E*), the copula (VCP) and
 * verb/adjective-deriving suffixes (XSV, XSA: 판결 in 판결했다). Multi-tag inflected forms (EP+EF) start with
 * one of these too.
 */
export function isFunctionalTag(tag: string): boolean {
  const first = tag.split('+')[0]!;
  return first.startsWith('J') || first.startsWith('E') || first === 'VCP' || first === 'XSV' || first === 'XSA';
}
