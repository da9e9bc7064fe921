/**
 * Places that no registry list holds, or holds only in another language or spelling, as news and
 * encyclopaedias name them: continents and the world's regions, the nations of the United Kingdom, seas,
 * mountain ranges, rivers and deserts, disputed and former countries, the English names of regions and
 * cities that GeoNames gives in their own language (Saxony, Nuremberg, Kiev), and the few buildings that
 * news names as places (the Kremlin). Written by hand for ppmlm from general knowledge; public, fixed
 * before any corpus is seen. Each is a place wherever it is written as a name, even where it is also a
 * word (Wales, Pacific, Middle East).
 */
export const WORLD_PLACES: readonly string[] = [
  // Continents and regions of the world.
  'Africa', 'Antarctica', 'Antarctic', 'Asia', 'Australasia', 'Europe', 'Eurasia', 'North America', 'South America', 'Central America', 'Latin America', 'Oceania',
  'Middle East', 'Near East', 'Far East', 'Southeast Asia', 'South Asia', 'East Asia', 'Central Asia', 'West Asia', 'Asia Pacific', 'Indochina',
  'North Africa', 'West Africa', 'East Africa', 'Southern Africa', 'Central Africa', 'Sub-Saharan Africa', 'Horn of Africa', 'Maghreb', 'Sahel', 'Sahara',
  'Western Europe', 'Eastern Europe', 'Central Europe', 'Northern Europe', 'Southern Europe', 'Scandinavia', 'Nordic countries', 'Balkans', 'Baltics', 'Iberia', 'Benelux', 'Caucasus', 'Siberia', 'Anatolia', 'Levant', 'Mesopotamia', 'Arabia', 'Persian Gulf', 'Gulf',
  'Caribbean', 'West Indies', 'Patagonia', 'Amazonia', 'Polynesia', 'Micronesia', 'Melanesia', 'Mediterranean', 'Arctic', 'Pacific', 'Atlantic',
  // Nations, regions and provinces, in English.
  'England', 'Scotland', 'Wales', 'Northern Ireland', 'Great Britain', 'Britain', 'Ulster', 'Cornwall', 'East Anglia', 'Midlands', 'West Midlands', 'East Midlands', 'Lake District', 'Scottish Highlands',
  'Flanders', 'Wallonia', 'Bavaria', 'Saxony', 'Lower Saxony', 'Saxony-Anhalt', 'Thuringia', 'Hesse', 'North Rhine-Westphalia', 'Rhineland-Palatinate', 'Rhineland', 'Ruhr', 'Mecklenburg-Western Pomerania', 'Pomerania', 'Tyrol',
  'Lapland', 'Tibet', 'Kashmir', 'Punjab', 'Bengal', 'Kurdistan', 'Transylvania', 'Silesia', 'Bohemia', 'Moravia', 'Lombardy', 'Tuscany', 'Piedmont', 'Apulia', 'Sicily', 'Sardinia', 'Corsica',
  'Normandy', 'Brittany', 'Provence', 'Burgundy', 'Alsace', 'Riviera', 'Andalusia', 'Catalonia', 'Castile', 'Aragon', 'Navarre', 'Basque Country', 'Galicia',
  'Crimea', 'Chechnya', 'Dagestan', 'Donbas', 'Abkhazia', 'South Ossetia', 'Transnistria', 'Nagorno-Karabakh', 'Darfur', 'Xinjiang', 'Manchuria', 'Mongolia', 'Macau',
  'New England', 'Midwest', 'Deep South', 'Pacific Northwest', 'Appalachia', 'Great Plains', 'Great Lakes', 'Yukon', 'East Coast', 'West Coast', 'Gulf Coast', 'Silicon Valley',
  // Countries by the short names news writes, where ISO 3166 gives the full one (Syrian Arab Republic).
  'Syria', 'Laos', 'Brunei', 'Vatican', 'Vatican City', 'Macedonia', 'America', 'Gaza',
  // Disputed and former countries.
  'West Bank', 'Gaza Strip', 'Golan Heights', 'Kosovo', 'Bosnia', 'Herzegovina', 'Zaire', 'Yugoslavia', 'Soviet Union', 'USSR', 'Czechoslovakia', 'Burma', 'Ceylon', 'Rhodesia', 'Persia', 'Prussia',
  'East Germany', 'West Germany', 'Siam', 'Holland', 'Ivory Coast', 'East Timor', 'Swaziland', 'Zanzibar',
  // Cities under their English or former names.
  'Kiev', 'Nuremberg', 'Bruges', 'Ghent', 'Peking', 'Bombay', 'Rangoon', 'Saigon', 'Leningrad', 'Stalingrad', 'Constantinople', 'Danzig', 'Breslau', 'Frankfurt', 'The Hague',
  // Seas, straits and canals.
  'Pacific Ocean', 'Atlantic Ocean', 'Indian Ocean', 'Arctic Ocean', 'Southern Ocean', 'North Atlantic', 'South Atlantic', 'North Pacific', 'South Pacific',
  'Black Sea', 'Red Sea', 'Dead Sea', 'Caspian Sea', 'North Sea', 'Baltic Sea', 'Aegean Sea', 'Adriatic Sea', 'Ionian Sea', 'Arabian Sea', 'Irish Sea', 'Caribbean Sea', 'South China Sea', 'East China Sea', 'Sea of Japan',
  'Adriatic', 'Aegean', 'Baltic', 'Caspian', 'Gulf of Mexico', 'Gulf of Aden', 'English Channel', 'Bering Strait', 'Strait of Hormuz', 'Bosphorus', 'Suez Canal', 'Panama Canal',
  // Mountains, rivers, deserts.
  'Himalayas', 'Alps', 'Andes', 'Rockies', 'Rocky Mountains', 'Pyrenees', 'Urals', 'Carpathians', 'Appalachians', 'Apennines', 'Hindu Kush', 'Atlas Mountains', 'Dolomites', 'Everest', 'Kilimanjaro',
  'Nile', 'Danube', 'Rhine', 'Thames', 'Seine', 'Volga', 'Yangtze', 'Ganges', 'Euphrates', 'Tigris', 'Amazon', 'Mekong', 'Zambezi', 'Rio Grande', 'Orinoco', 'Indus',
  'Gobi', 'Kalahari', 'Sinai', 'Great Barrier Reef',
  // Buildings and streets that news names as places.
  'Kremlin', 'Pentagon', 'White House', 'Capitol Hill', 'Downing Street', 'Whitehall', 'Wall Street',
];

