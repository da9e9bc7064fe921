import { isHangulWord, mecabReading, morphemeCursor, type Morpheme, type MorphAnalyzer } from '../../text/index.js';
import type { Detection, Recognizer } from './recognizer.js';
import { KOREAN_PARTICLE } from './koreanNames.js';
import { COURT_PLACEHOLDER } from './koreanOrganizations.js';
import { COMMON_NOUN, NOMINAL, NUMBERED_STREET, STREET_END, cityWithSuffix, koreanPlaces, placePrefix, stemIn, streetNumberAt } from './koreanPlaces.js';

/** Kinds of facility a name comes before. */
const FACILITY_KINDS = '아파트|빌라|맨션|오피스텔|타워|빌딩|센터|타운|병원|교회|성당|마트|호텔|모텔|공원|초등학교|중학교|고등학교|대학교|백화점|공항|터미널|경찰서|파출소|지구대|주점|술집|식당|카페|노래방|노래연습장|상가|편의점|체육관|경기장|운동장|광장|박물관|미술관|기념관|전시관|도서관|전망대|골프장|컨트리클럽|리조트|수목원|해수욕장|유원지';
/**
 * A facility's name and its kind, written as one word, a particle after it: 한진한화그랑빌아파트,
 * 유은타워7차, 바오로마트에서, 구례정원건물; the building may follow (삼영빌딩건물, 초원그린타운아파트), outside the
 * term. An apartment complex's name may run long (충남내포신도시1차대방엘리움더퍼스티지아파트).
 */
const FACILITY = new RegExp(
  String.raw`(?<![가-힣A-Za-z0-9])(?<name>[가-힣A-Za-z0-9]{2,24}?)(?<kind>${FACILITY_KINDS}|건물)(?<phase>\d+차)?(?<after>(?:건물|아파트)?${KOREAN_PARTICLE})(?![가-힣A-Za-z0-9])`,
  'g',
);
/** Words that say what kind of building, not which, before its kind (신축아파트건물, 주상복합건물, 인근빌딩건물). */
const NOT_A_BUILDING_NAME = new Set('신축 고층 저층 노후 인근 주변 해당 대형 소형 주상복합 임대 국민임대 영구임대 상가 주택 공동 같은 다른 이웃 맞은편 건너편'.split(' '));
/** A facility's name as its own word before its kind: 한빛맥주 술집에서, ‘비어앤펍’주점, 한빛맥주 건물. */
const NAME_BEFORE_KIND = new RegExp(
  String.raw`(?<![가-힣A-Za-z0-9])(?<open>['‘"“]?)(?<name>[가-힣A-Za-z0-9]{2,15})(?:(?<close>['’"”]) ?| )(?:${FACILITY_KINDS}|건물|가게|매장)${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9])`,
  'g',
);
/**
 * A name right after who runs it or where it stands, its particle after it: 피해자가 운영하는 한국자산신탁에서,
 * B에 있는 에코플랜 앞. What a judgment names there is the business or the building the
 * events took place in; a common noun (운영하는 식당, 있는 집) is no name, a court's placeholder (B에 있는
 * C 앞, C식당) holds no personal data, a city with its suffix is a place (소재 용인시), and a court, a
 * government office, a prison or a railway line is public, which the gold of judgments leaves as text
 * (광주지방법원, 대구지방고용노동청, 대구교도소, 의정부경전철).
 */
const NAME_AFTER_WHERE = new RegExp(
  String.raw`(?:운영하는|운영하던|경영하는|에 있는|소재|위치한) ['‘"“]?(?<name>[가-힣A-Za-z0-9&]{2,15}?)['’"”]?${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9&])`,
  'dg',
);
/**
 * Whether the word that ends at `end` is a street, its building number after it: a kind before 로 names a
 * road (공원로 652, 중구 공원로), not a facility reached (공원으로, 식당으로).
 */
