import { createRequire } from 'node:module';
import type { Detection, Recognizer } from './recognizer.js';
import { AMBIGUOUS_KOREAN_CITIES, DIRECTION_DISTRICT, KOREAN_CITIES, koreanCityWithSuffix } from './koreanCities.js';
import { isFunctionalTag, isHangulWord, mecabReading, morphemeCursor, morphemesByStart, type Morpheme, type MorphAnalyzer } from '../../text/index.js';
import { KOREAN_PARTICLE, KOREAN_PARTICLE_ONLY, MECAB_DICTIONARY_SOURCE, properNounRuns } from './koreanNames.js';
import { WORLD_PLACES_KO } from './worldPlaces.js';

/**
 * The 17 top-level regions of Korea, short and official names, North Korea's provinces and the provinces of
 * Joseon, which biographies name as birthplaces (평안북도 정주, 황해도 해주): public administrative facts.
 */
const REGIONS = (
  '서울 부산 대구 인천 광주 대전 울산 세종 경기 강원 충북 충남 전북 전남 경북 경남 제주 ' +
  '서울특별시 부산광역시 대구광역시 인천광역시 광주광역시 대전광역시 울산광역시 세종특별자치시 경기도 강원도 강원특별자치도 충청북도 충청남도 전라북도 전북특별자치도 전라남도 경상북도 경상남도 제주도 제주특별자치도 ' +
  '평안북도 평안남도 함경북도 함경남도 황해북도 황해남도 자강도 양강도 평북 평남 함북 함남 ' +
  '평안도 함경도 황해도 충청도 전라도 경상도'
).split(' ');

/** Country names that are common words far more often: 수단 (means), 오만 (arrogance), 말리 (말리는), 가나, 경기 (economy; 경기도 stays). */
const COMMON_WORDS = new Set(['수단', '오만', '말리', '가나', '경기', '기니', '차드', '토고']);

let places: ReadonlySet<string> | undefined;
/** Country names in Korean (`i18n-iso-countries`, MIT), the regions above, the cities and counties ({@link KOREAN_CITIES}) and the world's places ({@link WORLD_PLACES_KO}). */
export function koreanPlaces(): ReadonlySet<string> {
  if (places) return places;
  const require = createRequire(import.meta.url);
  const countries = require('i18n-iso-countries') as { registerLocale(l: unknown): void; getNames(lang: string, o: { select: 'all' }): Record<string, string[]> };
  countries.registerLocale(require('i18n-iso-countries/langs/ko.json'));
  places = new Set([...Object.values(countries.getNames('ko', { select: 'all' })).flat().filter((n) => !n.includes(' ')), ...REGIONS, ...KOREAN_CITIES, ...WORLD_PLACES_KO].filter((n) => !COMMON_WORDS.has(n)));
  return places;
}

const AMBIGUOUS = new Set(AMBIGUOUS_KOREAN_CITIES);
/** A region before a city, a district or a direction: 경기 화성, 충남 예산, 서울 중구, 경기 북부 (경기 alone is the economy). */
const REGION_NAMES = [...REGIONS].sort((a, b) => b.length - a.length).join('|');
const PROVINCE_BEFORE = new RegExp(
  String.raw`(?<![가-힣])(${REGION_NAMES}) ([가-힣]{1,3}?)(시|군|구)?(?=${KOREAN_PARTICLE}(?![가-힣]))`,
  'g',
);
const DIRECTIONS = new Set(['북부', '남부', '동부', '서부', '지역', '일대', '지방', '도내']);
/** A region with a direction written together: 경기남부, 충남지역, 경북북부 (경기 alone is the economy). */
const REGION_DIRECTION = new RegExp(
  String.raw`(?<![가-힣])(?:${REGION_NAMES})(?:${[...DIRECTIONS].join('|')})(?=${KOREAN_PARTICLE}(?![가-힣]))`,
  'g',
);
/**
 * Countries as Korean news abbreviates them in Chinese characters, standing alone with a particle at most:
 * 中 (China), 美 (the US), 北 (North Korea), 英, 佛, 獨, 露, 韓; 韓·美 too. Not one written against a word (각선美,
 * 수사中: beauty, in progress), inside a word of Chinese characters (中國, 中·高校), nor a gloss in brackets (미(美)).
 * Not 日 (Japan), far more often a day (5日, 土·日), which a term applied everywhere would protect. The
 * exclusions choose only the occurrences that make the term: the blacklist then protects 美 wherever mecab
 * reads it as a piece of its own, 각선美 included.
 */
