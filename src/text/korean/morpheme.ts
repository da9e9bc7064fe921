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

const PREDICATE = /^(?:VV|VA|VX|XSV|XSA)/;
/**
 * Whether the words in [start, end) end in a predicate's ending, particles aside: a verb's or adjective's
 * form (송금받아, 공모하여, 빌려주면), never a name. Only the end counts: mecab misreads names it does not
 * know as predicates inside them (한은우: 한/XSA+ETM 은우/NNG; 박빈원: 박/MAG 빈/VV+ETM 원/NNG).
 */
export function verbForm(morphemes: readonly Morpheme[], start: number, end: number): boolean {
  const inside = morphemes.filter((m) => m.start >= start && m.end <= end);
  const last = inside.filter((m) => !m.tag.startsWith('J')).at(-1);
  return last !== undefined && /(?:^|\+)E/.test(last.tag) && inside.some((m) => m.tag.split('+').some((t) => PREDICATE.test(t)));
}
