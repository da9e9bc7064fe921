import { describe, expect, it } from 'vitest';
import { analyzerForLanguage, type MorphAnalyzer } from '../../src/text/index.js';
import { KoreanNameRecognizer } from '../../src/identifiers/index.js';

/** Whether mecab runs here (the CI installs it; a bare machine skips the tests that need it). */
const mecabHere = analyzerForLanguage('ko', 'auto');
const hasMecab = mecabHere?.name === 'mecab';
void mecabHere?.close();
const found = async (text: string) => (await new KoreanNameRecognizer().find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`);
/** The addresses the place recogniser reads in `text` (with `analyzer`, else by form alone), each with its mention in braces where it has one. */
async function addressesIn(text: string, analyzer?: MorphAnalyzer): Promise<string[]> {
  const { KoreanPlaceRecognizer } = await import('../../src/identifiers/index.js');
  const found = (await new KoreanPlaceRecognizer(analyzer).find(text)).filter((d) => d.source === 'rule:ko-address');
  return found.map((d) => text.slice(d.start, d.end) + (d.mention === undefined ? '' : `{${text.slice(d.mention.start, d.mention.end)}}`));
}

describe('Korean names in context', () => {
  it.skipIf(!hasMecab)('with mecab, takes no common noun or predicate a role precedes', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    try {
      const text = '피고인 피해자 명의의 계좌로, 피해자 사무실 앞에서 피해자 김영호로부터';
      const found = (await new KoreanNameRecognizer(analyzer).find(text)).map((d) => text.slice(d.start, d.end));
      expect(found).toEqual(['김영호']);
      // mecab-ko-dic reads 이주하 (a name it lists) in 이주하였다, the verb 이주하다 (to move); a listed name with
      // the copula (was 김민하), a name after a role and the name with a particle stay names.
      const moved = '그는 부산으로 이주하였다. 범인은 김민하였다. 담당자는 피해자 이서하였다. 피해자 이주하는 그곳에 있었다';
      expect((await new KoreanNameRecognizer(analyzer).find(moved)).map((d) => moved.slice(d.start, d.end))).toEqual(['김민하', '이서하', '이주하']);
    } finally {
      await analyzer?.close();
    }
  });

  it.skipIf(!hasMecab)('asks mecab once for a text the name and place recognisers and the word splitter all read', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab')!;
    try {
      const first = analyzer.analyze('피해자 홍길동은 서울에서');
      expect(analyzer.analyze('피해자 홍길동은 서울에서')).toBe(first);
      expect((await first).map((m) => m.semantic).filter(Boolean)).toContain('지명');
    } finally {
      await analyzer.close();
    }
  });

  it.skipIf(!hasMecab)('with mecab, takes the names and places its dictionary knows, its loanwords among them', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    const { KoreanFacilityRecognizer, KoreanPlaceRecognizer } = await import('../../src/identifiers/index.js');
    try {
      const names = async (text: string) => (await new KoreanNameRecognizer(analyzer).find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`);
      expect(await names('아이린은 과거 박보검과 함께 출연했다')).toEqual(['아이린|list:mecab-ko-dic', '박보검|list:mecab-ko-dic']);
      expect(await names('이번 전기에서 스티브 잡스의 일화도')).toEqual(['스티브|list:mecab-ko-dic', '잡스|list:mecab-ko-dic']);
      // A foreign name whose given name is one syllable, whole; two names of two syllables or more stay apart.
      expect(await names('남편 빌 클린턴(69) 전 대통령과')).toContain('빌 클린턴|list:mecab-ko-dic');
      expect(await names('폴 그린그래스 감독은')).toContain('폴 그린그래스|list:mecab-ko-dic');
      expect((await names('이순재 최민용 출연')).filter((d) => d.includes(' '))).toEqual([]);
      expect(await names('스티브 잡스와 빌 게이츠가 만났다')).toContain('빌 게이츠|list:mecab-ko-dic');
      expect(await names('올해 디젤 라인업으로 승부수를 던진다')).toEqual(['디젤|list:mecab-ko-dic']);
      const text = '서울 송파구에서 만났고 을지로에 갔다';
      expect((await new KoreanPlaceRecognizer(analyzer).find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`)).toEqual(['서울|list:mecab-ko-dic', '송파구|list:mecab-ko-dic', '을지로|list:mecab-ko-dic', '서울|list:ko-places', '송파구|list:ko-places', '서울 송파구|context:ko-province']);
      // A place's division written apart stays with it; not a week after a word that is no place.
      const division = '캘리포니아 주에서 온 그는 훈춘 시에 갔다가 이번 주에 인천 국제공항으로 돌아왔다';
      expect((await new KoreanPlaceRecognizer(analyzer).find(division)).map((d) => division.slice(d.start, d.end))).toEqual(expect.arrayContaining(['캘리포니아 주', '훈춘 시', '인천 국제공항']));
      // A division against a proper noun, which mecab reads as a noun of its own: the noun's mention.
      const ward = '일본 도쿄도 신주쿠구에 본사를 두었다';
      expect((await new KoreanPlaceRecognizer(analyzer).find(ward)).filter((d) => d.mention !== undefined).map((d) => ward.slice(d.mention!.start, d.mention!.end))).toEqual(['신주쿠구']);
      // Not a word the division and a particle spell, nor 현 (current) alone.
      const words = '미국 주도 아래 부산 항소가 늘고 한국 성과 중국 항의, 미국 현 행정부';
      expect((await new KoreanPlaceRecognizer(analyzer).find(words)).map((d) => words.slice(d.start, d.end)).filter((p) => p.includes(' '))).toEqual([]);
      // A proper noun the dictionary gives no class, as a proper noun; common nouns are not.
      const other = '경부고속도로를 지나 플라자호텔에 갔다';
      expect((await new KoreanPlaceRecognizer(analyzer).find(other)).map((d) => `${other.slice(d.start, d.end)}|${d.category}`)).toEqual(['경부고속도로|PROPER_NOUN', '플라자호텔|PROPER_NOUN']);
      // With mecab, a facility whose name holds a piece that is no common noun (바오로: a name).
      const shop = '바오로마트에 들렀다';
      expect((await new KoreanFacilityRecognizer(analyzer).find(shop)).map((d) => `${shop.slice(d.start, d.end)}|${d.source}`)).toEqual(['바오로마트|rule:ko-facility']);
      // Landmarks of news as facilities too: a gymnasium and a beach named by a place; not a kind of one (실내체육관, 시립미술관).
      const venues = '고양체육관에서 열린 경기 뒤 해운대해수욕장에 갔고, 실내체육관과 시립미술관은 닫혀 있었다';
      expect((await new KoreanFacilityRecognizer(analyzer).find(venues)).map((d) => venues.slice(d.start, d.end))).toEqual(['고양체육관', '해운대해수욕장']);
      // A name as its own word before its kind, of nouns one of which is no common noun (한빛: a name), and a
      // building after the kind, outside the term; a common noun or an adjective before a kind is none.
      const bar = '한빛맥주 술집에서 나와 KT서천빌딩건물 앞, 동네 술집과 작은 식당에서';
      const facilities = (await new KoreanFacilityRecognizer(analyzer).find(bar)).map((d) => bar.slice(d.start, d.end));
      expect(facilities).toEqual(['KT서천빌딩', '한빛맥주']);
      // A building numbered by its phase or its kind written again after it is a name whatever mecab reads in
      // it; so is a name before 건물 itself; a word for a kind of building is none (신축, 상가, 주상복합).
      const buildings = '유은타워7차건물 앞, 폴리타워건물 주차장, 초원그린타운아파트 정문, 구례정원건물 C호, 신축아파트건물, 상가건물 2층, 주상복합건물에서';
      expect((await new KoreanFacilityRecognizer(analyzer).find(buildings)).filter((d) => d.source === 'rule:ko-facility').map((d) => buildings.slice(d.start, d.end))).toEqual(['유은타워7차', '폴리타워', '초원그린타운', '구례정원건물']);
      // mecab-ko-dic reads a district named by its direction as a person's name here (인천 서구): a place.
      const district = '피고인은 인천 서구 남악베아채비올레아파트 관리사무소에서';
      expect((await new KoreanNameRecognizer(analyzer).find(district)).map((d) => district.slice(d.start, d.end))).not.toContain('서구');
      // A suffix is no name before 건물 (주거용, 3층짜리); a facility mecab-ko-dic reads as one proper noun is one.
      // A court's placeholder before a kind is none either (RA 건물, C호 건물, RA빌딩).
      const more = '주거용건물과 3층짜리건물, 플라자호텔에서, RA 건물, C호 건물, RA빌딩에서';
      expect((await new KoreanFacilityRecognizer(analyzer).find(more)).map((d) => more.slice(d.start, d.end))).toEqual(['플라자호텔']);
      // A listed place before a kind, its particle after it or not, says where (부산 식당, 부산에서 식당을).
      const where = '부산 식당에서 나와 부산에서 식당을 찾았다';
      expect(await new KoreanFacilityRecognizer(analyzer).find(where)).toEqual([]);
      // A kind before 로 or 길 and a building number is a road, the district before it no park's name (중구
      // 공원로 652); a park reached is one (해운대공원으로).
      const roads = '인천 중구 공원로 652에 있는 가게, 의정부시 공원로 182-16, 해운대공원로 12에서 해운대공원으로 갔다';
      expect((await new KoreanFacilityRecognizer(analyzer).find(roads)).filter((d) => d.source === 'rule:ko-facility').map((d) => roads.slice(d.start, d.end))).toEqual(['해운대공원']);
      // A name after who runs it or where it stands (context:ko-venue); not a common noun, a court's
      // placeholder with or without a kind, nor a court or a prison.
      const venue = async (text: string) => (await new KoreanFacilityRecognizer(analyzer).find(text)).filter((d) => d.source === 'context:ko-venue').map((d) => text.slice(d.start, d.end));
      expect(await venue('피해자가 운영하는 한국자산신탁에서 만났고 B에 있는 에코플랜 앞에서')).toEqual(['한국자산신탁', '에코플랜']);
      // Nor Latin letters alone, most often a device there.
      expect(await venue('피해자가 운영하는 식당에서, B에 있는 C 앞, B에 있는 C식당에서, 광주 소재 광주지방법원에서, 위치한 대구교도소에, 거실에 있는 TV를, 은행에 있는 ATM에서, B에 있는 김철수의 집')).toEqual([]);
      // Nor a city with its suffix, a government office or a railway line.
      expect(await venue('인천 소재 용인시에서, B에 있는 대구지방고용노동청에서, 소재 의정부경전철')).toEqual([]);
      // A station (rule:ko-station): mecab-ko-dic's, a listed place's, or one the words around name (an exit,
      // a line before it). Not a common noun in 역 (지역, 징역), nor a station that names none (다음역).
      const stations = async (text: string) => (await new KoreanFacilityRecognizer(analyzer).find(text)).filter((d) => d.source === 'rule:ko-station').map((d) => text.slice(d.start, d.end));
      expect(await stations('남창역에서 내려 대전역으로, 미사역 5번 출구 앞, 지하철 5호선 김대중컨벤션센터역 승강기')).toEqual(['남창역', '대전역', '미사역', '김대중컨벤션센터역']);
      expect(await stations('부산지역에서 징역 1년에 처하고, 서울지역 역사를 다음역 승강장에서, 호남지역 출구조사, 하차역 출구')).toEqual([]);
      // 역 as a part in a play: not a station.
      expect(await stations('햄릿역을 맡은 배우')).toEqual([]);
      // A street and its building number after a district (rule:ko-street), kept when the places are left
      // out; not a common noun in 로 before a number, a date, or a count.
      const streets = async (text: string) => (await new KoreanFacilityRecognizer(analyzer).find(text)).filter((d) => d.source === 'rule:ko-street').map((d) => text.slice(d.start, d.end));
      expect(await streets('서울 구로구 새말로 117-21에 있는 역, 의정부시 충의로 125에서, 안양시 만안구 경수대로508번길 42에 있는')).toEqual(['새말로 117-21', '충의로 125', '경수대로508번길 42']);
      expect(await streets('서울 중구 도로 3곳에서, 강남구 테헤란로 2019년, 서초구 반포대로 3명이')).toEqual([]);
      // The number before a comma and the floor or the unit, as the road-name address writes it; not a list.
      expect(await streets('서울 관악구 역전로2번길 26, 1층에서, 미추홀구 시청로 112, 1907호 내에서')).toEqual(['역전로2번길 26', '시청로 112']);
      expect(await streets('강남구 테헤란로 1, 2, 3')).toEqual([]);
      // A unit's block and room after its building, floor or address number (rule:ko-unit); not a line, an article or a count.
      const units = async (text: string) => (await new KoreanFacilityRecognizer(analyzer).find(text)).filter((d) => d.source === 'rule:ko-unit').map((d) => text.slice(d.start, d.end));
      expect(await units('한빛아파트 103동 1203호에서, 역전동 751, 1601호에 있는, 로얄빌라 302호, 2층 201호, 서울대병원 1105호')).toEqual(['103동', '1203호', '1601호', '302호', '201호', '1105호']);
      expect(await units('지하철 3호선, 제2호 서식, 피해자 3명 102호')).toEqual([]);
      // A prison's cell after the prison or its block; not a room of anything else.
      expect(await units("대구교도소 89실에 수용 중, 청주교도소 내 90실에서, ‘전주교도소' 84실 내에서, 미결수용동 61실에서, 회의실 3실 규모, 사무실 12실")).toEqual(['89실', '90실', '84실', '61실']);
    } finally {
      await analyzer?.close();
    }
  });

  it.skipIf(!hasMecab)('with mecab, takes names that recur with several endings or that mecab cannot read, not derived words', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    try {
      const names = async (text: string) => (await new KoreanNameRecognizer(analyzer).find(text)).map((d) => text.slice(d.start, d.end));
      // mecab reads 황성 + 도 and 양소 + 인: the bracketed sex and age still mark the person.
      expect(await names('그 전 피해자 황성도(여, 47세)에게, 피해자 양소인(56세)과')).toEqual(['황성도', '양소인']);
      expect(await names('피고인은 정윤도와 처음 만나 정윤도의 친구와 술을 마셨다')).toEqual(['정윤도', '정윤도']);
      expect(await names('기술의 우수성이 높고 평가의 공정성을 담보하며 말다툼을 하다가')).toEqual([]);
      // A surname alone keeps its title in the term: every surname is also a word (문: a door).
      expect(await names('김대중 전 대통령과 권 부회장은 문 대표에게')).toEqual(['김대중', '권 부회장', '문 대표']);
      // mecab-ko-dic lists 이유로 (이유, a reason, and 로) as a name, read so where the word stands alone.
      expect(await names('이유로')).toEqual([]);
      // A surname and 모 before 씨 is someone half-named, though mecab reads 이모 (an aunt) and 조모 as words.
      expect(await names('기소된 이모씨(57)에게 선고했다')).toEqual(['이모씨']);
      expect(await names('브로커 조모 씨가 왔고 이모가 왔다')).toEqual(['조모 씨']);
      expect(await names('부모님이 오셨고 이모님과 이모 씨앗을 심었다')).toEqual([]);
      // 손 + 님 is a customer, not Mr Son; 김씨 is Mr Kim.
      expect(await names('손님이 오자 김씨가 말했다')).toEqual(['김씨']);
      // A proper noun mecab classes as no place counts before a title (a company before 대표 too); a common
      // noun there (트럼프/NNG) and a body (법무부) do not.
      expect(await names('애플 대표를 만났고 트럼프 대통령의 요구에 법무부 장관은')).toEqual(['애플']);
    } finally {
      await analyzer?.close();
    }
  });

  it.skipIf(!hasMecab)('with mecab, takes a name-shaped word in a list beside a name, and a listed name before the copula or a title written against it', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    try {
      const names = async (text: string) => (await new KoreanNameRecognizer(analyzer).find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`);
      // mecab reads 박병 + 은 and 황제 + 성 (a derived word): among the names mecab knows, each is one.
      expect(await names('임시완, 진구, 박병은, 이동휘 등')).toContain('박병은|context:ko-list');
      expect(await names('황제성, 김두영, 하준수 등의 멤버들')).toContain('황제성|context:ko-list');
      // The last of a list takes its particle, and ends the list.
      expect(await names('윤명준, 고봉재는 왔다')).toContain('고봉재|context:ko-list');
      expect((await names('윤명준, 고봉재는, 황제성 이야기')).filter((d) => d.endsWith('ko-list'))).toEqual(['고봉재|context:ko-list']);
      // One found from another in a run: 박병은 beside 김두영, then 황제성 beside 박병은; across middle dots too.
      expect((await names('황제성, 박병은, 김두영 등')).filter((d) => d.endsWith('ko-list'))).toEqual(['박병은|context:ko-list', '황제성|context:ko-list']);
      expect(await names('김경희·강태화·안효성 기자')).toContain('강태화|context:ko-list');
      // Not beside anything but a name, nor after a name followed by a particle, nor a word mecab reads whole.
      expect((await names('황제성, 그리고 시장은')).filter((d) => d.endsWith('ko-list'))).toEqual([]);
      expect((await names('김두영은, 황제성 이야기를')).filter((d) => d.endsWith('ko-list'))).toEqual([]);
      expect(await names('김두영, 한국인 등')).toEqual(['김두영|list:mecab-ko-dic']);
      expect(await names('가수 정재욱이었음을 밝혔다')).toContain('정재욱|list:mecab-ko-dic');
      expect(await names('안중근의사 유해와 김시담이사는')).toEqual(['안중근|context:ko-title', '김시담|context:ko-title']);
      // A title that is also a word confirms a full name, never a surname alone (이 의사를: this doctor).
      expect(await names('안중근 의사는 이 의사를 밝혔다')).toEqual(['안중근|context:ko-title']);
    } finally {
      await analyzer?.close();
    }
  });

  it('reads a name after a role, before a title, or before sex and age, without its particle', async () => {
    expect(await found('피해자 이채나(남, 36세)와 시비를 하던 중')).toEqual(['이채나|context:ko-role']);
    expect(await found('피고인 홍길동은 2020. 6. 6. 피해자를 폭행하였다')).toEqual(['홍길동|context:ko-role']);
    expect(await found('김철수 장관은 이날 말했다. 박영희씨가 왔다')).toEqual(['김철수|context:ko-title', '박영희|context:ko-title']);
    expect(await found('당시 이채나(여, 40세)가 있었다')).toEqual(['이채나|context:ko-age']);
    expect(await found('증인 남궁민수에게 물었다')).toEqual(['남궁민수|context:ko-role']);
    // A city or a district with its suffix after a role is where, not who, though 부 and 고 are surnames.
    expect(await found('피고인은 부천시 늘푸른빌라 앞에서, 피해자 고양시 거주')).toEqual([]);
    // A title written together with the name, and particles of two pieces (와의: with … of).
    expect(await found('김덕용의원은 말했다. 김두민군이 왔다. 피해자 송지효와의 관계')).toEqual(['김덕용|context:ko-title', '김두민|context:ko-title', '송지효|context:ko-role']);
    // Every particle and copula ending the rule analyser knows counts: the list is one.
    expect(await found('당시 운전자는 피해자 박지훈이었고, 증인은 피고인 최민수밖에 없었다')).toEqual(['박지훈|context:ko-role', '최민수|context:ko-role']);
    // News half-names (김모: Kim so-and-so) and writes ages bare; 모두 (all) is no half-name.
    expect(await found('운전자 김모(51), 임모 씨 등이 이현재(34·서울 송파구)씨를 만났다. 모두 모였다.')).toEqual(['김모|context:ko-age', '임모 씨|context:ko-title', '이현재|context:ko-age']);
  });

  it('takes a surname alone before a title, never after a role alone', async () => {
    expect(await found('피해자 손을 잡고 피해자 위에 올라타 피해자 목을 졸랐다')).toEqual([]);
    expect(await found('피해자 김 씨는 말했다. 위 위원장에게')).toEqual(['김 씨|context:ko-title', '위 위원장|context:ko-title']);
    // News titles, after 전 (former) or 모 (so-and-so) too; never a surname with a particle attached.
    expect(await found('이 전 군수는 안 지사와 이 모 대표, 유 원내대표를 만났다')).toEqual(['이 전 군수|context:ko-title', '안 지사|context:ko-title', '이 모 대표|context:ko-title', '유 원내대표|context:ko-title']);
    expect(await found('피해자의 목을 조수석에서 눌렀다')).toEqual([]);
    // 현 (current) and 당 (the party) before a title; a document (공소장) is no title; a bare surname before an age is no name.
    expect(await found('현 대표와 당 대표는 위 공소장과 이 토지대장을 보았다. 김(남, 36세)')).toEqual([]);
  });

  it('takes someone named by a letter with a title, the title in the term, and a surname in its Chinese character standing alone', async () => {
    expect(await found('시민 A 씨(59)가 B양(11)을 만났고 재판부는 C군(15)에게, A 일병을 격리했다')).toEqual(['A 씨|context:ko-title', 'B양|context:ko-title', 'C군|context:ko-title', 'A 일병|context:ko-title']);
    // A letter before a word that is no title is a grade or a size; 군 and 양 without an age are groups and amounts.
    expect(await found('A 등급을 받았고 B 사이즈를 샀다. A군과 B군의 차이, A 양은 늘었다')).toEqual([]);
    expect(await found('朴대통령 “일정 없다”, 禹, 끈 떨어지면 文 마이웨이')).toEqual(['朴|rule:ko-hanja-surname', '禹|rule:ko-hanja-surname', '文|rule:ko-hanja-surname']);
    // Not within a word of Chinese characters, nor a gloss, nor a surname that is also the South (南北) or gold (金값).
    expect(await found('朴槿惠 대통령, 박(朴)씨, 南北 회담, 金값 폭등')).toEqual([]);
  });

  it.skipIf(!hasMecab)('with mecab, takes the name its dictionary reads where the shape reads a longer one, and a name\'s gloss in Chinese characters', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    const { detectDirect, defaultRecognizers } = await import('../../src/identifiers/index.js');
    try {
      // 왕건 and 은, or the given name 건은: both are terms, so that 왕건이 and 왕건의 are found too.
      const text = '태조 왕건은 개경을 도읍으로 삼았다';
      expect((await new KoreanNameRecognizer(analyzer).find(text)).map((d) => text.slice(d.start, d.end))).toEqual(expect.arrayContaining(['왕건', '왕건은']));
      const gloss = '시진핑(習近平) 주석은 베이징(北京)에서 민주노동당(상임대표 권영길·權永吉)을 만났다';
      const found = (await detectDirect(gloss, defaultRecognizers('all', analyzer))).filter((d) => d.source === 'context:gloss').map((d) => `${gloss.slice(d.start, d.end)}|${d.category}`);
      expect(found).toEqual(['習近平|PERSON', '北京|LOCATION', '權永吉|PERSON']);
    } finally {
      await analyzer?.close();
    }
  });

  it('takes no word that merely starts with a surname', async () => {
    expect(await found('정부는 이번에 조사를 신청한 사람에게 답했다')).toEqual([]);
    expect(await found('피해자 정부는')).toEqual([]);
    expect(await found('김철수 양도 계약')).toEqual([]);
    expect(await found('지인인 임성지에게 피해자의 딸 서나연이')).toEqual(['임성지|context:ko-role', '서나연|context:ko-role']);
  });
});

