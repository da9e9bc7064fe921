import type { Rng } from '../engine/random.js';
import { rrnCheckDigit } from '../identifiers/index.js';
import { endsInConsonant, finalConsonant } from '../text/index.js';

const SURNAMES = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황', '안', '송', '전', '홍', '유', '고', '문', '양', '손', '배', '백', '허', '남', '심'];
const SYLLABLES = '민서준도윤하지현우은수영진호연재성혜태경아주원예시유채소나동건승희다인혁찬규빈';

/**
 * Stems of Korean road and neighbourhood names, common across cities (중앙로, 시청로, 신흥동), written for
 * ppmlm: public facts, no list of the data's. Thunder-DeID has no list for its address labels, whose
 * placeholders would otherwise stay letters (B에 있는), so that neither a model trained on the filling nor a
 * measurement against it ever sees an address.
 */
const PLACE_STEMS = ['중앙', '시청', '역전', '충의', '경수', '새말', '세종', '충장', '금남', '구월', '인하', '수성', '달구벌', '광안', '중부', '평화', '통일', '문화', '번영', '신흥', '희망', '시장', '공원', '대학', '한강', '소양', '무등', '금강', '낙동', '해안', '동산', '가야', '충렬', '화랑', '원효', '을지', '퇴계', '율곡', '도산', '마들', '양화', '성산', '봉화', '용두', '장안', '신촌', '대흥', '송림', '청룡', '백운'];
const lotNumber = (rng: Rng) => `${1 + rng.int(999)}${rng.int(2) === 0 ? `-${1 + rng.int(30)}` : ''}`;
/** A road-name address below a city or a district (새말로 117-21, 중앙대로 508, 충의로12번길 5), or a lot number in a neighbourhood (신흥동 123-4). */
function addressBelowCity(rng: Rng): string {
  const stem = rng.pick(PLACE_STEMS);
  const kind = rng.int(20);
  if (kind < 4) return `${stem}동 ${lotNumber(rng)}`;
  const road = kind < 12 ? `${stem}로` : kind < 15 ? `${stem}대로` : kind < 17 ? `${stem}길` : `${stem}로${1 + rng.int(60)}번길`;
  return `${road} ${lotNumber(rng)}`;
}
/** Below a county, a town or township first (기장읍 충렬로 12, 송림면 대흥리 123-4). */
function addressBelowCounty(rng: Rng): string {
  return rng.int(2) === 0 ? `${rng.pick(PLACE_STEMS)}${rng.pick(['읍', '면'])} ${addressBelowCity(rng)}` : `${rng.pick(PLACE_STEMS)}면 ${rng.pick(PLACE_STEMS)}리 ${lotNumber(rng)}`;
}
// Its own regions and districts, not the recognisers' lists (koreanCities, koreanPlaces): fillings drawn
// from those would measure the rules on exactly the names they hold.
const REGIONS = ['서울', '부산', '대구', '인천', '광주', '대전', '울산', '경기', '강원', '충북', '충남', '전북', '전남', '경북', '경남', '제주'];
const DISTRICTS = ['중구', '동구', '서구', '남구', '북구', '강남구', '송파구', '마포구', '노원구', '해운대구', '수성구', '유성구', '연수구', '덕양구', '영통구', '흥덕구'];
/** A number of `digits` digits at most, no leading zero: a floor, a prison cell. */
const numbered = (digits: number) => (rng: Rng) => String(1 + rng.int(10 ** digits - 1));
/** A room as a building numbers it, its floor first: 302, 1203. */
const room = (rng: Rng) => `${1 + rng.int(25)}${String(1 + rng.int(12)).padStart(2, '0')}`;