const streetAt = (text: string, end: number) => text[end - 1] === '로' && text[end - 2] !== '으' && streetNumberAt(text, end) > 0;
const INSTITUTION = /(?:법원|지원|청|지청|교도소|구치소|소년원|보호관찰소|호선|경전철)$/;
/** A piece of a name that tells it apart from a kind: no common noun, nor a court's placeholder (RA 건물, C호 건물). */
const distinctive = (p: Morpheme) => !COMMON_NOUN.test(p.tag) && !COURT_PLACEHOLDER.test(p.surface);
/** Whether mecab's pieces of a word are nouns only, one of them {@link distinctive}: a name, not a kind (한빛맥주, not 동네). */
const nounsNamingOne = (pieces: readonly Morpheme[]) => pieces.every((p) => NOMINAL.test(p.tag)) && pieces.some(distinctive);
/**
 * A railway or subway station, its name and 역 as one word (남창역, 춘의역을). 역 ends many words (지역, 구역, 서울지역),
 * so a station only where the words around it say so or mecab-ko-dic knows it as a proper noun.
 */
const STATION = new RegExp(String.raw`(?<![가-힣A-Za-z0-9])(?<name>[가-힣A-Za-z0-9]{2,12}?역)['’"”]?${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9])`, 'dg');
/** What follows a station's name: an exit, a platform, the concourse, where a train is bound (부평구청행, 수서 방면). */
const STATION_AFTER = /^\s?(?:(?:\d+|[A-Z]{1,2})번\s?출구|출구(?!조사|전략)|승강장|역사(?![상적학가책])|역무실|대합실|개찰구|매표|플랫폼|[가-힣]{2,6}행(?![가-힣])|(?:[가-힣]{2,6}\s?)?방면)/;
/** What comes before a station's name: its line (지하철 3호선, 의정부경전철). */
const STATION_BEFORE = /(?:지하철|전철|경전철|\d호선|KTX|SRT|기차)\s$/;
/** Words for a station that name none: the station in question, the next one, a transfer station, where one gets off. */
const NOT_A_STATION = /^(?:해당|인근|다음|이전|이번|환승|종착|종점|시발|출발|도착|하차|승차|정차|전철|기차|지하철|간이|무인|근처|같은)역$/;
/** A part in a play or a film, which 역 also means: 햄릿역을 맡은, 형사역으로 출연한. */
const ROLE_AFTER = /^(?:을|를|으로|로|은|는)?\s?(?:맡|연기|열연|출연)/;
/** Common nouns that end in 역, which mecab reads as the last piece of a word that is no station (서울 + 지역). */
const WORDS_ENDING_IN_YEOK = new Set('지역 구역 권역 광역 영역 전역 해역 수역 유역 무역 현역 병역 징역 배역 주역 대역 통역 번역 노역 복역 성역 하역'.split(' '));
/**
 * A palace named before its kind in one word, a particle after it: 경복궁, 덕수궁에서, 화성행궁 (mecab-ko-dic
 * reads most as common nouns). Not a kind of palace (아방궁, 세자궁; 왕궁, 고궁 have one syllable before 궁),
 * a womb (인공자궁) nor archery (여자양궁, 한국국궁).
 */
const PALACE = new RegExp(String.raw`(?<![가-힣A-Za-z0-9])([가-힣]{2,4}궁)${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9])`, 'g');
const NOT_A_PALACE = /^(?:아방궁|세자궁|[가-힣]*[자양국]궁)$/;
/**
 * A street with its building number right after a city, a county or a district (흥덕구 새말로 117-21에,
 * 의정부시 충의로 125에, 중구 경수대로508번길 42): the part of an address below the district, which a
 * standard that leaves places unprotected still marks (Thunder-DeID's 구아래주소) and which goes with
 * `korean-places`' whole address (`rule:ko-address`) when the places are left out. The street one word in
 * 로 or 길 (not the particle 으로), the number as an address writes it ({@link streetNumberAt}).
 */
const STREET_AFTER_DISTRICT = new RegExp(String.raw`(?<=(?<![가-힣])[가-힣]{1,6}(?:시|군|구) )[가-힣0-9]{1,10}${STREET_END}(?:${NUMBERED_STREET})?(?= ?\d)`, 'g');
/**
 * A home's or an office's unit, the last part of a Korean address: an apartment block and a room after the
 * building (a facility's kind, 건물, 주택, 원룸), its floor or its street number (한빛아파트 103동 1203호, 새말로
 * 117-21, 1203호, 로얄빌라 302호, 2층 201호), the room after its block too. Each part a term of its own,
 * protected wherever written. Not a subway line or an article (3호선, 제2호), nor a number no building,
 * floor or address number comes before (피해자 3명 102호). A digit first, so that the look behind runs
 * only where a number starts.
 */
