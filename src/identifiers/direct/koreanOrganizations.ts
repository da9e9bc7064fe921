import { isHangulWord, mecabReading, morphemeCursor, splitParticle, verbForm, type Morpheme, type MorphAnalyzer } from '../../text/index.js';
import type { Detection, Recognizer } from './recognizer.js';
import { KOREAN_PARTICLE, KOREAN_PARTICLE_ONLY } from './koreanNames.js';
import { COMMON_NOUN, NOMINAL, koreanPlaces, placePrefix } from './koreanPlaces.js';

/** What a financial firm's name ends in: a bank, a savings bank, a credit union, a brokerage, a card or an insurance company. */
const FINANCIAL_KINDS = '상호저축은행|저축은행|은행|뱅크|새마을금고|금고|신용협동조합|투자증권|증권|캐피탈|카드|생명보험|손해보험|화재해상보험|해상보험|생명|화재|해상|자산운용|투자신탁|신탁|상호금융|금융지주|금융그룹';
/** A firm's name written as one word: its brand, then its kind (경남은행, KB국민카드, 웰컴저축은행); the brand as short as it can be (SBI + 저축은행). */
const FINANCIAL_NAME = new RegExp(`^(?<brand>[가-힣A-Za-z0-9&]{1,10}?)(?<kind>${FINANCIAL_KINDS})$`);
/** Kinds that are common words (life, fire, sea): only an insurer's brand makes them a firm (삼성화재, not 인천화재, a fire in Incheon; 국민생명, the people's lives). */
const INSURANCE_WORDS = new Set(['생명', '화재', '해상']);
/**
 * Financial groups whose brand mecab-ko-dic reads as a common word or not at all (국민: a people; 현대:
 * modern; 하나: one; 한화), whatever their kind but an insurance word; then Korea's insurers. Public facts,
 * written for ppmlm from the Financial Supervisory Service's register of institutions.
 */
const FINANCIAL_BRANDS = new Set(
  ('국민 농협 수협 축협 신협 현대 한화 카카오 씨티 한국씨티 흥국 동양 메리츠 미래에셋 한국투자 유진 대신 교보 삼성 신한 ' +
    '하나 우리 롯데 하이 키움 신영 한양 부국 유안타 웰컴 애큐온 페퍼 상상인 푸른 모아 오케이').split(' '),
);
const INSURERS = new Set('삼성 한화 교보 흥국 동양 미래에셋 메리츠 현대 롯데 신한 농협 하나 동부 라이나 푸본현대 처브 카디프 악사 에이스 오렌지라이프'.split(' '));
/**
 * Institutions a word names whole: those named by their kind alone (농협에서, 우체국 계좌로), and banks whose
 * brand is a common word that would make other kinds no firm (기업카드: a corporate card; 산업신탁).
 */
const FINANCIAL_INSTITUTIONS = new Set('농협 수협 축협 신협 새마을금고 산림조합 우체국 기업은행 산업은행 수출입은행 외환은행 제일은행 케이뱅크 토스뱅크'.split(' '));
/** What a word naming a firm holds: a kind, or an institution. */
const FIRM_WORD = new RegExp([FINANCIAL_KINDS, ...FINANCIAL_INSTITUTIONS].join('|'));
/** Words before a kind that say which bank of a transaction, not which bank (타은행, 해당은행), and the kinds of card named by their technology (OTP카드, USIM카드). */
const NOT_A_BRAND = new Set('타 각 동 본 모 전 당 해당 위 이 그 같은 다른 상대 거래 주거래 입금 출금 수취 송금 지급 발행 OTP IC SD USIM SIM NFC RF ATM MS CD PC'.split(' '));
/**
 * A court's placeholder where a published judgment removed a name (주식회사 B, (주)RA, OO은행): a letter, the
 * court's second series (RA, RB...) and its two-letter continuations of A and B (AA, BX), or blanks, in
 * quotes or not; not a business's initials (CU, LG, GS25), which are text. Such a span holds no personal
 * data, and a term of it would protect every placeholder of a judgment, addresses and all.
 */