const HANJA_COUNTRY = new RegExp(String.raw`(?<![\p{L}\p{N}(])[中美北英佛獨露韓](?=${KOREAN_PARTICLE}(?![\p{L}\p{N}]))(?!\)|[·ㆍ]\p{Script=Han}{2})`, 'gu');
/**
 * The division a place names, or its port, airport, terminal, bridge or beach, written apart after it, a
 * gloss in Chinese characters between if any: 캘리포니아 주, 아키타 현, 후난(湖南) 성, 훈춘 시, 부산 항,
 * 인천 국제공항; its character after it too (티모르 주(州)). Then a particle and the word's end. Not a word
 * that division and particle spell (미국 주도 아래: led by; 주가: a share price; 항의: a protest; 성과: a
 * result), nor 현 alone, which means current (미국 현 행정부).
 */
const DIVISION_AFTER = new RegExp(String.raw`^(?:\(\p{Script=Han}{1,4}\))? (?!(?:현|주[도가로]|성과|항의)(?![가-힣A-Za-z0-9]))(?:[주현성시섬항]|국제공항|공항|터미널|대교|해수욕장)(?:\(\p{Script=Han}\))?(?=${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9]))`, 'u');
/** Between two places of a list: a comma or a middle dot (이천, 안산, 용인; 부산·울산). */
const LIST_SEPARATOR = /^\s*[,·]\s*$/;

const WORD = /[가-힣]+/g;
/** The divisions mecab-ko-dic reads as a noun of their own after a foreign place: 신주쿠 + 구, 나라 + 현. */
const DIVISION_MORPHEMES = new Set(['구', '시', '군', '주', '현', '성', '부', '읍', '면', '동', '리']);
/**
 * A division written against a proper noun, then a particle or the word's end, as the noun's mention
 * (신주쿠구에, 지바현의): protected where written so, the name alone a term of its own. Not 도, which after
 * a place is most often the particle "too" (도쿄도 좋다).
 */
function divisionAfter(byStart: ReadonlyMap<number, Morpheme>, r: { start: number; end: number }): Pick<Detection, 'mention'> {
  const division = byStart.get(r.end);
  if (division === undefined || !division.tag.startsWith('NN') || !DIVISION_MORPHEMES.has(division.surface)) return {};
  // Nothing against it (a space, the text's end), a particle or punctuation.
  const next = byStart.get(division.end);
  const closes = next === undefined || isFunctionalTag(next.tag) || next.tag.startsWith('S');
  return closes ? { mention: { start: r.start, end: division.end } } : {};
}
/**
 * A building's number after its street, or a lot's after its neighbourhood, with its sub-number and 번지
 * (` 12`, ` 123-4`, ` 37번지`), then what may end an address: a particle, a space or punctuation, a comma
 * before the floor or the unit too, as the road-name address writes them (테헤란로 123, 4층). Not a date
 * (2019. 3. 4., 2019-03-04, 2019/3/4), a time (12:30), a list (1, 2, 3), a count or a measure (2019년, 3명,
 * 100만, 3km).
 */
