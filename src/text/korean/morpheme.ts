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

/**
 * mecab's reading of a text, or none where the analyser is not mecab: the rules analyser has neither its
 * tags nor its dictionary, which the Korean recognisers and the model's filters read. mecab answers a text
 * they all read once (its analyser keeps the last few).
 */
export async function mecabReading(analyzer: MorphAnalyzer | undefined, text: string): Promise<readonly Morpheme[]> {
  return analyzer?.name === 'mecab' ? analyzer.analyze(text) : [];
}

/** Morphemes by where they start, the first of each start: a word's next piece is `byStart.get(piece.end)`. */
export function morphemesByStart(analysis: readonly Morpheme[]): Map<number, Morpheme> {
  const byStart = new Map<number, Morpheme>();
  for (const m of analysis) if (!byStart.has(m.start)) byStart.set(m.start, m);
  return byStart;
}

/**
 * The morphemes inside [start, end), for spans asked in text order: one pass over the analysis serves
 * them all (a judgment holds thousands of morphemes, and this runs in the corpus scan).
 */
export function morphemeCursor(analysis: readonly Morpheme[]): (start: number, end: number) => Morpheme[] {
  let a = 0;
  return (start, end) => {
    while (a < analysis.length && analysis[a]!.start < start) a++;
    const inside: Morpheme[] = [];
    for (let k = a; k < analysis.length && analysis[k]!.end <= end; k++) inside.push(analysis[k]!);
    return inside;
  };
}

const PREDICATE = /^(?:VV|VA|VX|XSV|XSA)$/;
/** Particles and punctuation (every symbol tag but foreign letters, Chinese characters and numbers), which follow a word's form without changing what it is. */
const AFTER_WORD = /^(?:J|S(?![LHN]))/;
/**
 * Whether morphemes (one span's, in order) end in a verb's form, particles and punctuation aside: a
 * predicate, and an ending last (송금받아, 공모하여, 운영하는), never a name. Only the end counts: mecab
 * misreads names it does not know as predicates inside them (한은우: 한/XSA+ETM 은우/NNG). A name it reads
 * as ending in a modifier's ending (박빈: 박/MAG 빈/VV+ETM) is lost with the verbs; leaving the modifier's
 * ending out kept far more verb forms (운영하는, 거주하는) than such names.
 */
export function verbForm(inside: readonly Morpheme[]): boolean {
  const last = inside.filter((m) => !AFTER_WORD.test(m.tag)).at(-1);
  return last !== undefined && last.tag.split('+').some((t) => t.startsWith('E')) && inside.some((m) => m.tag.split('+').some((t) => PREDICATE.test(t)));
}

/**
 * Counters and units that measure or count (원, 억, 일, 회, 명, 가구): a number with one is an amount, a
 * date's part or a count, never whose. Counters that name a thing by its number stay out (번 for a bus or
 * an account, 호 and 동 for a flat, 번지, 층, 길, 가): 402번 or 101호 may be an address's or a vehicle's.
 */
const MEASURE = new Set(['원', '달러', '엔', '위안', '유로', '억', '만', '천', '조', '년', '월', '일', '시', '분', '초', '주', '개월', '시간', '회', '차례', '번째', '명', '개', '개국', '권', '세', '살', '건', '장', '대', '배', '가구', '채', '마리', '통', '매', '잔', '병', '곳', '군데', '평', '여', '퍼센트', '%', '킬로그램', '그램', '킬로미터', '미터', '리터', 't', 'kg', 'g', 'km', 'm', 'cm', 'mm', 'ha']);
/** A Korean vehicle plate: two or three digits, a syllable, four digits. */
const PLATE = /^\d{2,3}\p{Script=Hangul}\d{4}$/u;
/**
 * Whether morphemes (one span's, in order) are a quantity, particles and punctuation aside: numbers and
 * measures only, at least one of each (27일, 643억, 1,000만 원, 4077가구, 30kg, 1400여). A token classifier trained on
 * plates and account numbers takes other numbers for them; a blacklist would protect 27일 everywhere.
 * Dates are the date recognisers' (`-DATE` leaves them out), amounts no one's.
 */
export function quantity(inside: readonly Morpheme[]): boolean {
  const pieces = inside.filter((m) => m.surface === '%' || !AFTER_WORD.test(m.tag));
  const measure = (m: Morpheme) => MEASURE.has(m.surface) && /^(?:NR|NN|S|XSN)/.test(m.tag);
  // A number goes on after a measure only in a big number (1억6500, 3162만1000달러); a number, a syllable and
  // a number is a plate's shape (12조3456, 34주5678), whatever mecab makes of its syllable.
  const goesOn = (m: Morpheme, k: number) => k === pieces.length - 1 || pieces[k + 1]!.tag !== 'SN' || (m.tag === 'NR' && !PLATE.test(pieces.map((p) => p.surface).join('')));
  return pieces.some((m) => m.tag === 'SN') && pieces.some(measure) && pieces.every((m, k) => m.tag === 'SN' || (measure(m) && goesOn(m, k)));
}

/** Common nouns, bound nouns and pronouns: words of the dictionary that name no one (얼굴, 이유, 나). */
const DICTIONARY_NOUN = /^(?:NNG|NNB|NP)$/;
/**
 * Which of `phrases` mecab reads, each alone, as one common noun, bound noun or pronoun a word (얼굴,
 * 말다툼, 왼쪽 뺨, 나 손): words of its dictionary, where a name is one it knows (NNP), one it splits into
 * pieces (오우 + 혁), a letter or a number. All are read in one call.
 */
export async function commonNounPhrases(analyzer: MorphAnalyzer, phrases: readonly string[]): Promise<boolean[]> {
  if (phrases.length === 0) return [];
  const inside = morphemeCursor(await analyzer.analyze(phrases.join('\n')));
  let at = 0;
  return phrases.map((phrase) => {
    let common = true;
    for (const word of phrase.split(' ')) {
      const pieces = inside(at, at + word.length);
      common &&= pieces.length === 1 && pieces[0]!.start === at && pieces[0]!.end === at + word.length && DICTIONARY_NOUN.test(pieces[0]!.tag);
      at += word.length + 1;
    }
    return common;
  });
}