describe('Korean places', () => {
  it('reads countries and regions with their particles, and addresses to a district or street', async () => {
    const { KoreanPlaceRecognizer } = await import('../../src/identifiers/index.js');
    const text = '일본의 작가가 서울에서 말했다. 청주시 흥덕구 B에 있는 식당, 일본어 수업, 경기도에서 온 수단과 경기';
    expect((await new KoreanPlaceRecognizer().find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`)).toEqual(['일본|list:ko-places', '서울|list:ko-places', '청주시|list:ko-places', '경기도|list:ko-places', '청주시 흥덕구|rule:ko-address']);
  });

  it.skipIf(!hasMecab)('with mecab, reads an address only where the first word is a proper noun and neither ends in a particle or an ending but a street', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    try {
      const text = '그는 강남구 신사동 사무실에 갔다. 강서구 다솜로 12에 산다. 인천 서구 가좌동. 그는 다시 수원으로 갔고, 정도 고정하면 된다. 부시 당시 대통령. 서울시 쪽으로 갔다.';
      // A street mecab reads as a noun and 로 is still one, and a district mecab reads as a common noun (서구).
      expect(await addressesIn(text, analyzer)).toEqual(['강남구 신사동', '강서구 다솜로{강서구 다솜로 12}', '서구 가좌동']);
      // Without mecab the form alone decides, as before: every one is read.
      expect(await addressesIn(text)).toEqual(['강남구 신사동', '강서구 다솜로{강서구 다솜로 12}', '서구 가좌동', '다시 수원으로', '정도 고정하면', '부시 당시', '서울시 쪽으로']);
    } finally {
      await analyzer?.close();
    }
  });

  it.skipIf(!hasMecab)('with mecab, follows an address down its subdivisions to a street or a lot and its number, and tells the particle 로 from a street', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    try {
      const addresses = (text: string) => addressesIn(text, analyzer);
      // The number is the address's mention; the street or the neighbourhood a term of its own.
      expect(await addresses('피고인은 부산시 해운대구 센텀로 12에서 만났다.')).toEqual(['부산시 해운대구 센텀로{부산시 해운대구 센텀로 12}']);
      expect(await addresses('경기도 수원시 팔달구 인계동 1122-3번지에서, 경상북도 포항시 북구 흥해읍 마산리 12')).toEqual(['경기도 수원시 팔달구 인계동{경기도 수원시 팔달구 인계동 1122-3번지}', '경상북도 포항시 북구 흥해읍 마산리{경상북도 포항시 북구 흥해읍 마산리 12}']);
      // Numbered roads and neighbourhoods, and a district mecab reads as a bound noun and a copula (중 + 구).
      expect(await addresses('서울시 강남구 강남대로94길 20, 대구광역시 중구 동성로 12')).toEqual(['서울시 강남구 강남대로94길{서울시 강남구 강남대로94길 20}', '대구광역시 중구 동성로{대구광역시 중구 동성로 12}']);
      expect(await addresses('서울시 성동구 성수동1가 656, 서울시 관악구 신림2동에서')).toEqual(['서울시 성동구 성수동1가{서울시 성동구 성수동1가 656}', '서울시 관악구 신림2동']);
      // A street after a common noun (구월, 장 + 안길) only with its number; the same form without one is the particle.
      expect(await addresses('인천시 남동구 구월로 123-4, 청주시 흥덕구 장안길 5에')).toEqual(['인천시 남동구 구월로{인천시 남동구 구월로 123-4}', '청주시 흥덕구 장안길{청주시 흥덕구 장안길 5}']);
      expect(await addresses('그는 부산시 바다로 이주하였다. 서울시 쪽으로 10분 걸었다.')).toEqual([]);
      // A place and its particle: the place (to 유성구, to 중구, at 역삼동); not a common word and its particle (요구로: on request).
      expect(await addresses('김철수는 대전시 유성구로, 이어 서울시 중구로 이사하였다. 서울시 강남구 역삼동에서 만났다. 서울시 요구로')).toEqual(['대전시 유성구', '서울시 중구', '서울시 강남구 역삼동']);
      // A common word that ends like a place is no subdivision (also, then, streets); a word refused, the next may start an address.
      expect(await addresses('대전시 유성구 역시 그랬다. 부산시 해운대구 당시 주민, 서울시 강남구 거리 곳곳. 당시 서울시 강남구 신사동')).toEqual(['대전시 유성구', '부산시 해운대구', '서울시 강남구', '서울시 강남구 신사동']);
      // A date, a time, a year, a count or a measure after the place is no number of it.
      expect(await addresses('서울 강남구 신사동 2019. 3. 4. 경, 강남구 신사동 2019-03-04 방문, 강남구 신사동 12:30경, 강남구 테헤란로 2019년 개업, 서울시 강남구 역삼동 2주 동안, 강남구 테헤란로 3 km')).toEqual(['강남구 신사동', '강남구 신사동', '강남구 신사동', '강남구 테헤란로', '서울시 강남구 역삼동', '강남구 테헤란로']);
      // Without mecab the form alone decides, one subdivision down; a particle is split off a stem of three syllables or more.
      expect(await addressesIn('부산시 해운대구 센텀로 12에서, 대전시 유성구에서. 그는 다시 도시에서 살았다')).toEqual(['부산시 해운대구', '대전시 유성구']);
    } finally {
      await analyzer?.close();
    }
  });

  it.skipIf(!hasMecab)('with mecab, makes a numbered address two terms: the street, protected wherever written, and the address with its number', async () => {
    const { BlacklistMatcher, KoreanPlaceRecognizer, buildBlacklist } = await import('../../src/identifiers/index.js');
    const analyzer = analyzerForLanguage('ko', 'mecab');
    try {
      const docs = [
        { id: '1', author: 'a', text: '피고인은 서울시 강서구 다솜로 12에서 피해자를 만났다.' },
        { id: '2', author: 'b', text: '피해자는 수원시 팔달구 인계동 37번지에서 살았다.' },
      ];
      const { blacklist, engine } = await buildBlacklist(docs, { analyzer, recognizers: [new KoreanPlaceRecognizer(analyzer)] });
      await engine.close();
      const direct = blacklist.entries.filter((e) => e.kind === 'direct');
      expect(direct.map((e) => [e.term, e.sources.join(',')])).toEqual(expect.arrayContaining([
        ['서울시 강서구 다솜로', 'rule:ko-address'],
        ['서울시 강서구 다솜로 12', 'context:mention'],
        ['수원시 팔달구 인계동', 'rule:ko-address'],
        ['수원시 팔달구 인계동 37번지', 'context:mention'],
      ]));
      const matcher = new BlacklistMatcher(direct);
      const covered = async (text: string) => (await matcher.match(text, analyzer)).map((m) => text.slice(m.start, m.end));
      expect(await covered('수원시 팔달구 인계동 37번지에서')).toContain('수원시 팔달구 인계동 37번지');
      expect(await covered('서울시 강서구 다솜로에 있는 가게')).toEqual(['서울시 강서구 다솜로']);
    } finally {
      await analyzer?.close();
    }
  });

  it('reads a region with its direction attached, countries abbreviated in Chinese characters, and a city that is a word in a list of places', async () => {
    const { KoreanPlaceRecognizer } = await import('../../src/identifiers/index.js');
    const found = async (text: string) => (await new KoreanPlaceRecognizer().find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`);
    expect(await found('경기남부 지역인 이천, 안산 등에서')).toEqual(['안산|list:ko-places', '경기남부|context:ko-province', '이천|context:ko-place-list']);
    expect(await found('中, 美와 협상… 北 미사일, 韓·美 회담')).toEqual(['中|rule:ko-hanja-country', '美|rule:ko-hanja-country', '北|rule:ko-hanja-country', '韓|rule:ko-hanja-country', '美|rule:ko-hanja-country']);
    // Not against a word, inside a word of Chinese characters or a gloss, nor 日, a day; not the economy.
    expect(await found('각선美 수사中 5일(日) 土·日 미(美) 中·高校 中國 경기가 좋지 않다')).toEqual([]);
    // A city that is a word, next to no listed place: two thousand won.
    expect(await found('이천 원을 냈고, 이천, 삼천 원도')).toEqual([]);
  });

  it('reads cities and counties; one whose name is a common word only with its suffix or its province', async () => {
    const { KoreanPlaceRecognizer } = await import('../../src/identifiers/index.js');
    const found = async (text: string) => (await new KoreanPlaceRecognizer().find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`);
    expect(await found('보령 인근 지역인 홍성, 태안과 파주에')).toEqual(['보령|list:ko-places', '홍성|list:ko-places', '태안|list:ko-places', '파주|list:ko-places']);
    // The world's places as Korean news writes them; 빈 (Vienna) is an empty word far more often.
    expect(await found('시드니와 텍사스에서, 빈 병')).toEqual(['시드니|list:ko-places', '텍사스|list:ko-places']);
    // 예산 is a budget, 고양이 a cat, 경기 the economy: places only with a suffix or a province.
    expect(await found('예산이 부족하다. 고양이가 울었다. 경기가 나쁘다.')).toEqual([]);
    expect(await found('충남 예산에서 열린 행사, 고양시에서, 경기 북부에')).toEqual(['충남|list:ko-places', '고양시|list:ko-places', '충남 예산|context:ko-province', '경기 북부|context:ko-province']);
    // North Korea's and Joseon's provinces, where biographies place a birth; 해주 is a verb's form alone (해주는).
    expect(await found('황해도 해주에서 태어나 함경남도 함흥에서 자랐다. 경험하게 해주는 단계')).toEqual(['황해도|list:ko-places', '함경남도|list:ko-places', '함흥|list:ko-places', '황해도 해주|context:ko-province', '함경남도 함흥|context:ko-province']);
    // The one test of a city with its suffix, shared with the facilities' venues: a listed or ambiguous city and 시, 군 or 구.
    const { cityWithSuffix } = await import('../../src/identifiers/direct/koreanPlaces.js');
    expect(['용인시', '화성시', '예산군', '강남구', '용인', '대구탕', '서울역'].map(cityWithSuffix)).toEqual([true, true, true, true, false, false, false]);
  });

  it('reads facilities by their own name, apart from the places: named after a place, quoted, or a palace', async () => {
    const { KoreanFacilityRecognizer, KoreanPlaceRecognizer } = await import('../../src/identifiers/index.js');
    const found = async (text: string) => (await new KoreanFacilityRecognizer().find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`);
    // A facility named after a place, before its kind; a kind of facility (대학병원: a university hospital) is none.
    expect(await found('안양제일교회에서, 대학병원과 동네마트')).toEqual(['안양제일교회|rule:ko-facility']);
    // The place recogniser no longer reads it: a selection without Korean places keeps the facilities.
    expect((await new KoreanPlaceRecognizer().find('안양제일교회에서')).filter((d) => d.source === 'rule:ko-facility')).toEqual([]);
    // A palace named before its kind, one word, needing no analyser; not a kind of palace, nor a womb.
    expect(await found('경복궁과 덕수궁에서, 아방궁 같은 집과 인공자궁, 용궁에, 한국양궁이')).toEqual(['경복궁|rule:ko-facility', '덕수궁|rule:ko-facility']);
    // Quoted, a name before its kind needs no analyser: ‘비어앤펍’주점, '해피' 식당.
    expect(await found("‘비어앤펍’주점에서 나와 '해피' 식당으로")).toEqual(['비어앤펍|rule:ko-facility', '해피|rule:ko-facility']);
    // A quote opened and never closed quotes nothing.
    expect(await found('‘해피 식당으로')).toEqual([]);
    // Without an analyser, a station by the words around it or a listed place before 역.
    expect(await found('미사역 5번 출구 앞에서 서울역으로, 고덕역에서')).toEqual(['미사역|rule:ko-station', '서울역|rule:ko-station']);
    // Without an analyser a common noun in 역 is read by its last syllables: 서울지역 is a region.
    expect(await found('서울지역 역사를 보면')).toEqual([]);
    // No Hangul, nothing read.
    expect(await found('Seoul Tower')).toEqual([]);
  });
});
