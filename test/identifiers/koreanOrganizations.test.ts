import { describe, expect, it } from 'vitest';
import { analyzerForLanguage, type MorphAnalyzer } from '../../src/text/index.js';
import { KoreanOrganizationRecognizer, defaultRecognizers, detectDirect } from '../../src/identifiers/index.js';

/** Whether mecab runs here (the CI installs it; a bare machine skips the tests that need it). */
const mecabHere = analyzerForLanguage('ko', 'auto');
const hasMecab = mecabHere?.name === 'mecab';
void mecabHere?.close();
const found = async (text: string, analyzer?: MorphAnalyzer) => (await new KoreanOrganizationRecognizer(analyzer).find(text)).map((d) => `${text.slice(d.start, d.end)}|${d.source}`);

describe('Korean organisations', () => {
  it('finds the financial groups and the institutions named by their kind, without mecab', async () => {
    expect(await found('국민은행 계좌로 송금하고 농협에서 인출하여 우체국 계좌로, KB국민카드와 경남은행, 기업은행')).toEqual([
      '국민은행|rule:ko-financial',
      '농협|rule:ko-financial',
      '우체국|rule:ko-financial',
      'KB국민카드|rule:ko-financial',
      '경남은행|rule:ko-financial',
      '기업은행|rule:ko-financial',
    ]);
  });

  it('takes no kind of bank or card for a firm, nor a placeholder or a determiner before it', async () => {
    expect(await found('시중은행과 인터넷은행, 저축은행에서 신용카드와 교통카드, 기업카드, 주택화재, 타은행, 해당은행, A은행, B증권')).toEqual([]);
    // The court's placeholders (RA, AB, OO), cards named by their technology, an insurance word after a place or a group that insures nothing.
    expect(await found('RA은행, AB은행, OO은행, OTP카드, USIM카드, 인천화재, 국민생명, 우리생명')).toEqual([]);
    expect(await found('삼성화재, 교보생명, KB손해보험')).toEqual(['삼성화재|rule:ko-financial', '교보생명|rule:ko-financial', 'KB손해보험|rule:ko-financial']);
  });

  it('leaves the legal forms to mecab: without its reading, a word beside a form may be anything', async () => {
    expect(await found('피고인은 주식회사 누리하우스의 직원이다')).toEqual([]);
  });

  it.skipIf(!hasMecab)('with mecab, takes a brand some piece of which is no common noun', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    try {
      // 대구 (a place mecab knows, not in the lists) and 라온 read as proper nouns; 새 (a determiner) and 시중 (a common noun) make no brand.
      expect(await found('대구은행, 라온저축은행, 새카드, 시중은행과 신용카드, 교통카드', analyzer)).toEqual(['대구은행|rule:ko-financial', '라온저축은행|rule:ko-financial']);
    } finally {
      await analyzer?.close();
    }
  });

  it.skipIf(!hasMecab)('with mecab, takes the name a legal form is written against, before or after it', async () => {
    const analyzer = analyzerForLanguage('ko', 'mecab');
    try {
      // The form with a name after it names that one, not the word before it (업체인: a copula's form).
      expect(await found('하도급 업체인 주식회사 누리하우스의 팀장이며', analyzer)).toEqual(['누리하우스|context:ko-legal-form']);
      // A common noun after the form is no name: the word before it is (더나음 주식회사 사무실).
      expect(await found('더나음 주식회사 사무실에서, 주식회사 에스케이에서, 농업회사법인 주식회사 누리팜의', analyzer)).toEqual(['더나음|context:ko-legal-form', '에스케이|context:ko-legal-form', '누리팜|context:ko-legal-form']);
      expect(await found('라온서피리조트(주) 해외사업부, (주)에덴셀 콜센터, 더나음 주식회사의 회장', analyzer)).toEqual([
        '라온서피리조트|context:ko-legal-form',
        '에덴셀|context:ko-legal-form',
        '더나음|context:ko-legal-form',
      ]);
      // A determiner, a role, a verb's form or a particle beside the form is no name.
      expect(await found('위 주식회사는 피고인은 주식회사의 대표이사로 설립한 주식회사 대표, 피해자 주식회사 대표 홍길동', analyzer)).toEqual([]);
      // A court's placeholder where the judgment removed the name: a term of it would protect every placeholder.
      expect(await found('피해자 주식회사 B의 직원, (주)RA 사무실에서 C 주식회사', analyzer)).toEqual([]);
    } finally {
      await analyzer?.close();
    }
  });

  it('is on by default and selectable by its kind', async () => {
    const text = '피해자는 신한은행 계좌로 송금하였다';
    const by = async (selection: string) => (await detectDirect(text, defaultRecognizers(selection))).filter((d) => d.category === 'ORGANIZATION').map((d) => text.slice(d.start, d.end));
    expect(await by('all')).toEqual(['신한은행']);
    expect(await by('-ORGANIZATION')).toEqual([]);
    expect(await by('none,korean-organizations')).toEqual(['신한은행']);
  });
});
