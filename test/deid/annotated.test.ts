import { describe, expect, it } from 'vitest';
import { parseAnnotated } from '../../src/deid/index.js';
import { FormatError } from '../../src/errors.js';

describe('parseAnnotated', () => {
  it('splits text and mentions, adjacent tags included, and keeps placeholders', () => {
    const doc = parseAnnotated('피해자 <<<내국인이름>>>B<<</내국인이름>>>에게\n<<<은행>>>C<<</은행>>><<<계좌번호>>>D<<</계좌번호>>> 송금', 'a.md');
    expect(doc.segments).toEqual([
      '피해자 ',
      { label: '내국인이름', placeholder: 'B', line: 1 },
      '에게\n',
      { label: '은행', placeholder: 'C', line: 2 },
      { label: '계좌번호', placeholder: 'D', line: 2 },
      ' 송금',
    ]);
  });

  it('names file and line of malformed tags', () => {
    const cases: [string, RegExp][] = [
      ['ok\n<<<내국인이름>>>B', /a\.md:2: <<<내국인이름>>> has no closing <<<\/내국인이름>>>/],
      ['ok\nok\n<<</은행>>>', /a\.md:3: closing tag <<<\/은행>>> without an opening <<<은행>>>/],
      ['<<<주소>>>A <<<건물>>>B<<</건물>>><<</주소>>>', /a\.md:1: <<<건물>>> is nested inside <<<주소>>>; nested tags are not supported/],
      ['<<<주소>>>A<<</건물>>> <<</주소>>>', /a\.md:1: <<<주소>>> is closed by <<<\/건물>>>; the tags do not match/],
      // The position, not the text after the tag (it is the judgment's own text).
      ['<<<주소 A', /a\.md:1: the <<< at column 1 is never closed with ">>>"$/],
      ['ok\n<<<L>>><<</L>>>', /a\.md:2: <<<L>>><<<\/L>>> is empty; put the placeholder between the tags/],
      // An opening tag left unclosed would take the text up to another mention's closing tag, lines later.
      ['피해자 <<<이름>>>A에게 빌렸다.\n그리고 피해자 B<<</이름>>>에게', /a\.md:1: <<<이름>>> is not closed on its line \(the next <<<\/이름>>> is on line 2\); close it after the placeholder/],
      // A bracket short: the label would run into the next tag; the judgment's text is not quoted.
      ['<<<이름>>A<<</이름>>>에게', /a\.md:1: the tag at column 1 is malformed \(a bracket missing\?\); a tag is <<<LABEL>>>PLACEHOLDER<<<\/LABEL>>>$/],
      ['ok\nok\n<<</은행>>>', /add the opening tag before the placeholder or remove this one$/],
    ];
    for (const [text, message] of cases) {
      try {
        parseAnnotated(text, 'a.md');
        throw new Error(`no error for ${text}`);
      } catch (err) {
        expect(err).toBeInstanceOf(FormatError);
        expect((err as FormatError).located).toMatch(message);
      }
    }
  });
});