const STREET_NUMBER = new RegExp(String.raw` ?\d{1,5}(?:-\d{1,4})?(?:번지|(?![\d:/-]|\.\s?\d|,\s?\d(?!\d*(?:층|호|동))|만|도|\s(?:(?:년|월|일|시|분|초|명|개|원|세|살)(?![가-힣])|(?:km|kg|cm|m)\b|%)))(?=${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9%]))`, 'y');
/** The length of the building or lot number at `at`, as an address writes it, or 0 where there is none. */
export function streetNumberAt(text: string, at: number): number {
  STREET_NUMBER.lastIndex = at;
  return STREET_NUMBER.exec(text)?.[0].length ?? 0;
}
/** A street's last syllable, as a pattern's piece (다솜로, 장안길; 으로 is the particle). */
export const STREET_END = String.raw`(?:(?<!으)로|길)`;
/** A side street numbered off its road, as a pattern's piece (경수대로508번길, 테헤란로7길). */
export const NUMBERED_STREET = String.raw`\d{1,4}번?(?:로|길)`;
const STREET = new RegExp(`${STREET_END}$`);
/** mecab's tags of a common noun, a bound noun or a number: a kind of place, not a name. */
export const COMMON_NOUN = /^(?:NNG|NNB|SN)/;
/** Tags a name's pieces may carry: nouns, numerals, foreign letters, Chinese characters, what mecab does not know. */
export const NOMINAL = /^(?:NN|NR|SL|SN|SH|UNKNOWN)/;

/** The stem of a word that `names` holds, a particle after it (안산, 용인에서, 이천과), if it has one: the shortest. */
export function stemIn(word: string, names: ReadonlySet<string>): string | undefined {
  for (let end = 2; end <= word.length; end++) if (names.has(word.slice(0, end)) && KOREAN_PARTICLE_ONLY.test(word.slice(end))) return word.slice(0, end);
  return undefined;
}
/** Whether a word is a city or a county with its suffix, however common its name alone (화성시, 예산군, 용인시). */
export function cityWithSuffix(word: string): boolean {
  return koreanCityWithSuffix(word) || (/[시군구]$/.test(word) && koreanPlaces().has(word.slice(0, -1)));
}

/** Whether a name begins with a listed place (안양제일교회). */
export function placePrefix(name: string, known: ReadonlySet<string>): boolean {
  for (let end = 2; end <= name.length; end++) if (known.has(name.slice(0, end))) return true;
  return false;
}

/** A proper noun (a person's name of two syllables aside: 부시), a place the lists know, or a {@link DIRECTION_DISTRICT}, as mecab's `pieces` of `word` read it. */
function placeWord(word: string, pieces: readonly Morpheme[], known: ReadonlySet<string>): boolean {
  return pieces.some((p) => p.tag.startsWith('NNP') && (p.semantic !== '인명' || word.length >= 3)) || placePrefix(word, known) || placePrefix(word, AMBIGUOUS) || DIRECTION_DISTRICT.test(word);
}
function endsFunctional(pieces: readonly Morpheme[]): boolean {
  return /(?:^|\+)[JE]/.test(pieces.at(-1)?.tag ?? '');
}
/**
 * How much of a subdivision (`word` at `start`, its `stem` without a particle, mecab's `pieces` of it where
 * mecab ran, in `text`) belongs to an address: the word, the place without its particle
 * (유성구로, 신사동에서), or undefined where it is no subdivision.
 */
function subdivisionLength(stem: string, word: string, start: number, pieces: readonly Morpheme[] | undefined, text: string, known: ReadonlySet<string>): number | undefined {
  // A street with its building number, however mecab splits the street (장 + 안길, 가 + 경로, 중구로 120).
  if (STREET.test(word) && streetNumberAt(text, start + word.length) > 0) return word.length;
  // Whatever mecab's pieces (중 + 구: a bound noun and a copula).
  if (DIRECTION_DISTRICT.test(stem)) return stem.length;
  // A numbered neighbourhood (성수동1가, 신림2동), by its form.
  if (/\d(?:가|동)$/.test(stem)) return stem.length;
  // A place and its particle (유성구로 이사: to 유성구): the place, where mecab reads one (not 요구로, 임시로);
  // without mecab, a stem of three syllables or more (not 도시에서, 이동을).
  if (stem.length < word.length) return (pieces === undefined ? stem.length >= 3 : placeWord(stem, pieces.filter((p) => p.end <= start + stem.length), known)) ? stem.length : undefined;
  if (pieces === undefined) return word.length;
  // One common noun or adverb is a word that ends like a place (이동, 당시, 거리, 역시).
  if (pieces.length === 1 && /^(?:NNG|MAG|MAJ)/.test(pieces[0]!.tag)) return undefined;
  if (!endsFunctional(pieces)) return word.length;
  // mecab reads a street as a noun and the particle 로 (다솜로, 센텀로); after a common noun, a street only
  // with its number, checked above (구월로 12, not 바다로 이주: to the sea).
  if (!STREET.test(word) || pieces.length < 2) return undefined;
  return COMMON_NOUN.test(pieces.at(-2)!.tag) ? undefined : word.length;
}

