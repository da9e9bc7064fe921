/**
 * The cities and counties of Korea (시·군), Seoul's and Busan's districts (구) and North Korea's larger
 * cities, as people write them without their suffix (파주, 거제, 해운대), and the regions above a
 * province (호남, 수도권). Public administrative facts, written for ppmlm; mecab-ko-dic reads most of
 * these as common nouns with no place class.
 */
export const KOREAN_CITIES: readonly string[] = (
  // 경기
  '수원 성남 부천 안산 안양 남양주 평택 의정부 시흥 파주 김포 군포 하남 안성 의왕 포천 동두천 과천 가평 양평 연천 ' +
  // 강원
  '춘천 강릉 동해 태백 속초 삼척 홍천 횡성 영월 평창 철원 화천 양구 양양 ' +
  // 충북, 충남
  '충주 제천 옥천 증평 진천 괴산 단양 천안 보령 아산 서산 논산 계룡 당진 금산 서천 청양 홍성 태안 ' +
  // 전북, 전남
  '군산 익산 정읍 남원 김제 진안 무주 임실 순창 고창 부안 목포 여수 순천 나주 광양 담양 구례 고흥 보성 화순 장흥 해남 영암 함평 완도 ' +
  // 경북, 경남, 제주
  '포항 김천 안동 영천 문경 경산 청송 영덕 청도 칠곡 예천 울진 울릉 창원 통영 사천 김해 밀양 거제 의령 함안 창녕 남해 하동 산청 합천 마산 진해 서귀포 ' +
  // 서울과 부산의 구
  '종로 용산 성동 광진 동대문 중랑 성북 강북 도봉 노원 은평 서대문 마포 양천 강서 구로 금천 영등포 서초 강남 송파 강동 해운대 동래 사하 금정 연제 ' +
  // 북한
  '평양 나진 남포 청진 함흥 혜산 신의주 사리원 강계 회령 만포 평성 단천 희천 ' +
  // 지방
  '호남 영남 수도권'
).split(' ');

/**
 * Cities and counties whose names are common words far more often (화성 Mars, 예산 budget, 영광 glory,
 * 고양 in 고양이, 경주 race): places only with their suffix (화성시, 예산군) or after their province
 * (경기 화성, 충남 예산), and then the province or suffix stays in the term.
 */
export const AMBIGUOUS_KOREAN_CITIES: readonly string[] = (
  '고양 용인 화성 광명 오산 이천 구리 양주 여주 원주 고성 인제 정선 청주 보은 영동 음성 공주 부여 예산 전주 완주 장수 ' +
  '곡성 강진 무안 영광 장성 진도 신안 경주 구미 영주 상주 군위 의성 영양 고령 성주 봉화 진주 양산 함양 거창 ' +
  '관악 수영 사상 기장 중구 동작 개성 원산 선봉 해주 안주 개천 정주'
).split(' ');

const CITIES = new Set([...KOREAN_CITIES, ...AMBIGUOUS_KOREAN_CITIES]);
/** A district named by its direction (중구, 서구), which mecab reads as a common noun, or as 중 + 구. */
export const DIRECTION_DISTRICT = /^[동서남북중]구$/;
/**
 * A Korean city, county or district written with its suffix (부천시, 고양시, 강동구), or a district named by
 * its direction (서구, 중구): a place, never a person's name, though its first syllable is a surname and
 * mecab-ko-dic holds a few as names (인천 서구). A given name alone that reads so (동구) is given up; with its
 * surname (김동구) it is another word.
 */
export function koreanCityWithSuffix(word: string): boolean {
  return DIRECTION_DISTRICT.test(word) || (/[시군구]$/.test(word) && CITIES.has(word.slice(0, -1)));
}
