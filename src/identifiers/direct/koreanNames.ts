import { isFunctionalTag, type MorphAnalyzer } from '../../text/index.js';
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

/** Particles a noun takes in running text: 홍길동이, 서울에서. */
export const KOREAN_PARTICLE = '(?:이|가|은|는|을|를|의|에서|에게서|에게|한테|께서|께|와|과|으로부터|로부터|으로|로|이와|이가|이는|이를|이의|이에게|이라는|라는|이고|이며|도|만|측|등|외)?';
/** What a name takes: 홍길동에게, 홍길동씨가. */
const PARTICLE = `(?:씨|님)?${KOREAN_PARTICLE}`;
const PARTICLE_ONLY = new RegExp(`^${PARTICLE}$`);

/** Roles after which a name comes in judgments and news: 피고인 홍길동은, 피해자 이채나(남, 36세). */
const ROLES_BEFORE = new Set(
  ('피고인 피해자 증인 공범 공소외 고소인 고발인 신청인 피신청인 피의자 변호인 변호사 판사 재판장 검사 원고 피고 대표 대표이사 사장 회장 이사 직원 친구 남편 아내 처 부인 아들 딸 어머니 아버지 ' +
    '모친 부친 동생 여동생 남동생 형 누나 언니 오빠 배우자 지인 종업원 선배 후배 동료 계주 매도인 매수인 채권자 채무자 임차인 임대인 운영자 명의자 손자 손녀 조카 애인 동거인 사위 며느리 ' +
    '공인회계사 세무사 기자 감독 선수 교수 의원 장관 대통령 총리 위원장 씨 성명 환자 보호자 담당의 의사 간호사').split(' '),
);
/** Titles after a name: 김철수 장관, 박영희 씨. */
const TITLES_AFTER = new Set('씨 님 명의 대표 회장 사장 장관 의원 대통령 총리 감독 선수 교수 기자 판사 검사 변호사 위원장 원장 부장 과장 팀장 작가 시장 도지사 후보'.split(' '));
/** A title with its particle, if any: 장관은, 명의의, 씨가. */
const titleWord = (word: string) => [...TITLES_AFTER].some((t) => word.startsWith(t) && PARTICLE_ONLY.test(word.slice(t.length)));

/** Tags of common words and predicates: a stem mecab reads as one of these (피해자, 사무실, 사용하) is no name. */
const WORD_TAGS = /^(?:NNG|NNB|NP|VV|VA|VX|MAG|MAJ|XR|MM)/;

const HANGUL_WORD = /[가-힣]+/g;
const SURNAME_SET = new Set(SURNAMES);

/** The name a word starts with (surname + given syllables) and the particle after it, if the word is one. */
function nameLength(word: string): { length: number; rest: string } | undefined {
  for (const surname of [word.slice(0, 2), word.slice(0, 1)]) {
    if (!SURNAME_SET.has(surname)) continue;
    // A one-syllable surname takes two given syllables: 정부, 이번 are words far more often than names.
    for (const given of surname.length === 2 ? [2, 1] : [2]) {
      const name = surname.length + given;
      if (word.length < name || ![...word.slice(surname.length, name)].every((s) => GIVEN.has(s))) continue;
      const rest = word.slice(name);
      if (PARTICLE_ONLY.test(rest)) return { length: name, rest };
    }
  }
  return undefined;
}

/**
 * Korean person names: a surname and one or two given-name syllables, with a particle or title attached,
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
    const out: Detection[] = [];
    if (!words.some((w) => nameLength(w.text) !== undefined)) return out;
    // Morphemes by start, when a real analyser (mecab, with its tags) is at hand.
    const morphemes = new Map<number, { tag: string; end: number }>();
    if (this.analyzer?.name === 'mecab') for (const m of await this.analyzer.analyze(text)) if (!morphemes.has(m.start)) morphemes.set(m.start, m);
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
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const parsed = nameLength(w.text);
      if (parsed === undefined) continue;
      const { length: name, rest } = parsed;
      if (ROLES_BEFORE.has(w.text.slice(0, name)) || commonWord(w.start, name)) continue;
      const before = i > 0 && /^[\s,]*$/.test(text.slice(words[i - 1]!.end, w.start)) ? words[i - 1]!.text : undefined;
      const next = i + 1 < words.length && /^\s*$/.test(text.slice(w.end, words[i + 1]!.start)) ? words[i + 1]!.text : undefined;
      let source: string | undefined;
      // 피해자 홍길동, 지인인 홍길동 (who is an acquaintance), 피해자의 딸 홍길동.
      if (before !== undefined && (ROLES_BEFORE.has(before) || ROLES_BEFORE.has(before.replace(/(?:인|은|는|이|가|의)$/, '')))) source = 'context:ko-role';
      else if (/^(?:씨|님)/.test(rest) || (next !== undefined && titleWord(next))) source = 'context:ko-title';
      else if (rest === '' && /^\(\s*(?:남|여)\s*,\s*\d{1,3}세/.test(text.slice(w.end, w.end + 12))) source = 'context:ko-age';
      if (source) out.push({ start: w.start, end: w.start + name, category: 'PERSON', source });
    }
    return out;
  }
}
