import { morphemeCursor, verbForm, type Morpheme, type MorphAnalyzer } from '../../text/index.js';
import type { Detection, Recognizer } from './recognizer.js';
import { KOREAN_PARTICLE } from './koreanNames.js';
import { koreanPlaces, placePrefix } from './koreanPlaces.js';

/**
 * What a financial firm's name ends in: a bank, a savings bank, a credit union, a brokerage, a card or an
 * insurance company. Longer kinds first, so that a brand is the shortest it can be (SBI + 저축은행).
 */
const FINANCIAL_KINDS = '상호저축은행|저축은행|은행|뱅크|새마을금고|금고|신용협동조합|투자증권|증권|캐피탈|카드|생명보험|손해보험|화재해상보험|해상보험|생명|화재|해상|자산운용|투자신탁|신탁|상호금융|금융지주|금융그룹';
/** A firm's name written as one word: its brand, then its kind (경남은행, KB국민카드, 웰컴저축은행). */
const FINANCIAL_NAME = new RegExp(`^(?<brand>[가-힣A-Za-z0-9&]{1,10}?)(?:${FINANCIAL_KINDS})$`);
/**
 * Financial groups whose brand mecab-ko-dic reads as a common word or not at all (국민: a people; 현대:
 * modern; 하나: one; 한화), whatever their kind: banks, card, insurance and brokerage companies. Public
 * facts, written for ppmlm from the Financial Supervisory Service's register of institutions.
 */
const FINANCIAL_BRANDS = new Set(
  ('국민 농협 수협 축협 신협 현대 한화 카카오 씨티 한국씨티 흥국 동양 메리츠 미래에셋 한국투자 유진 대신 교보 삼성 신한 ' +
    '하나 우리 롯데 하이 키움 신영 한양 부국 유안타 웰컴 애큐온 페퍼 상상인 푸른 모아 오케이').split(' '),
);
/**
 * Institutions a word names whole: those named by their kind alone (농협에서, 우체국 계좌로), and banks whose
 * brand is a common word that would make other kinds no firm (기업카드: a corporate card; 산업신탁).
 */
const FINANCIAL_INSTITUTIONS = new Set(
  '농협 수협 축협 신협 새마을금고 산림조합 우체국 농협은행 수협은행 기업은행 산업은행 수출입은행 외환은행 제일은행 카카오뱅크 케이뱅크 토스뱅크'.split(' '),
);
/** Words before a kind that say which bank of a transaction, not which bank: 타은행, 해당은행, 각 증권. */
const NOT_A_BRAND = new Set('타 각 동 본 모 전 당 해당 위 이 그 같은 다른 상대 거래 주거래 입금 출금 수취 송금 지급 발행'.split(' '));
/** mecab's tags of a common noun, a bound noun or a number: a kind (시중은행, 인터넷은행, 신용카드), not a brand. */
const COMMON_NOUN = /^(?:NNG|NNB|SN)/;

/**
 * A company's legal form (주식회사, 유한회사, 재단법인, (주), ㈜): the name is the word it is written
 * against, before or after it.
 */
const LEGAL_FORMS = '주식회사|유한책임회사|유한회사|합자회사|합명회사|재단법인|사단법인|사회복지법인|학교법인|의료법인|농업회사법인|영농조합법인|\\(주\\)|㈜|\\(유\\)|\\(재\\)|\\(사\\)';
const NAME = "[가-힣A-Za-z0-9&·]{1,20}";
const QUOTE = `['‘’"“”]?`;
const END = `${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9])`;
const PARTICLE_ONLY = new RegExp(`^${KOREAN_PARTICLE}$`);
/** What may follow a firm's name in the same word: its kind again (경남은행은행, where a court's placeholder was filled with the whole name), a branch, a particle. */
const AFTER_FIRM = new RegExp(`^(?:은행|지점)?${KOREAN_PARTICLE}$`);
/** The form, then the name: 주식회사 누리하우스의, (주)에덴셀, ㈜ '풍원정밀'. */
const FORM_BEFORE = new RegExp(`(?<![가-힣A-Za-z0-9])(?<form>${LEGAL_FORMS}) ?${QUOTE}(?<name>${NAME}?)${QUOTE}${END}`, 'dg');
/** The name, then the form: 더나음 주식회사의, 라온서피리조트(주) (the form's own particle, not a name after it). */
const FORM_AFTER = new RegExp(`(?<![가-힣A-Za-z0-9])${QUOTE}(?<name>${NAME}?)${QUOTE} ?(?<form>${LEGAL_FORMS})(?=${END})`, 'dg');
/**
 * Words a legal form stands beside that are no company's name: a determiner or a role (위 주식회사: the said
 * company; 주식회사 대표이사: its director; 피해자 주식회사: the company harmed), and the form's own
 * kinds (농업회사법인 주식회사).
 */