/**
 * The world's places as Korean news writes them: regions, seas, foreign countries' states and cities
 * (워싱턴, 도쿄, 시드니), North Korea's cities. Written by hand for ppmlm from general knowledge. Names
 * that are far more often Korean words are left out: 빈 (Vienna; empty), 나라 (Nara; country), 선전
 * (Shenzhen; propaganda), 시안 (Xi'an; draft), 신장 (Xinjiang; kidney), 개성 (Kaesong; character).
 */
export const WORLD_PLACES_KO: readonly string[] = (
  '유럽 아프리카 아시아 중동 동남아 동남아시아 동북아 동북아시아 중남미 남미 북미 중앙아시아 라틴아메리카 시베리아 발칸 스칸디나비아 카리브해 지중해 태평양 대서양 인도양 북극 남극 한반도 크림반도 ' +
  '워싱턴 뉴욕 로스앤젤레스 시카고 샌프란시스코 보스턴 시애틀 라스베이거스 휴스턴 댈러스 애틀랜타 마이애미 필라델피아 디트로이트 호놀룰루 하와이 알래스카 텍사스 캘리포니아 플로리다 애리조나 네바다 오하이오 미시간 버지니아 뉴저지 펜실베이니아 매사추세츠 일리노이 오리건 콜로라도 ' +
  '토론토 밴쿠버 몬트리올 오타와 온타리오 퀘벡 멕시코시티 리우데자네이루 상파울루 부에노스아이레스 ' +
  '런던 파리 베를린 로마 마드리드 바르셀로나 리스본 암스테르담 브뤼셀 프라하 바르샤바 부다페스트 아테네 이스탄불 모스크바 상트페테르부르크 블라디보스토크 키예프 키이우 제네바 취리히 뮌헨 프랑크푸르트 함부르크 밀라노 베네치아 나폴리 피렌체 스톡홀름 오슬로 헬싱키 코펜하겐 더블린 에든버러 맨체스터 리버풀 ' +
  '도쿄 오사카 교토 나고야 요코하마 후쿠오카 삿포로 오키나와 홋카이도 규슈 고베 베이징 상하이 광저우 톈진 충칭 홍콩 마카오 타이베이 난징 우한 칭다오 다롄 선양 하얼빈 옌볜 연변 쓰촨 광둥 장쑤 산둥 윈난 티베트 ' +
  '평양 신의주 함흥 청진 남포 원산 ' +
  '방콕 하노이 호찌민 자카르타 마닐라 싱가포르 싱가폴 쿠알라룸푸르 뉴델리 뭄바이 카트만두 카불 테헤란 바그다드 다마스쿠스 예루살렘 텔아비브 두바이 아부다비 리야드 도하 카이로 나이로비 요하네스버그 케이프타운 시드니 멜버른 브리즈번 오클랜드 웰링턴'
).split(' ');

/**
 * The adjectives of nations, regions and peoples written for ppmlm: the commonest, and those
 * `i18n-nationality` lacks (continents, the nations of the United Kingdom, peoples without a state, the
 * short forms news writes: Serb, Croat, Kurd). {@link PublicLists.nationalities} joins the package's.
 */
export const NATIONALITY_WORDS: readonly string[] = (
  'american british english scottish welsh irish european african asian australian canadian mexican brazilian argentine argentinian chilean colombian peruvian cuban ' +
  'french german italian spanish portuguese dutch belgian swiss austrian swedish norwegian danish finnish icelandic polish czech slovak hungarian romanian bulgarian greek turkish russian ukrainian ' +
  'serbian croatian bosnian albanian israeli palestinian arab egyptian iranian iraqi syrian lebanese jordanian saudi afghan pakistani indian bangladeshi nepalese ' +
  'chinese japanese korean vietnamese thai filipino indonesian malaysian singaporean taiwanese mongolian nigerian kenyan ethiopian somali sudanese ghanaian moroccan algerian tunisian libyan ' +
  'hispanic nordic scandinavian slavic ' +
  'serb croat bosniak kurd kurdish emirati uzbek kazakh turkmen soviet yugoslav congolese dominican zealander lankan rican timorese tibetan uyghur pashtun basque catalan flemish walloon tamil persian bengali punjabi'
).split(' ');

/** The languages records say people speak (Cantonese, Creole, Farsi): words, like the nationalities, without a plural. */
export const LANGUAGE_WORDS: readonly string[] = 'arabic latin cantonese mandarin hindi urdu tagalog swahili creole farsi hebrew yiddish amharic gujarati'.split(' ');