/**
 * A subdivision below a city, county or district, numbered roads and neighbourhoods among them (흥덕구,
 * 신사동, 다솜로, 강남대로94길, 광덕1로, 성수동1가, 신림2동), and the particle after it: the shortest stem
 * that ends in a unit, so that 유성구로 reads 유성구 and 로, and 다솜로 a street.
 */
const SUBDIVISION_WORD = String.raw`([가-힣]{1,8}?(?:${NUMBERED_STREET}|(?:동|로)\d{1,2}가|\d{1,2}동|구|군|시|읍|면|동|리|로|길))(${KOREAN_PARTICLE})(?![가-힣0-9])`;
/** A city, county or district, a subdivision after it (청주시 흥덕구, 해운대구 우동): where an address may start. */
const ADDRESS_START = new RegExp(String.raw`(?<![가-힣])[가-힣]{1,6}(?:특별시|광역시|시|도|군|구)(?=\s${SUBDIVISION_WORD})`, 'g');
/** The next subdivision after an address's part. */
const SUBDIVISION = new RegExp(String.raw`^\s${SUBDIVISION_WORD}`);

/**
 * Korean places: country names, the regions, cities and counties (`list:ko-places`), with a particle
 * attached (일본의, 서울에서, 파주에, 강진군과), and abbreviated in Chinese characters (中, 美); a city whose
 * name is a common word with its suffix (화성시), after its region, which stays in the term (경기 화성, 서울
 * 중구, 경기 북부, 경기남부: `context:ko-province`), or in a list beside a listed place (이천, 안산:
 * `context:ko-place-list`); the
 * place names mecab-ko-dic knows (`list:mecab-ko-dic`, with mecab only: 강남구, 을지로) and its proper nouns
 * of no class (워싱턴, 경부고속도로: `PROPER_NOUN`), and addresses down to a district or street
 * (`rule:ko-address`). Facilities by their own name are the `korean-facilities` recogniser.
 */
export class KoreanPlaceRecognizer implements Recognizer {
  readonly name = 'korean-places';
  constructor(private readonly analyzer?: MorphAnalyzer) {}