const NOT_A_NAME = new Set(
  ('위 이 그 저 해당 본 동 각 모 같은 다른 새 신규 기존 종전 현 전 당해 상대 피해자 피고인 피해 고소인 원고 피고 ' +
    '대표 대표이사 이사 사내이사 감사 직원 임원 사장 회장 설립 명의 소속 계열사 자회사 관계사 협력업체 하도급 업체 회사 법인 ' +
    '주식회사 유한회사 농업회사법인 영농조합법인').split(' '),
);
/** Tags of a word mecab reads as one piece that is no name: a determiner, a pronoun, a number, an adverb. */
const NO_NAME_TAG = /^(?:MM|NP|NR|MAG|MAJ|VV|VA)/;

/**
 * Korean organisations that identify whom a judgment or a story is about, where Korea's lists of people
 * and places do not reach: financial firms (경남은행, KB국민카드, 웰컴저축은행, 새마을금고: `rule:ko-financial`;
 * Korean judgments name the bank of every account a fraud moved money through), and companies by their
 * legal form (주식회사 누리하우스, 라온서피리조트(주), ㈜에덴셀: `context:ko-legal-form`). A firm's brand
 * counts where mecab reads some piece of it as no common noun (경남, 카카오, SBI), it begins with a
 * listed place, or it is one of the financial groups whose brand is a common word ({@link FINANCIAL_BRANDS}).
 * Without mecab, only the groups and the listed places.
 */
export class KoreanOrganizationRecognizer implements Recognizer {
  readonly name = 'korean-organizations';
  constructor(private readonly analyzer?: MorphAnalyzer) {}

  async find(text: string): Promise<Detection[]> {
    if (!/[가-힣]/.test(text)) return [];
    const analysis = this.analyzer?.name === 'mecab' ? await this.analyzer.analyze(text) : [];
    const out: Detection[] = [];
    const pieces = morphemeCursor(analysis);
    for (const m of text.matchAll(/[가-힣A-Za-z0-9&]+/g)) {
      const firm = financialFirm(m[0], analysis.length > 0 ? pieces(m.index, m.index + m[0].length) : undefined, m.index);
      if (firm !== undefined) out.push({ start: m.index, end: m.index + firm, category: 'ORGANIZATION', source: 'rule:ko-financial' });
    }
    const named = morphemeCursor(analysis);
    const nameAt = ([start, end]: [number, number]) => {
      const name = text.slice(start, end);
      if (NOT_A_NAME.has(name) || /^\d+$/.test(name) || PARTICLE_ONLY.test(name)) return false;
      const read = named(start, end);
      // One piece that is no name (위, 이, 그); a word that ends as a verb or with a particle (설립한, 업체인, 피고인은).
      return !((read.length === 1 && NO_NAME_TAG.test(read[0]!.tag)) || verbForm(read) || /(?:^|\+)[JE]/.test(read.at(-1)?.tag ?? ''));
    };
    // A form with a name after it names that one (업체인 주식회사 누리하우스); else the word before it.
    const matches = [FORM_BEFORE, FORM_AFTER]
      .flatMap((regex) => [...text.matchAll(regex)].map((m) => ({ before: regex === FORM_BEFORE, form: m.indices!.groups!.form![0], name: m.indices!.groups!.name! })))
      .sort((a, b) => a.name[0] - b.name[0])
      .map((m) => ({ ...m, ok: nameAt(m.name) }));
    const formsNamed = new Set(matches.filter((m) => m.before && m.ok).map((m) => m.form));
    for (const m of matches) if (m.ok && (m.before || !formsNamed.has(m.form))) out.push({ start: m.name[0], end: m.name[1], category: 'ORGANIZATION', source: 'context:ko-legal-form' });
    return out;
  }
}

/**
 * The length of the financial firm a word starts with (the word less {@link AFTER_FIRM}), if it names one. `read` is mecab's analysis of the word, where mecab ran.
 */
function financialFirm(word: string, read: readonly Morpheme[] | undefined, at: number): number | undefined {
  for (let end = 2; end <= word.length; end++) {
    const stem = word.slice(0, end);
    if (!AFTER_FIRM.test(word.slice(end))) continue;
    if (FINANCIAL_INSTITUTIONS.has(stem)) return end;
    const brand = FINANCIAL_NAME.exec(stem)?.groups?.brand;
    if (brand === undefined || NOT_A_BRAND.has(brand) || /^[A-Z]$/.test(brand)) continue;
    // Two Latin letters at least: a lone capital is a court's placeholder (A은행), already no name.
    if (FINANCIAL_BRANDS.has(brand) || /^[A-Za-z]{2}/.test(brand) || placePrefix(brand, koreanPlaces())) return end;
    // Only the pieces inside the brand: mecab-ko-dic lists some kinds whole as proper nouns (교통카드).
    const tags = read?.filter((p) => p.end <= at + brand.length).map((p) => p.tag) ?? [];
    if (tags.length > 0 && tags.some((t) => !COMMON_NOUN.test(t))) return end;
  }
  return undefined;
}