const UNIT = new RegExp(String.raw`(?=\d)(?<=(?:${FACILITY_KINDS}|건물|주택|원룸|층|\d동|\d)['’]?,? )(?:\d{2,4}동 (?=\d{3,4}호)|\d{3,4}[동호](?=${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9])))`, 'g');
/**
 * A prison's cell, numbered after the prison or its block (대구교도소 89실, 청주교도소 내 90실, 수용동 3실):
 * where an inmate lives, which a judgment names as it names a home's unit. Not a room of anything else
 * (회의실, 3실 규모).
 */
const CELL = new RegExp(String.raw`(?=\d)(?<=(?:교도소|구치소|수용동)['’]?(?: 내)? )\d{1,3}실(?=${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9]))`, 'g');
/**
 * Korean facilities by their own name (`rule:ko-facility`): a name before its kind (아파트, 타워, 병원, 교회,
 * 마트, 공원, 학교, 주점, 식당, 편의점..., and the landmarks news names: 체육관, 경기장, 박물관, 해수욕장...),
 * named after a listed place or, with mecab, holding a piece that is no common noun (안양제일교회, 바오로마트;
 * not 대학병원, 동네마트), the building after it outside the term (삼영빌딩건물); a palace named in one word
 * (경복궁); a name as its own word before the kind, quoted or, with mecab, of nouns one of which is no common
 * noun (‘비어앤펍’주점, 한빛맥주 술집; not 동네 술집); with mecab, a name after who runs it or where it stands
 * (운영하는 한국자산신탁에서: `context:ko-venue`); a station (남창역, 미사역 5번 출구: `rule:ko-station`); a street
 * and its building number after a district (흥덕구 새말로 117-21: `rule:ko-street`); a unit's block and room
 * (아파트 103동 1203호: `rule:ko-unit`). A recogniser of its own, apart from `korean-places`:
 * a facility's name says where someone was, while a city or a district is public geography that a standard
 * may leave unprotected (Thunder-DeID's gold marks facilities and never a place above an address's
 * district), so `--recognizers -korean-places` keeps this one.
 */
export class KoreanFacilityRecognizer implements Recognizer {
  readonly name = 'korean-facilities';
  constructor(private readonly analyzer?: MorphAnalyzer) {}

