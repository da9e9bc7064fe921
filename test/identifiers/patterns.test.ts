import { describe, expect, it } from 'vitest';
import { defaultRecognizers, detectDirect, patternRecognizers, rrnCheckDigit } from '../../src/identifiers/index.js';

async function found(text: string, only?: string): Promise<[string, string][]> {
  const detections = await detectDirect(text, patternRecognizers(only ?? 'all'));
  return detections.map((d) => [d.category, text.slice(d.start, d.end)]);
}

describe('pattern recognisers', () => {
  it('finds e-mail addresses and URLs, not bare domains or handles', async () => {
    expect(await found('Mail john.doe+x@mail.example.org or see https://example.org/a?b=1.')).toEqual([
      ['EMAIL', 'john.doe+x@mail.example.org'],
      ['URL', 'https://example.org/a?b=1'],
    ]);
    expect(await found('the @handle and example.org', 'email,url')).toEqual([]);
  });

  it('finds phone numbers in US, international and Korean forms', async () => {
    expect(await found('Call (617) 555-0142 or +44 20 7946 0958.', 'phone')).toEqual([
      ['PHONE', '(617) 555-0142'],
      ['PHONE', '+44 20 7946 0958'],
    ]);
    expect(await found('연락처 010-1234-5678로 전화, 사무실 02-123-4567', 'phone')).toEqual([
      ['PHONE', '010-1234-5678'],
      ['PHONE', '02-123-4567'],
    ]);
    expect(await found('page 12-34 and 1234', 'phone')).toEqual([]);
  });

  it('finds dates in common formats and rejects impossible ones', async () => {
    const text = 'Seen 7/22 and 2019-09-05, 2019. 9. 5. and 2019년 9월 5일; next September 5, 2019 or 5 Sep 2019.';
    expect((await found(text, 'date,date-ko-dotted,date-ko,date-us,date-month-name')).map(([, v]) => v)).toEqual([
      '7/22',
      '2019-09-05',
      '2019. 9. 5.',
      '2019년 9월 5일',
      'September 5, 2019',
      '5 Sep 2019',
    ]);
    expect(await found('ratio 13/45 and 2019-02-30', 'date,date-us')).toEqual([]);
    // Lab systems' day-month-year with dashes, and a season with its year; not an impossible day.
    expect((await found('Drawn 12-Mar-2094 and 3-JAN-94, not 31-Feb-2094; follow up in Spring 2095, summer of \'93.', 'date-day-month-dashed,date-season')).map(([, v]) => v)).toEqual(['12-Mar-2094', '3-JAN-94', 'Spring 2095', "summer of '93"]);
    // Written together (12MAR94), a season of a two-digit year after "of".
    expect((await found('Drawn 12MAR94 and 3jan2094, not 12MAR alone; in the spring of 94, not spring 94.', 'date-day-month-dashed,date-season')).map(([, v]) => v)).toEqual(['12MAR94', '3jan2094', 'spring of 94']);
    // A fall of so many feet is no season.
    expect(await found('s/p fall of 10 feet, a fall of 40%, the winter of 20 storms', 'date-season')).toEqual([]);
  });

  it('reads a two-digit year after a month only where no day can be, and not after a month that is a word', async () => {
    const dates = async (text: string) => (await found(text, 'date-month-name,date-month-context')).map(([, v]) => v);
    expect(await dates("MI Oct 94, CABG OCT '88, seen 3 Mar 94, and March 3, 95.")).toEqual(['Oct 94', "OCT '88", '3 Mar 94', 'March 3, 95']);
    // A day stays a day (Oct 12); May, Mar and Dec alone are words of the notes ("dec 45 cc", "per MAR 40").
    expect(await dates('Oct 12 seen; urine dec 45 cc; per MAR 40; may 50 mg.')).toEqual(['Oct 12']);
    // Not a quantity after a month's abbreviation (octreotide 50 mcg, a temperature), nor an impossible day.
    expect(await dates('oct 50 mcg sc; feb 38.5 temp; seen Feb 30 and 31 Apr 94.')).toEqual([]);
    // A month after a word of time without its period where it is no word (feb, oct), and after "mid-".
    expect(await dates('since mid-March, late Feb and in oct; in mar and in dec stay words.')).toEqual(['March', 'Feb', 'oct']);
  });

  it('reads the forms of dates de-identification systems list: day ranges, a dashed day and month, a month-day after a word of dates, a year before an event', async () => {
    const dates = async (text: string, only = 'date-month-name,date-day-month-dashed,date-us-dashed,year-apostrophe') => (await found(text, only)).map(([, v]) => v);
    expect(await dates('XRT Apr 12-15, again 2 to 5 May 2094 and 3-4th June.')).toEqual(['Apr 12-15', '2 to 5 May 2094', '3-4th June']);
    expect(await dates('Drawn 12-Apr and 3-JAN, not 40-Apr.')).toEqual(['12-Apr', '3-JAN']);
    // Two dashed parts only after a word of dates: elsewhere a range (7-8 beats, q 4-6 h).
    expect(await dates('admit date: 3-12, adm 03-12; HR 7-8 and pain 4-6.')).toEqual(['3-12', '03-12']);
    expect(await dates('pain since 2-3 days, NPO until 4-6 hours, born 3-4 weeks early.')).toEqual([]);
    expect(await dates("PMH: '09 PTCA to LCX. '13 stent; 5'10\" tall.")).toEqual(["'09 PTCA", "'13 stent"]);
    // After a word the year is kept with that word (the rule before); never a dose.
    expect(await dates("h/o '09 PTCA.\n'10 mg given")).toEqual(["h/o '09"]);
  });

  it("finds social-media handles, not an e-mail's @ nor notes' @ for at", async () => {
    expect((await found('RT @justinbieber: happy birthday @Real_Liam_Payne, @JaiLovesMehh and @JEROMEPIGGY', 'handle')).map(([c, v]) => `${c} ${v}`)).toEqual([
      'USERNAME @justinbieber',
      'USERNAME @Real_Liam_Payne',
      'USERNAME @JaiLovesMehh',
      'USERNAME @JEROMEPIGGY',
    ]);
    expect(await found('mail a.b@example.com; fluids @KVO and @kvo, pain @goal, seen @2pm, meds @hs and @q4h, level @T10 and @HR120, out @ home', 'handle')).toEqual([]);
  });

  it('finds validated numbers: RRN, SSN, card, IBAN, IP', async () => {
    const rrn = `850315-1${'23456'}${rrnCheckDigit('850315123456')}`;
    const text = `주민등록번호 ${rrn}, SSN 123-45-6789, card 4111 1111 1111 1111, IBAN GB82 WEST 1234 5698 7654 32, host 10.0.12.7`;
    expect(await found(text)).toEqual([
      ['RRN', rrn],
      ['SSN', '123-45-6789'],
      ['CREDIT_CARD', '4111 1111 1111 1111'],
      ['IBAN', 'GB82 WEST 1234 5698 7654 32'],
      ['IP', '10.0.12.7'],
    ]);
    expect(await found('850315-1234560 666-12-3456 4111 1111 1111 1112 10.0.300.1', 'rrn,ssn,credit-card,ip')).toEqual([]);
  });

  it('finds IPv6 addresses, lower-case IBANs and ISO timestamps, not names with colons nor times alone', async () => {
    expect(await found('blocked 6e40:4041:c617:e898:c11:40d2:c669:2eb4 and fe80::1ff:fe23:4567:890a; my iban is gb82west12345698765432; Date: 1978-04-13 12:20:39, or 2019-09-05T12:20Z.')).toEqual([
      ['IP', '6e40:4041:c617:e898:c11:40d2:c669:2eb4'],
      ['IP', 'fe80::1ff:fe23:4567:890a'],
      ['IBAN', 'gb82west12345698765432'],
      ['DATE', '1978-04-13 12:20:39'],
      ['DATE', '2019-09-05T12:20Z'],
    ]);
    expect(await found('Foo::Bar at 12:30:45, ::1, dead:beef:cafe, gb82west12345698765433', 'ipv6,iban')).toEqual([]);
    // A spaced IBAN in capitals before lower-case words stays whole.
    expect((await found('IBAN: PL61 1090 1014 0000 0712 1981 2874 is mine', 'iban')).map(([, v]) => v)).toEqual(['PL61 1090 1014 0000 0712 1981 2874']);
  });

  it('finds identifying numbers after their name, numbers no quantity is written as, and postal codes after theirs', async () => {
    expect((await found("My driver's license number is LH329609T; passport: 532107754; card # 503890547220; MRN 8336652. PIN 22AF9362, SMS/WA 081235994171. Policy No. 12345678, license #: 87654321, 번호 1234567890123로", 'id-number,long-number')).map(([, v]) => v)).toEqual([
      'LH329609T',
      '532107754',
      '503890547220',
      '8336652',
      '22AF9362',
      '081235994171',
      '12345678',
      '87654321',
      '1234567890123',
    ]);
    // Fewer than five digits after the name, a reference range; ventilator settings, hashtags, decimals,
    // quantities with their units, ordinals.
    expect(await found('card 4111 1111, record 1234, Na 140 (reference 135-145), ac 600x50x12, A/C 14X700X100%, #20ThingsIWantFor2015, pi 3.141592653, 3000mAh, ISO9001, Bicillin 2400000U, my 1000000th tweet', 'id-number,long-number')).toEqual([]);
    expect(await found('plz 1000 retweets', 'postal-code')).toEqual([]);
    expect((await found('ZIP: 3520 Phone; zip code 75534-030, ZIP: 7412 SL, Postcode SW1A 1AA, postal code 394 13, ZIP 4943 ph', 'postal-code')).map(([, v]) => v)).toEqual([
      '3520',
      '75534-030',
      '7412 SL',
      'SW1A 1AA',
      '394 13',
      '4943',
    ]);
    // A verb or "of" between the name and its code, and the name hyphenated.
    expect((await found('my zip is 02139, zip-code 12345, postal code of 60614; the zip is the answer', 'postal-code')).map(([, v]) => v)).toEqual(['02139', '12345', '60614']);
    // After a verb, a whole code only: not a count, a price or a share.
    expect(await found('a zip is 280 now; paid 300 for a zip of 420; the zip was 200 bucks; the zip is 100% metal', 'postal-code')).toEqual([]);
  });

  it('finds national phone numbers in their own groupings without context, not clinical values', async () => {
    expect((await found('call 0688 872 49 99, 06-24312407, (021) 0025-967, (88) 684-334, 71-33-52-22 or 03.93.92.16.85', 'phone')).map(([, v]) => v)).toEqual([
      '0688 872 49 99',
      '06-24312407',
      '(021) 0025-967',
      '(88) 684-334',
      '71-33-52-22',
      '03.93.92.16.85',
    ]);
    // A blood gas after its pH, a schedule on a 24-hour clock, a time and a value or vitals, a date's three
    // pairs, a European date before a time.
    expect(await found('ABG 7.44-52-69-36-(9), meds at 0300 0600 0900, glucose @ 0600-281, ptt @ 0430 150, VS at 0800 120 80 88 18, seen 12-03-94, seen 05.03.2019 10:30', 'phone')).toEqual([]);
    // Words of texting and answering make a number in any grouping a phone, and a time first needs them.
    expect((await found("They're not answering at 785 8949; text 9493 7477; messages to 699 956 915; answering at 0650 995 04 94", 'phone-context')).map(([, v]) => v)).toEqual(['785 8949', '9493 7477', '699 956 915', '0650 995 04 94']);
    // Only as whole words (dialysis, context), not after a pH's decimal point, nor a schedule.
    expect(await found('ABG: pH 7.44 52 69 36; on dialysis, UF 2000 1500 ml; in the context of 138 102 24 14; call at 0800 1200 1800; meds at home 0800 1200 1800; seen in office 2005 03 12, in office 03 12 2019', 'phone-context')).toEqual([]);
    // After a place's label alone, a phone's last group of four digits: readings are written after home too.
    expect(await found('Blood sugars at home 140 160 180, BP at home 130-140 80-90', 'phone-context')).toEqual([]);
    expect((await found('wife at home 555 1234, work: 617 555 0142', 'phone-context')).map(([, v]) => v)).toEqual(['555 1234', '617 555 0142']);
  });

  it('finds Korean car plates, case numbers and accounts only near context words', async () => {
    expect(await found('차량 12가3456 및 서울 34나 5678', 'car-plate')).toEqual([
      ['CAR_PLATE', '12가3456'],
      ['CAR_PLATE', '서울 34나 5678'],
    ]);
    expect(await found('사건 2020고단1234 판결', 'case-number')).toEqual([['CASE_NUMBER', '2020고단1234']]);
    expect(await found('국민은행 계좌 123-456-789012로 송금', 'account')).toEqual([['ACCOUNT', '123-456-789012']]);
    expect(await found('part 123-456-789012 shipped', 'account')).toEqual([]);
  });

  it('finds ages over 89 in English and Korean, as HIPAA Safe Harbor counts them', async () => {
    expect((await found('a 92-year-old man, aged 97, 90yo; 피고인(91세), 만 102세', 'age')).map(([, v]) => v)).toEqual(['92-year-old', 'aged 97', '90yo', '91세', '만 102세']);
    expect(await found('a 42-year-old man, aged 89, 35yo; 피고인(45세), 만 30세', 'age')).toEqual([]);
    expect(await found('over 200 years old', 'age')).toEqual([]);
  });

  it('finds phones by context, pagers and extensions, and keeps clinical values out of dates', async () => {
    expect((await found('My number is 0490 75 40 81. Pager: #54321. Call 345-899-3560x4587.', 'phone,phone-context,pager')).map(([, v]) => v)).toEqual([
      '0490 75 40 81',
      '54321',
      '345-899-3560x4587',
    ]);
    expect(await found('CO/CI/SVR 5.8/2.71/497, crackles 1/2 up, lot 0490 75 40 81', 'date-us,phone-context')).toEqual([]);
    // Scores and ventilator settings written as fractions: pain, strength, murmur, GCS, pressure support.
    expect(await found('c/o pain 5/10. Rated her pain a 7/10; 6/10 incisional pain. Strength 4/5, murmur 2/6, GCS 3/15. PSV of 10/5, pressure support 12/5, peep 5. ac 700x10x.3/5, a/c 800x12/10/40%, 5-6/3-4/0-80. Pain level 7/10, strength in RUE 4/5, Apgars were 8/9.', 'date-us')).toEqual([]);
    // Dates beside them stay dates.
    expect((await found('Pain 8/10 at 3/12. Awoke on 8/25 with CP. Seen 6/30-7/2, POD 1-3/12. Pain since 4/12; 5/11 abd pain.', 'date-us')).map(([, v]) => v)).toEqual(['3/12', '8/25', '6/30', '7/2', '3/12', '4/12', '5/11']);
    // A month's name before a quantity is a word: dec, decreased.
    expect(await found('UO dec 4-5 cc/hr, BP dec 10 mmHg, sats dec 2 points, wbc dec 12 from 15, Hgb dec 1.2 from 9.8, wt dec 10 lbs.', 'date-month-name')).toEqual([]);
    expect((await found('On dec 4 pt fell. Seen Dec 12 from clinic, Dec 4, 2094. Dec 5 x-ray neg, Jan 5 u/s neg, admitted dec 12 to MICU.', 'date-month-name')).map(([, v]) => v)).toEqual(['dec 4', 'Dec 12', 'Dec 4, 2094', 'Dec 5', 'Jan 5', 'dec 12']);
    // A word of dates before the fraction wins; a word between the scale's word and it makes it no score.
    expect((await found('Since 4/10 headache. Admitted 3/10 pain crisis. F/u pain clinic 4/15. Chest pain, adm 3/12. Pain at 3/14; nutrition support 3/16.', 'date-us')).map(([, v]) => v)).toEqual(['4/10', '3/10', '4/15', '3/12', '3/14', '3/16']);
    expect(await found('born in 1977 and 1985년에 이사', 'year')).toEqual([
      ['DATE', '1977'],
      ['DATE', '1985'],
    ]);
  });

  it('rejects unknown recogniser names with the list of known ones', () => {
    expect(() => patternRecognizers('email,passport')).toThrow(/unknown recogniser\(s\) passport; available: email, url/);
    expect(() => patternRecognizers('-DATES')).toThrow(/unknown recogniser\(s\) -DATES; .*the kinds EMAIL, URL/);
    // PROPER_NOUN is no recogniser's own kind: it goes with korean-places. -none means nothing.
    expect(() => patternRecognizers('-PROPER_NOUN,-none')).toThrow(/unknown recogniser\(s\) -PROPER_NOUN, -none;/);
    for (const empty of ['', ',', 'email,', '-']) expect(() => patternRecognizers(empty), JSON.stringify(empty)).toThrow(/has an empty item; write none/);
  });

  it('selects a whole kind of identifier and leaves recognisers out with a leading minus', () => {
    const names = (selection: string) => defaultRecognizers(selection).map((r) => r.name);
    const dates = names('DATE');
    expect(dates).toContain('rule:date-us');
    expect(dates).toContain('rule:holiday');
    expect(dates.every((n) => n.startsWith('rule:date') || n.startsWith('rule:year') || n === 'rule:holiday')).toBe(true);
    // A value that starts with a removal starts from all; the running order stays that of all.
    const withoutDates = names('-DATE,-korean-places');
    expect(withoutDates).toEqual(names('all').filter((n) => !dates.includes(n) && n !== 'korean-places'));
    // Korean facilities are a recogniser of their own: leaving the places out keeps them.
    expect(withoutDates).toContain('korean-facilities');
    expect(names('all,-LOCATION')).not.toContain('places');
    expect(names('all,-LOCATION')).not.toContain('rule:postal-code');
    expect(names('LOCATION,-places')).toEqual(['rule:postal-code', 'korean-places', 'korean-facilities']);
    expect(names('none')).toEqual([]);
    // none clears what came before it; a lower-case name is its one rule, not the kind.
    expect(names('all,none,email')).toEqual(['rule:email']);
    expect(names('-date')).toEqual(names('all').filter((n) => n !== 'rule:date'));
  });
});
