/**
 * Generates the bundled synthetic Korean criminal judgments: `npx tsx examples/legal-ko/generate.ts`.
 * Every name, number, address and company is invented here. Writes, like the Thunder-DeID data:
 * - judgments/{violence,fraud}/doc_NNNNN.md — text with each identifier as `<<<LABEL>>>X<<</LABEL>>>`,
 *   the same placeholder letter for the same entity within a document;
 * - replacements/<label>.json — `{label: [values]}` replacement lists;
 * - judgments.csv — the same judgments with the identifiers filled in (id, author, text, label), the
 *   corpus the blacklist of blacklists/legal-ko.tsv is built from.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { Rng } from '../../src/engine/random.js';
import { endsInConsonant } from '../../src/text/index.js';

const SURNAMES = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황', '안', '송', '류', '홍'];
const GIVEN = ['민', '서', '준', '도', '윤', '하', '지', '현', '우', '은', '수', '영', '진', '호', '연', '재', '성', '혜', '태', '경'];
const BANKS = ['국민은행', '신한은행', '우리은행', '하나은행', '농협은행', '기업은행', '카카오뱅크', '새마을금고'];
const STREETS = ['목련로', '은행나무길', '새솔로', '한빛대로', '물푸레길', '솔바람로', '별빛로', '미리내길', '다솜로', '늘봄길'];
const COMPANY_WORDS = ['한빛', '새솔', '누리', '가온', '다온', '미르', '해담', '온새미', '라온', '아람'];
const COMPANY_KINDS = ['물산', '건설', '유통', '테크', '산업', '상사', '에너지', '푸드'];
const RESTAURANTS = ['은하식당', '바다횟집', '솔밭갈비', '고향국밥', '별미분식', '달빛주점'];
const APARTMENTS = ['푸른마을아파트', '한솔아파트', '새봄아파트', '나래아파트', '햇살아파트'];
const LETTERS = 'BCDEFGHIJKLMNOPQRSTUVWXYZ';
/** How each placeholder letter is read aloud, for the particle that follows it in the annotated text. */
const LETTER_ENDS_IN_CONSONANT = new Set(['L', 'M', 'N', 'R']);

type Entity = { label: string; value: string; letter: string };

class Doc {
  private readonly entities = new Map<string, Entity>();
  annotated = '';
  rendered = '';
  constructor(private readonly rng: Rng) {}

  /** An entity mention: the same key gives the same placeholder letter and the same value. */
  entity(key: string, label: string, value: () => string, particle = ''): this {
    let e = this.entities.get(key);
    if (!e) {
      e = { label, value: value(), letter: LETTERS[this.entities.size % LETTERS.length]! };
      this.entities.set(key, e);
    }
    this.annotated += `<<<${label}>>>${e.letter}<<</${label}>>>${particle && agree(particle, LETTER_ENDS_IN_CONSONANT.has(e.letter))}`;
    this.rendered += e.value + (particle && agree(particle, endsInConsonant(e.value)));
    return this;
  }

  text(s: string): this {
    this.annotated += s;
    this.rendered += s;
    return this;
  }

  get rngRef(): Rng {
    return this.rng;
  }
}

/** The form of a particle pair (은/는, 이/가, 을/를, 과/와, 으로/로) that agrees with the preceding word. */
function agree(particle: string, consonant: boolean): string {
  const pairs: Record<string, [string, string]> = { '은': ['은', '는'], '이': ['이', '가'], '을': ['을', '를'], '과': ['과', '와'], '으로': ['으로', '로'] };
  const pair = pairs[particle];
  return pair ? pair[consonant ? 0 : 1] : particle;
}

const pick = <T>(rng: Rng, xs: readonly T[]) => rng.pick(xs);
const name = (rng: Rng) => pick(rng, SURNAMES) + pick(rng, GIVEN) + pick(rng, GIVEN);
const account = (rng: Rng) => `${100 + rng.int(900)}-${String(rng.int(1e6)).padStart(6, '0')}-${String(rng.int(100)).padStart(2, '0')}-${100 + rng.int(900)}`;
const plate = (rng: Rng) => `${10 + rng.int(90)}${pick(rng, ['가', '나', '다', '라', '마', '거', '너', '더', '러', '머'])}${1000 + rng.int(9000)}`;
const address = (rng: Rng) => `${pick(rng, STREETS)} ${1 + rng.int(200)}`;
const company = (rng: Rng) => `주식회사 ${pick(rng, COMPANY_WORDS)}${pick(rng, COMPANY_KINDS)}`;
const date = (rng: Rng) => `20${18 + rng.int(5)}. ${1 + rng.int(12)}. ${1 + rng.int(28)}.`;