  async find(text: string): Promise<Detection[]> {
    if (!isHangulWord(text)) return [];
    const analysis = await mecabReading(this.analyzer, text);
    const byStart = morphemesByStart(analysis);
    const out: Detection[] = properNounRuns(analysis, '지명').map((r) => ({ ...r, category: 'LOCATION', source: MECAB_DICTIONARY_SOURCE, ...divisionAfter(byStart, r) }));
    // A proper noun the dictionary gives no class (워싱턴, 경부고속도로, 플라자호텔, 야스쿠니신사): in news
    // mostly a place or an organisation, and what no list knows may identify (Philter's rule, as English
    // reads an unlisted capitalised word).
    for (const r of properNounRuns(analysis, undefined)) out.push({ ...r, category: 'PROPER_NOUN', source: MECAB_DICTIONARY_SOURCE, ...divisionAfter(byStart, r) });
    const known = koreanPlaces();
    const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, text: m[0], place: stemIn(m[0], known) }));
    for (const w of words) {
      // The shortest stem that is a place, its particle after it: 일본의 → 일본.
      if (w.place !== undefined) {
        out.push({ start: w.start, end: w.start + w.place.length, category: 'LOCATION', source: 'list:ko-places' });
        continue;
      }
      // A city or county with its suffix, however common its name: 화성시, 예산군, 강진군과.
      for (let end = 2; end < w.text.length; end++) {
        if (cityWithSuffix(w.text.slice(0, end + 1)) && KOREAN_PARTICLE_ONLY.test(w.text.slice(end + 1))) {
          out.push({ start: w.start, end: w.start + end + 1, category: 'LOCATION', source: 'list:ko-places' });
          break;
        }
      }
    }
    // A place with its division written apart (캘리포니아 주에서): the division stays in a term of its own.
    for (const d of out.filter((x) => x.category === 'LOCATION')) {
      const division = DIVISION_AFTER.exec(text.slice(d.end, d.end + 24));
      if (division !== null) out.push({ start: d.start, end: d.end + division[0].length, category: 'LOCATION', source: d.source });
    }
    for (const m of text.matchAll(PROVINCE_BEFORE)) {
      const city = m[2]!;
      if (known.has(city) || AMBIGUOUS.has(city) || DIRECTIONS.has(city)) out.push({ start: m.index, end: m.index + m[1]!.length + 1 + city.length + (m[3]?.length ?? 0), category: 'LOCATION', source: 'context:ko-province' });
    }
    for (const m of text.matchAll(REGION_DIRECTION)) out.push({ start: m.index, end: m.index + m[0].length, category: 'LOCATION', source: 'context:ko-province' });
    for (const m of text.matchAll(HANJA_COUNTRY)) out.push({ start: m.index, end: m.index + 1, category: 'LOCATION', source: 'rule:ko-hanja-country' });
    // A city whose name is a common word, in a list beside a listed place: 이천, 안산, 용인 (이천: two thousand).
    for (const [i, w] of words.entries()) {
      const stem = stemIn(w.text, AMBIGUOUS);
      if (stem === undefined) continue;
      const beside = [words[i - 1], words[i + 1]].some((v) => v !== undefined && v.place !== undefined && LIST_SEPARATOR.test(v.start < w.start ? text.slice(v.start + v.text.length, w.start) : text.slice(w.start + w.text.length, v.start)));
      if (beside) out.push({ start: w.start, end: w.start + stem.length, category: 'LOCATION', source: 'context:ko-place-list' });
    }
    const addressPieces = morphemeCursor(analysis);
    const mecab = analysis.length > 0;
    const starts = new RegExp(ADDRESS_START.source, 'g');
    for (let m = starts.exec(text); m !== null; m = starts.exec(text)) {
      // With mecab, only where the first word is a proper noun or a place the lists know, ending in no
      // particle or ending, and each subdivision is no common word and ends in none unless it is a street
      // or a place: not 다시 수원으로 (an adverb), 해도 당시 (a verb form), 정도 고정하면, read as addresses by
      // their last syllables alone; nor 부시 당시, a person's name of two syllables (mecab reads 강서구 as
      // one too). Without mecab the form alone decides, down one subdivision only. A word refused, the next
      // may start an address (당시 서울시 강남구).
      const first = mecab ? addressPieces(m.index, m.index + m[0].length) : [];
      if (mecab && (!placeWord(m[0], first, known) || endsFunctional(first))) continue;
      // Down the subdivisions (부산시 해운대구 센텀로 12, 경상북도 포항시 북구 흥해읍 마산리 12) to a street, a
      // particle or a word that is none.
      let end = m.index + m[0].length;
      for (let part = SUBDIVISION.exec(text.slice(end)), depth = 0; part !== null && depth < (mecab ? 5 : 1); part = SUBDIVISION.exec(text.slice(end)), depth++) {
        const word = part[1]! + part[2]!;
        const start = end + part[0].length - word.length;
        const length = subdivisionLength(part[1]!, word, start, mecab ? addressPieces(start, start + word.length) : undefined, text, known);
        if (length === undefined) break;
        end = start + length;
        if (length < word.length || STREET.test(word)) break;
      }
      if (end === m.index + m[0].length) continue;
      starts.lastIndex = end;
      // A street's building number or a neighbourhood's lot number is how the address is written there (다솜로
      // 12, 테헤란로 123-4, 인계동 1122-3번지): its mention, protected where written; the street or the
      // neighbourhood stays a term of its own, protected wherever it is written, with or without a number.
      const numbered = STREET.test(text.slice(m.index, end)) || /[동리가]$/.test(text.charAt(end - 1)) ? streetNumberAt(text, end) : 0;
      out.push({ start: m.index, end, category: 'LOCATION', source: 'rule:ko-address', ...(numbered > 0 && { mention: { start: m.index, end: end + numbered } }) });
    }
    return out;
  }
}