/** Generators for the labels upstream generates by code instead of listing (names, numbers, ages), and addresses, which upstream leaves as placeholders. */
export const GENERATED: Record<string, (rng: Rng) => string> = {
  내국인이름: (rng) => rng.pick(SURNAMES) + SYLLABLES[rng.int(SYLLABLES.length)] + SYLLABLES[rng.int(SYLLABLES.length)],
  주민등록번호: (rng) => {
    const year = 1950 + rng.int(55);
    const front = `${String(year % 100).padStart(2, '0')}${String(1 + rng.int(12)).padStart(2, '0')}${String(1 + rng.int(28)).padStart(2, '0')}`;
    const gender = (year >= 2000 ? 3 : 1) + rng.int(2);
    const first12 = `${front}${gender}${String(rng.int(100000)).padStart(5, '0')}`;
    return `${front}-${first12.slice(6)}${rrnCheckDigit(first12)}`;
  },
  전화번호: (rng) => `010-${String(rng.int(10000)).padStart(4, '0')}-${String(rng.int(10000)).padStart(4, '0')}`,
  계좌번호: (rng) => `${100 + rng.int(900)}-${String(rng.int(1e6)).padStart(6, '0')}-${String(rng.int(100)).padStart(2, '0')}-${100 + rng.int(900)}`,
  카드번호: (rng) => {
    const digits = Array.from({ length: 15 }, () => rng.int(10));
    digits[0] = 4 + rng.int(2);
    let sum = 0;
    for (let i = 0; i < 15; i++) {
      let d = digits[14 - i]!;
      if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    const all = [...digits, (10 - (sum % 10)) % 10].join('');
    return all.match(/.{4}/g)!.join('-');
  },
  차량번호: (rng) => `${10 + rng.int(90)}${rng.pick(['가', '나', '다', '라', '마', '거', '너', '더', '러', '머', '고', '노', '도', '로', '모'])}${1000 + rng.int(9000)}`,
  나이: (rng) => `${20 + rng.int(60)}세`,
  생년: (rng) => `${1950 + rng.int(55)}년생`,
  // A court writes the unit above (서울 마포구 B에 있는, 기장군 B에) and the kind after (C호, D동, B실).
  구아래주소: addressBelowCity,
  시아래주소: addressBelowCity,
  구이하주소: addressBelowCity,
  소재: addressBelowCity,
  구아래주소건물: addressBelowCity,
  시아래주소건물: addressBelowCity,
  군아래주소: addressBelowCounty,
  주소: (rng) => `${rng.pick(REGIONS)} ${rng.pick(DISTRICTS)} ${addressBelowCity(rng)}`,
  호실: room,
  호: room,
  동: (rng) => String(101 + rng.int(20)),
  층: numbered(1),
  실: numbered(2),
  수용동: numbered(1),
  // A line, an exit or a cell (지하철 C호선, D번 출구, 수용번호 E번), a bus route, a train, and the taxi or lorry
  // a court names by its plate.
  호선: numbered(1),
  번호: numbered(2),
  버스번호: numbered(4),
  열차번호: numbered(4),
};
GENERATED['휴대폰번호'] = GENERATED['전화번호']!;
// The taxonomy's name for a card number: judgments tag it so, and Thunder-DeID's synonym map files 카드번호 under it.
GENERATED['신용카드번호'] = GENERATED['카드번호']!;
GENERATED['버스'] = GENERATED['노선번호'] = GENERATED['버스번호']!;
GENERATED['택시'] = GENERATED['화물차'] = GENERATED['차량번호']!;

const RESTAURANTS = ['한식당', '중식당', '일식당', '분식점', '고깃집', '횟집', '치킨집', '뷔페', '레스토랑', '동남아음식점', '해외식당'];
const SHOPS = ['사업체/도소매및유통'];
const LANDMARKS = ['사업체/외식업', '사업체/도소매및유통', '사업체/미용욕탕신체관리서비스', '사업체/숙박업', '기관및시설/상업시설'];
const FIRMS = ['사업체/서비스일반', '사업체/기업일반', '사업체/도소매및유통', '사업체/외식업'];
const SCHOOLS = ['초등학교', '중학교', '고등학교', '대학교', '해외학교'];
/**
 * Labels with neither a list nor a generator that name a business or a facility (C식당, D 앞 도로, E 사무실),
 * and where their surrogates come from: a group of the dataset's category tree (`사업체/외식업`: every list
 * it files there) or a list's label. A restaurant's name from the restaurants' lists (not a bar's, before
 * the court's 식당), a landmark's from shops, restaurants, bars and buildings. Without them the court's
 * letter stayed in 432 of the violence judgments' 5,722 gold spans, these and the numbers above now fill all
 * but 8: text that no model trained on the filling and no measurement against it ever saw as a name. A
 * label's own list, or its synonym's, comes first ({@link fillDocument}).
 */
export const STAND_IN_SOURCES: Readonly<Record<string, readonly string[]>> = {
  식당: RESTAURANTS,
  음식점: RESTAURANTS,
  외식업: RESTAURANTS,
  매장: SHOPS,
  점포: SHOPS,
  매점: SHOPS,
  노점상: SHOPS,
  위치기준: LANDMARKS,
  폭행장소: LANDMARKS,
  사기장소: LANDMARKS,
  사무실: ['사업체/부동산중개및임대매매', '사업체/법률', '사업체/기업일반', '사업체/서비스일반'],
  센터: ['스포츠센터', '문화시설', '복지시설', '직업능력개발훈련시설'],
  학교: SCHOOLS,
  중고등학교: SCHOOLS,
  사업체: FIRMS,
  사업체일반: FIRMS,
  유한회사: ['사업체/기업일반'],
};

const PAIRS: [consonant: string, vowel: string][] = [
  ['으로', '로'],
  ['이라고', '라고'],
  ['이라는', '라는'],
  ['이랑', '랑'],
  ['이나', '나'],
  ['이며', '며'],
  ['은', '는'],
  ['을', '를'],
  ['과', '와'],
  ['이', '가'],
];

/** The particle that starts `following` and ends its word (는 of 는 말했다, not 이 of 이미), with its pair. */
function leadingParticle(following: string): { pair: [consonant: string, vowel: string]; form: string } | undefined {
  for (const pair of PAIRS) {
    for (const form of pair) {
      const next = following[form.length];
      if (following.startsWith(form) && (next === undefined || !/[가-힣]/.test(next))) return { pair, form };
    }
  }
  return undefined;
}

/** Whether `following` starts with a particle that ends its word: 과 of `과 같은`, 로 of `로 이동`. */
export const startsWithParticle = (following: string): boolean => leadingParticle(following) !== undefined;

/**
 * Rewrites the particle at the start of `following` to agree with `word` (홍길동 + 는 → 은): 은/는, 이/가,
 * 을/를, 과/와, 으로/로 (로 after a vowel or ㄹ), 이나/나, 이랑/랑, 이며/며, 이라고/라고, 이라는/라는. Only a
 * particle that ends the eojeol is touched, so 이다 or 이미 are left alone.
 */
export function agreeParticle(word: string, following: string): string {
  const found = leadingParticle(following);
  if (found === undefined) return following;
  const [c, v] = found.pair;
  const consonant = endsInConsonant(word);
  const rieul = finalConsonant(word.at(-1) ?? '') === 8 || /[178]$/.test(word);
  const wanted = c === '으로' ? (consonant && !rieul ? c : v) : consonant ? c : v;
  return wanted + following.slice(found.form.length);
}