export const COURT_PLACEHOLDER = /^['‘’"“”]?(?:[A-Z]|[ABR][A-Z]|[□○]+|[OX]{2,})['‘’"“”]?$/u;

/** A company's legal form (주식회사, 유한회사, 재단법인, (주), ㈜): the name is the word it is written against, before or after it. */
const LEGAL_FORMS = '주식회사|유한책임회사|유한회사|합자회사|합명회사|재단법인|사단법인|사회복지법인|학교법인|의료법인|농업회사법인|영농조합법인|\\(주\\)|㈜|\\(유\\)|\\(재\\)|\\(사\\)';
/** A name's word, whole: its particle is split off by rule after ({@link splitParticle}), so that 에스케이 keeps its 이. */
const NAME = '[가-힣A-Za-z0-9&·]{1,20}';
const QUOTE = `['‘’"“”]?`;
/** The form, then the name (not a second form: 농업회사법인 주식회사 누리팜): 주식회사 누리하우스의, (주)에덴셀, ㈜ '풍원정밀'. */
const FORM_BEFORE = new RegExp(`(?<![가-힣A-Za-z0-9])(?<form>${LEGAL_FORMS}) ?${QUOTE}(?!(?:${LEGAL_FORMS}))(?<name>${NAME})${QUOTE}${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9])`, 'dg');
/** The name, then the form: 더나음 주식회사의, 라온서피리조트(주) (the form's own particle, not a name after it). */
const FORM_AFTER = new RegExp(`(?<![가-힣A-Za-z0-9])${QUOTE}(?<name>${NAME})${QUOTE} ?(?<form>${LEGAL_FORMS})(?=${KOREAN_PARTICLE}(?![가-힣A-Za-z0-9]))`, 'dg');
/** What may follow a firm's name in the same word: a branch, a particle. */
const AFTER_FIRM = new RegExp(`^(?:지점)?${KOREAN_PARTICLE}$`);
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

/**
 * Korean organisations that identify whom a judgment or a story is about, where Korea's lists of people
 * and places do not reach: financial firms (경남은행, KB국민카드, 웰컴저축은행, 새마을금고: `rule:ko-financial`;
 * a fraud judgment names the bank of every account money moved through), and, with mecab, companies by
 * their legal form (주식회사 누리하우스, 라온서피리조트(주), ㈜에덴셀: `context:ko-legal-form`). A firm's brand
 * counts where it is one of the financial groups whose brand is a common word ({@link FINANCIAL_BRANDS}),
 * two Latin letters or more, a listed place, or, with mecab, nouns one of which is no common noun
 * (경남, 카카오, 웰컴); an insurance word after it only with an insurer's brand.
 */
export class KoreanOrganizationRecognizer implements Recognizer {
  readonly name = 'korean-organizations';
  constructor(private readonly analyzer?: MorphAnalyzer) {}

  async find(text: string): Promise<Detection[]> {
    if (!isHangulWord(text)) return [];
    const analysis = await mecabReading(this.analyzer, text);
    const out: Detection[] = [];
    const pieces = morphemeCursor(analysis);
    for (const m of text.matchAll(/[가-힣A-Za-z0-9&]+/g)) {
      // Every word of a corpus comes here: only one holding a kind or an institution is split and read.
      if (!FIRM_WORD.test(m[0])) continue;
      const firm = financialFirm(m[0], analysis.length > 0 ? pieces(m.index, m.index + m[0].length) : undefined, m.index);
      if (firm !== undefined) out.push({ start: m.index, end: m.index + firm, category: 'ORGANIZATION', source: 'rule:ko-financial' });
    }
    // Without mecab a word beside a form may be anything (피고인은 주식회사, 설립한 주식회사): the forms need its reading.
    if (analysis.length > 0) out.push(...legalFormNames(text, morphemeCursor(analysis)));
    return out;
  }
}

/** The companies named beside a legal form; a form with a name after it names that one (업체인 주식회사 누리하우스), else the word before it. */
function legalFormNames(text: string, read: (start: number, end: number) => Morpheme[]): Detection[] {
  const matches = [FORM_BEFORE, FORM_AFTER]
    .flatMap((regex) =>
      [...text.matchAll(regex)].map((m) => {
        const [start, end] = m.indices!.groups!.name!;
        // After the form, the name's word may carry a particle (누리하우스의); before it, the form comes right after.
        const stem = regex === FORM_BEFORE ? splitParticle(text.slice(start, end))[0] : text.slice(start, end);
        return { before: regex === FORM_BEFORE, form: m.indices!.groups!.form![0], start, end: start + stem.length };
      }),
    )
    .sort((a, b) => a.start - b.start)
    .map((m) => ({ ...m, ok: companyName(text.slice(m.start, m.end), read(m.start, m.end)) }));
  const formsNamed = new Set(matches.filter((m) => m.before && m.ok).map((m) => m.form));
  return matches.filter((m) => m.ok && (m.before || !formsNamed.has(m.form))).map((m) => ({ start: m.start, end: m.end, category: 'ORGANIZATION', source: 'context:ko-legal-form' }));
}

/**
 * Whether a word beside a legal form is a company's name, as mecab reads it: not a listed word, a number, a
 * particle or a court's placeholder; not a word that ends as a verb or with a particle or an ending (설립한,
 * 업체인, 피고인은); not one common word, nor common nouns with a suffix (사무실, 계좌, 직원들).
 */
function companyName(name: string, pieces: readonly Morpheme[]): boolean {
  if (NOT_A_NAME.has(name) || /^\d+$/.test(name) || KOREAN_PARTICLE_ONLY.test(name) || COURT_PLACEHOLDER.test(name)) return false;
  if (verbForm(pieces) || /(?:^|\+)[JE]/.test(pieces.at(-1)?.tag ?? '')) return false;
  // Names mecab does not know it reads as several common nouns (에스 + 케이, 누리 + 하우스): one alone, or
  // common nouns with a suffix, is a word.
  const content = pieces.filter((p) => !p.tag.startsWith('XSN'));
  if (content.length === 1 && /^(?:NNG|NNB|SN|MM|NP|NR|MAG|MAJ)/.test(content[0]!.tag)) return false;
  return content.length === pieces.length || !content.every((p) => COMMON_NOUN.test(p.tag));
}

/**
 * The length of the financial firm a word starts with (the word less {@link AFTER_FIRM}), if it names one.
 * `read` is mecab's analysis of the word, where mecab ran.
 */
function financialFirm(word: string, read: readonly Morpheme[] | undefined, at: number): number | undefined {
  for (let end = 2; end <= word.length; end++) {
    const stem = word.slice(0, end);
    if (!AFTER_FIRM.test(word.slice(end))) continue;
    if (FINANCIAL_INSTITUTIONS.has(stem)) return end;
    const { brand, kind } = FINANCIAL_NAME.exec(stem)?.groups ?? {};
    if (brand === undefined || kind === undefined || NOT_A_BRAND.has(brand) || COURT_PLACEHOLDER.test(brand)) continue;
    const latin = /^[A-Za-z]{2}/.test(brand);
    if (INSURANCE_WORDS.has(kind)) {
      if (INSURERS.has(brand) || latin) return end;
      continue;
    }
    if (FINANCIAL_BRANDS.has(brand) || latin || placePrefix(brand, koreanPlaces())) return end;
    // Only the pieces inside the brand: mecab-ko-dic lists some kinds whole as proper nouns (교통카드); a
    // determiner makes no brand (새카드, 모든은행).
    const tags = read?.filter((p) => p.end <= at + brand.length).map((p) => p.tag) ?? [];
    if (tags.length > 0 && tags.every((t) => NOMINAL.test(t)) && tags.some((t) => !COMMON_NOUN.test(t))) return end;
  }
  return undefined;
}