  async find(text: string): Promise<Detection[]> {
    if (!isHangulWord(text)) return [];
    const analysis = await mecabReading(this.analyzer, text);
    const known = koreanPlaces();
    // Matches come in text order, as the morphemes do: one pass over each regex's matches serves them all.
    const pieces = morphemeCursor(analysis);
    const out: Detection[] = [];
    for (const m of text.matchAll(FACILITY)) {
      // A facility's own name before its kind (바오로마트, 신안대우병원, 안양제일교회), not a kind of it (대학병원,
      // 동네마트, 종합병원): a listed place, with mecab any piece that is no common noun, or, whatever its
      // pieces, a building numbered by its phase or its kind written again after it (유은타워7차, 폴리타워건물,
      // 초원그린타운아파트), which only a name is.
      // mecab-ko-dic may read name and kind as one proper noun (플라자호텔). Before 건물, a word that is a kind
      // itself, only a noun that is no common one names it (구례정원건물; not 주거용건물, 3층짜리건물).
      const { name, kind } = m.groups as { name: string; kind: string };
      const nameEnd = m.index + name.length;
      const read = pieces(m.index, nameEnd + kind.length);
      const own = read.filter((p) => p.end <= nameEnd);
      const oneName = read.length === 1 && read[0]!.tag.startsWith('NNP');
      const named = kind === '건물' ? own.some((p) => NOMINAL.test(p.tag) && distinctive(p)) : own.some(distinctive);
      const numbered = (m.groups!.phase !== undefined || /^(?:건물|아파트)/.test(m.groups!.after!)) && !NOT_A_BUILDING_NAME.has(name);
      if (COURT_PLACEHOLDER.test(name) || streetAt(text, m.index + m[0].length)) continue;
      if (placePrefix(name, known) || numbered || oneName || named) out.push({ start: m.index, end: m.index + m[0].length - m.groups!.after!.length, category: 'LOCATION', source: 'rule:ko-facility' });
    }
    for (const m of text.matchAll(PALACE)) if (!NOT_A_PALACE.test(m[1]!)) out.push({ start: m.index, end: m.index + m[1]!.length, category: 'LOCATION', source: 'rule:ko-facility' });
    const before = morphemeCursor(analysis);
    for (const m of text.matchAll(NAME_BEFORE_KIND)) {
      // Quoted, a name; else a name after a listed place (도봉휴한신아파트) or, with mecab, a word of nouns
      // only, one of them no common noun (한빛맥주, 삼파통닭맥주, CU; not 동네 술집, 작은 식당, 위 주점). A listed
      // place alone, its particle after it, before a kind says where, not which (부산 식당, 부산에서 식당을).
      const { open, name, close } = m.groups!;
      const start = m.index + open!.length;
      const read = before(start, start + name!.length);
      if (COURT_PLACEHOLDER.test(name!) || streetAt(text, m.index + m[0].length)) continue;
      const quoted = open !== '' && close !== undefined;
      const named = nounsNamingOne(read);
      const where = stemIn(name!, known) !== undefined;
      if (quoted || ((named || placePrefix(name!, known)) && !where)) out.push({ start, end: start + name!.length, category: 'LOCATION', source: 'rule:ko-facility' });
    }
    const after = morphemeCursor(analysis);
    for (const m of text.matchAll(NAME_AFTER_WHERE)) {
      // With mecab only: nouns, one of them no common noun nor a placeholder, not a person's name alone (B에
      // 있는 김철수의 집; 에코 + 플랜 is a firm's), not Latin letters alone, which there are most often a device (거실에 있는 TV, 은행에 있는 ATM).
      const name = m.groups!.name!;
      const place = stemIn(name, known) !== undefined || cityWithSuffix(name);
      if (COURT_PLACEHOLDER.test(name) || /^[A-Za-z]+$/.test(name) || place || INSTITUTION.test(name)) continue;
      const [start, end] = m.indices!.groups!.name!;
      const read = after(start, end);
      if (nounsNamingOne(read) && !read.every((p) => p.semantic === '인명')) out.push({ start, end, category: 'LOCATION', source: 'context:ko-venue' });
    }
    const street = morphemeCursor(analysis);
    for (const m of text.matchAll(STREET_AFTER_DISTRICT)) {
      const number = streetNumberAt(text, m.index + m[0].length);
      // With mecab, not a common noun in 로 that a number may follow (도로 3, 경로 2).
      const read = street(m.index, m.index + m[0].length);
      if (number === 0 || (read.length === 1 && COMMON_NOUN.test(read[0]!.tag))) continue;
      out.push({ start: m.index, end: m.index + m[0].length + number, category: 'LOCATION', source: 'rule:ko-street' });
    }
    for (const m of [...text.matchAll(UNIT), ...text.matchAll(CELL)]) out.push({ start: m.index, end: m.index + m[0].trimEnd().length, category: 'LOCATION', source: 'rule:ko-unit' });
    const station = morphemeCursor(analysis);
    for (const m of text.matchAll(STATION)) {
      const name = m.groups!.name!;
      const [start, end] = m.indices!.groups!.name!;
      const read = station(start, end);
      const listed = known.has(name.slice(0, -1));
      // Not a common noun in 역 after a word (서울 + 지역; without mecab by its last two syllables, unless a listed
      // place comes before 역: 대전역); after a prefix it is mecab's misreading (대 + 전역: 대전역).
      const last = read.at(-1);
      const commonNoun = last === undefined ? !listed && WORDS_ENDING_IN_YEOK.has(name.slice(-2)) : WORDS_ENDING_IN_YEOK.has(last.surface) && name.length - last.surface.length >= 2;
      if (NOT_A_STATION.test(name) || commonNoun || ROLE_AFTER.test(text.slice(end, end + 8))) continue;
      // A listed place and 역 (대전역), mecab-ko-dic's station (남창역 as one proper noun), or a proper noun and 역 (서울 + 역).
      const proper = (read.length === 1 && read[0]!.tag.startsWith('NNP')) || (last?.surface === '역' && read.some((p) => p.tag.startsWith('NNP') && p.semantic !== '인명'));
      if (listed || proper || STATION_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 16)) || STATION_BEFORE.test(text.slice(Math.max(0, start - 8), start))) {
        out.push({ start, end, category: 'LOCATION', source: 'rule:ko-station' });
      }
    }
    return out;
  }
}