function violence(rng: Rng): Doc {
  const d = new Doc(rng);
  d.text(`피고인은 ${date(rng)} ${10 + rng.int(12)}:${String(rng.int(60)).padStart(2, '0')}경 서울 ${pick(rng, ['마포구', '강서구', '노원구', '송파구'])} `)
    .entity('addr', '구아래주소', () => address(rng)).text('에 있는 ')
    .entity('shop', '식당', () => pick(rng, RESTAURANTS)).text('에서 피해자 ')
    .entity('victim', '내국인이름', () => name(rng)).text(`(남, ${20 + rng.int(50)}세)`).text('와 말다툼을 하던 중, 피해자가 ')
    .entity('witness', '내국인이름', () => name(rng), '과').text(' 함께 자신을 비웃었다는 이유로 화가 나 주먹으로 피해자의 얼굴을 2회 때려 폭행하였다.\n')
    .text('이로써 피고인은 피해자 ').entity('victim', '내국인이름', () => name(rng), '에게').text(` 약 ${2 + rng.int(6)}주간의 치료가 필요한 상해를 가하였다.\n`)
    .text('증인 ').entity('witness', '내국인이름', () => name(rng), '은').text(' 법정에서 피고인이 ')
    .entity('car', '차량번호', () => plate(rng)).text(' 차량을 타고 현장을 떠났다고 진술하였다.');
  return d;
}

function fraud(rng: Rng): Doc {
  const d = new Doc(rng);
  d.text(`피고인은 ${date(rng)} `).entity('company', '주식회사', () => company(rng)).text(' 사무실에서 피해자 ')
    .entity('victim', '내국인이름', () => name(rng), '에게').text(' "투자금을 보내주면 3개월 안에 원금과 수익금을 돌려주겠다"라고 거짓말하였다.\n')
    .text('그러나 사실 피고인은 투자금을 돌려줄 의사나 능력이 없었다. 피고인은 이와 같이 피해자를 기망하여 이에 속은 피해자로부터 ')
    .text(`같은 날 피고인 명의의 `).entity('bank', '은행', () => pick(rng, BANKS)).text(' 계좌(계좌번호 ').entity('account', '계좌번호', () => account(rng)).text(`)로 ${1 + rng.int(9)},000만 원을 송금받았다.\n`)
    .text('피고인은 ').entity('accomplice', '내국인이름', () => name(rng), '과').text(' 공모하여 ')
    .entity('apt', '아파트', () => pick(rng, APARTMENTS)).text(` ${100 + rng.int(20)}동 ${100 + rng.int(1500)}호에 관한 허위 매매계약서를 작성하였다.\n`)
    .text('피해자 ').entity('victim', '내국인이름', () => name(rng), '은').text(' ').entity('bank', '은행', () => pick(rng, BANKS)).text(' 창구에서 위 금액을 이체하였다.');
  return d;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('./', import.meta.url).pathname;
  const rng = new Rng(2024);
  const rows = ['id,author,text,label'];
  const lists: Record<string, Set<string>> = {};
  for (const [crime, make] of [['violence', violence], ['fraud', fraud]] as const) {
    await mkdir(`${root}judgments/${crime}`, { recursive: true });
    for (let i = 0; i < 100; i++) {
      const d = make(rng.fork(i + (crime === 'fraud' ? 1000 : 0)));
      const id = `${crime}/doc_${String(i).padStart(5, '0')}`;
      await writeFile(`${root}judgments/${id}.md`, `${d.annotated}\n`);
      rows.push([id, id, `"${d.rendered.replace(/"/g, '""')}"`, crime].join(','));
      for (const m of d.annotated.matchAll(/<<<([^/>][^>]*)>>>/g)) lists[m[1]!] ??= new Set();
    }
  }
  // Replacement lists of invented values, in Thunder-DeID's {label: [values]} format.
  const values: Record<string, () => string> = { 내국인이름: () => name(rng), 은행: () => pick(rng, BANKS), 계좌번호: () => account(rng), 구아래주소: () => address(rng), 주식회사: () => company(rng), 차량번호: () => plate(rng), 식당: () => pick(rng, RESTAURANTS), 아파트: () => pick(rng, APARTMENTS) };
  await mkdir(`${root}replacements`, { recursive: true });
  for (const label of Object.keys(lists)) {
    const set = new Set(Array.from({ length: 40 }, () => values[label]!()));
    await writeFile(`${root}replacements/${label}.json`, `${JSON.stringify({ [label]: [...set].sort() }, null, 1)}\n`);
  }
  await writeFile(`${root}judgments.csv`, `${rows.join('\n')}\n`);
  console.error(`wrote 200 judgments, ${Object.keys(lists).length} replacement lists and judgments.csv under ${root}`);
}
