import type { Detection, Recognizer } from './recognizer.js';
import { CANADIAN_POSTCODE, DUTCH_POSTCODE, HYPHENATED_POSTAL_CODE, SHORT_POSTAL_CODE, UK_POSTCODE } from './postalCodes.js';
import { publicLists } from './publicLists.js';
import { ibanValid, ipv4Valid, ipv6Valid, isCalendarDate, luhnValid, militaryTimes, phoneDigitsValid, rrnValid, ssnValid } from './validators.js';
import { dictionaryWord } from './words.js';

/** A regular expression, a validator for what it matched, and optionally context words that must precede it. */
export interface PatternSpec {
  name: string;
  category: string;
  regex: RegExp;
  /** The capture group(s) holding the identifier, the first that matched (default: the whole match). */
  group?: number[];
  /** Whether a match is one; `before` is the `contextWindow` characters before it, where its context words stand. */
  validate?: (match: RegExpExecArray, before: string) => boolean;
  /** Required within `contextWindow` characters before the match (case-insensitive). */
  context?: RegExp;
  contextWindow?: number;
}

// Digits may touch Hangul (Korean particles attach to numbers: 010-1234-5678로) but not other digits or Latin letters.
const NS = String.raw`(?<![\p{N}A-Za-z])`;
const NE = String.raw`(?![\p{N}A-Za-z])`;
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const SEASON = '(?:spring|summer|fall|autumn|winter)';
/** A unit after a number, which makes it a quantity, not a year: "2000 cc", "CABG 60 bpm", "oct 50 mcg", "1930 hrs". */
const QUANTITY_UNIT = String.raw`(?:mg|mcg|gm?|kg|cc|ml|meq|mmol|units?|u|mm|cm|mmhg|kcal|cal|bpm|x|hrs?|hours?|h|mins?|minutes?|sec|ms)\b`;
/**
 * A quantity right after a month's day: a decimal, a percentage, a unit of a measure written out or its
 * symbol of two letters or more (not x-ray, h&p, u/s: a date's day comes before those too).
 */
const QUANTITY_AFTER = /^(?:\.\d|\s?(?:%|(?:cc|ml|mg|mcg|kg|lbs?|mmhg|meq|bpm|beats|points?|units)\b))/i;
/** Two digits that no day can be (32-99), read as a year; not a quantity ("oct 50 mcg", "feb 38.5"). */
const BARE_YEAR = String.raw`(3[2-9]|[4-9]\d)(?!\.\d|\s?%|\s?${QUANTITY_UNIT})`;
/**
 * A year after a month's name: four digits, two after an apostrophe ('94), or two that no day can be
 * (32-99: "3 Mar 94"); after the month alone not after May, Mar or Dec, which are also words of the notes
 * ("dec 45 cc"): "Oct 94".
 */
const yearAfterMonth = (alone: boolean) => String.raw`(?:(\d{4})|'(\d{2})|${alone ? String.raw`(?<!\b(?:may|mar|dec)\.?,?\s+)` : ''}${BARE_YEAR})(?![\p{N}A-Za-z])`;
/** A day of the month, 1-31, not the start of a longer number. */
const DAY_NUMBER = String.raw`(?:0?[1-9]|[12]\d|3[01])(?!\d)`;
const DAY = `(${DAY_NUMBER})`;
/** The last day of a range after a first one, in a date with a month's name: "Apr 12-15", "2 to 5 May". */
const DAY_RANGE = String.raw`(?:(?:st|nd|rd|th)?\s?(?:-|–|to|through|thru)\s?${DAY_NUMBER})?`;
/** A span of time or a quantity after numbers, which makes them no date: "since 2-3 days", "until 4-6 hours". */
const SPAN_AFTER = new RegExp(String.raw`^\s?(?:${QUANTITY_UNIT}|(?:days?|weeks?|wks?|months?|mos?|years?|times)\b)`, 'iu');
const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };

const re = (source: string, flags = 'giu') => new RegExp(source, `${flags}d`);
/** A lower-case word as a pattern of any case, for a regular expression that is otherwise case-sensitive. */
const anyCase = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
/** A whole number and a hyphen, the start of a mixed number (45-3/8); not a date's day before a range's end (6/30-7/2). */
const MIXED_NUMBER_BEFORE = /(?:^|[^\d/])\d+-$/;
/** A month's name and a day before a hyphen: a range's start (May 30-6/8), when the month after is the same or the next. */
const MONTH_DAY_BEFORE = new RegExp(String.raw`\b(${MONTH})\s?\d{1,2}-$`, 'i');
/** Whether the text before a slashed month/day starts a range of dates in words: May 30-6/8, not dec 4-5/5 (decreased). */
function rangeFromMonthName(before: string, month: number): boolean {
  const m = MONTH_DAY_BEFORE.exec(before);
  const from = m === null ? undefined : MONTHS[m[1]!.toLowerCase().slice(0, 3)];
  return from !== undefined && (month === from || month === (from % 12) + 1);
}
/** The denominators of fractions written in mixed numbers: halves to thirty-seconds (prices), fifths and tenths (grades, scores). */
const FRACTION_DENOMINATORS = new Set([2, 3, 4, 5, 8, 10, 16, 32]);
/**
 * A score or a setting a note writes as a fraction, not a date: pain 5/10, strength 4/5, a murmur 2/6, GCS
 * 3/15, pressure support 10/5. The scale's word comes right before, at most two small words or a limb
 * between ("pain a 7/10", "PSV of 10/5", "strength in RUE 4/5"; not "pain since 3/12", "pain at 3/12",
 * "pain clinic 4/15"), or pain right after a score out of 10
 * ("7/10 pain", "6/10 incisional pain"; not "on 8/25 with CP"). A word of dates before it wins (below).
 */
const SCORE_BEFORE = /\b(?:pain|painful|discomfort|score|scale|rated?|rates|strength|power|motor|murmur|gcs|apgars?|ps|psv|pressure\s+support|peep|cpap|bi-?pap|settings?|grade)[\s:=,-]+(?:(?:of|is|are|was|were|now|today|level|a|an|her|his|its|in|[rlb](?:ue|le)|right|left)\s+){0,2}$/i;
const PAIN_AFTER = /^\s?(?:(?!(?:with|and|at|on|in|of|from|for|to|after|since)\s)\p{L}+\s)?(?:pain|discomfort|cp|ha|headache)\b/iu;
/** Words of dates right before a number: a fraction after them is a date ("admitted 1/3"). */
const DATE_CUE_BEFORE = /\b(?:since|until|till|admitted|admit|adm|discharged|dated|dob|born|date)[\s:]+$/i;

/**
 * Whether a month/day with no year, `before` and `after` it, is a fraction rather than a date: a simple
 * fraction (1/2, 2/3), the fraction of a mixed number (a price or a yield, 45-3/8; a strength graded
 * 4-5/5; not the end of a range of dates, 6/30-7/2, May 30-6/8, nor a date after a day's number, POD
 * 1-3/12), or a score or a setting ({@link SCORE_BEFORE}). A word of dates before it makes it a date.
 */
function yearlessFraction(month: number, day: number, before: string, after: string, leadingZero: boolean): boolean {
  if (DATE_CUE_BEFORE.test(before)) return false;
  // A leading zero writes no fraction ("bx 2/03"), but a score may have one ("pain 05/10").
  if (!leadingZero && month < day && day <= 4) return true;
  if (!leadingZero && month <= day && FRACTION_DENOMINATORS.has(day) && MIXED_NUMBER_BEFORE.test(before) && !rangeFromMonthName(before, month)) return true;
  return SCORE_BEFORE.test(before) || (day === 10 && PAIN_AFTER.test(after));
}
const num = (s: string | undefined) => (s === undefined ? NaN : Number(s));
/**
 * Words before a phone number: its own words, and those of texting and answering, whole ("dial", not
 * dialysis; "text", not context).
 */
const PHONE_WORD = /phone|tel\b|telephone|call|cell|mobile|fax|contact|number|reach|\b(?:desk|landline|hotline|dial(?:l?ed|ing)?|text(?:ed|ing)?|sms|whatsapp|messages?|answering)\b|전화|연락처|휴대폰|핸드폰/i;
/** A day, a month and a year in digits, which a trunk prefix's 0 may start: 05.03.2019, 03 12 2019. */
const NUMERIC_DATE = /^\d{1,2}([ ./-])\d{1,2}\1(?:19|20)\d{2}$/;
/** A year, a month and a day with spaces or dots between: 2005 03 12. */
const YEAR_FIRST_DATE = /^(?:19|20)\d{2}([ .-])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])$/;
/** The postal codes of every country's shape (codes of digits only, `digits`, in the middle: a Dutch code is tried before its four digits alone). */
const postalCodes = (...digits: string[]) => [HYPHENATED_POSTAL_CODE, DUTCH_POSTCODE, ...digits, UK_POSTCODE, CANADIAN_POSTCODE].join('|');
/** A two-digit year is read as 19xx/20xx; only month and day are checked then. */
const dateOk = (y: number, m: number, d: number) => isCalendarDate(Number.isNaN(y) ? 2000 : y < 100 ? 2000 + y : y, m, d);

export const PATTERNS: PatternSpec[] = [
  { name: 'email', category: 'EMAIL', regex: re(String.raw`(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?![\w-])`) },
  { name: 'url', category: 'URL', regex: re(String.raw`\b(?:https?://|www\.)[^\s<>"')\]]+[^\s<>"')\].,;:!?]`) },
  {
    // A social-media handle names an account: @justinbieber, @Real_Liam_Payne, @JaiLovesMehh. Not an
    // e-mail's @, and not notes' "@" for "at" (@goal, @KVO, @kvo, @q4h, @T10, @2pm): a handle starts with a
    // letter or an underscore and holds four letters or more; without a digit, an underscore or a capital
    // inside its lower case it is five characters or more and no English word or clinical abbreviation.
    name: 'handle',
    category: 'USERNAME',
    regex: re(String.raw`(?<![\p{L}\p{N}_@./+-])@([A-Za-z_][A-Za-z0-9_]{2,14})(?![\p{L}\p{N}_@])`),
    validate: (m) => {
      const handle = m[1]!;
      if ((handle.match(/[A-Za-z]/g) ?? []).length < 4) return false;
      return /[\d_]/.test(handle) || /\p{Ll}\p{Lu}/u.test(handle) || (handle.length >= 5 && !dictionaryWord(handle.toLowerCase(), publicLists()));
    },
  },
  { name: 'ip', category: 'IP', regex: re(String.raw`${NS}\d{1,3}(?:\.\d{1,3}){3}${NE}`), validate: (m) => ipv4Valid(m[0]) },
  { name: 'ipv6', category: 'IP', regex: re(String.raw`(?<![\p{L}\p{N}:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\p{L}\p{N}:])`), validate: (m) => ipv6Valid(m[0]) },
  { name: 'rrn', category: 'RRN', regex: re(String.raw`${NS}\d{6}\s?-\s?\d{7}${NE}`), validate: (m) => rrnValid(m[0]) },
  { name: 'ssn', category: 'SSN', regex: re(String.raw`${NS}\d{3}-\d{2}-\d{4}${NE}`), validate: (m) => ssnValid(m[0]) },
  // Card numbers are printed in groups of four (Amex 4-6-5) or unbroken; other digit groupings are accounts.
  { name: 'credit-card', category: 'CREDIT_CARD', regex: re(String.raw`${NS}(?:\d{4}([ -]?)\d{4}\1\d{4}\1\d{1,7}|\d{4}([ -]?)\d{6}\2\d{5})${NE}`), validate: (m) => luhnValid(m[0]) },
  // In capitals or in lower case, one case throughout: in any case a spaced IBAN would run on into the
  // words after it (PL61 1090 ... 2874 is mine) and fail its mod 97 check.
  {
    name: 'iban',
    category: 'IBAN',
    regex: re(String.raw`\b(?:[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?|[a-z]{2}\d{2}(?:[ ]?[a-z0-9]{4}){2,7}(?:[ ]?[a-z0-9]{1,4})?)\b`, 'gu'),
    validate: (m) => ibanValid(m[0]),
  },
  {
    name: 'phone',
    category: 'PHONE',
    regex: re(
      '(?:' +
        [
          String.raw`\+\d{1,3}[\s.-]?(?:\(0\)\s?)?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}`,
          String.raw`${NS}0\d{1,2}[\s.)-]\s?\d{3,4}[\s.-]\d{4}`,
          String.raw`${NS}01[016789]\d{7,8}`,
          String.raw`${NS}(?:1[\s.-])?\(\d{3}\)\s?\d{3}[\s.-]\d{4}`,
          String.raw`${NS}(?:00?1[\s.-])?\d{3}(?:[.\/-]\s?|\s)\d{3}[\s.\/-]\s?\d{4}`,
          // A national number after its trunk prefix 0, in any grouping: 0688 872 49 99, 06-24312407, (021) 0025-967.
          String.raw`${NS}\(?0\d{1,4}\)?(?:[ .-]\d{2,8}){1,4}`,
          // An area code in brackets: (88) 684-334, (91) 5676-6953.
          String.raw`${NS}\(\d{2,4}\)\s?\d{3,4}[ .-]?\d{3,4}`,
          // Four or five pairs of digits joined by dashes or dots: 71-33-52-22 (not a date's three, nor a
          // blood gas's values after its pH, 7.44-52-69-36-(9)).
          String.raw`(?<![\p{N}A-Za-z.-])\d{2}(?<pair>[.-])\d{2}(?:\k<pair>\d{2}){2,3}(?![.-]\(?\d)`,
        ].join('|') +
        String.raw`)(?:\s?(?:x|ext\.?)\s?\d{1,5})?${NE}(?!:)`,
    ),
    // After a trunk prefix's 0 a national number has nine digits or more, and starts with no time on a
    // 24-hour clock, which a note's schedule or vitals do (0300 0600, 0430 150, 0800 120 80 88: "0650 995 04
    // 94" needs a phone's word before it, phone-context), nor is a date (05.03.2019).
    validate: (m) => {
      const number = m[0].replace(/(x|ext\.?)\s?\d+$/i, '');
      if (/^\(?0/.test(number) && (number.replace(/\D/g, '').length < 9 || NUMERIC_DATE.test(number) || (number.startsWith('0') && militaryTimes(number.split(/\D/)[0]!)))) return false;
      return phoneDigitsValid(number);
    },
  },
  {
    name: 'phone-context',
    category: 'PHONE',
    // "202 2671093": the local number may be written unbroken.
    // Not after a decimal point (pH 7.44 52 69 36), nor a schedule on a 24-hour clock (at home 0800 1200),
    // nor a date (in office 2005 03 12). After a place's label alone (home, work, office) a phone's shape,
    // its last group of four digits or more: readings are written there too (sugars at home 140 160 180).
    regex: re(String.raw`(?<![\p{N}A-Za-z.])\(?\d{2,5}\)?(?:[ .-]\d{2,8}){1,4}${NE}`),
    validate: (m, before) => {
      if (!phoneDigitsValid(m[0]) || militaryTimes(m[0]) || NUMERIC_DATE.test(m[0]) || YEAR_FIRST_DATE.test(m[0])) return false;
      return /\d{4}$/.test(m[0]) || PHONE_WORD.test(before);
    },
    context: new RegExp(`${PHONE_WORD.source}|\\b(?:home|work|office)\\b`, 'i'),
    contextWindow: 30,
  },
  {
    name: 'pager',
    category: 'PHONE',
    regex: re(String.raw`\b(?:pager|beeper|pg)\s*[:#]?\s*#?\s*(\d{4,6})${NE}`),
    group: [1],
  },
  {
    name: 'date',
    category: 'DATE',
    // One separator throughout: 1045-3/8 is a price. A time of day written with it belongs to it (an ISO
    // 8601 timestamp: 2019-09-05 12:20:39, 2019-09-05T12:20Z).
    regex: re(String.raw`${NS}(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-][0-2]\d:?[0-5]\d)?)?${NE}`),
    validate: (m) => dateOk(num(m[1]), num(m[3]), num(m[4])),
  },
  {
    name: 'date-ko-dotted',
    category: 'DATE',
    regex: re(String.raw`${NS}(\d{4})\.\s*(\d{1,2})\.\s*(\d{1,2})\.?`),
    validate: (m) => dateOk(num(m[1]), num(m[2]), num(m[3])),
  },
  {
    name: 'date-ko',
    category: 'DATE',
    regex: re(String.raw`${NS}(?:(\d{2,4})\s*년\s*)?(\d{1,2})\s*월\s*(\d{1,2})\s*일|${NS}(\d{4})\s*년\s*(\d{1,2})\s*월`),
    validate: (m) => (m[5] !== undefined ? num(m[5]) >= 1 && num(m[5]) <= 12 : dateOk(num(m[1]), num(m[2]), num(m[3]))),
  },
  {
    name: 'date-us',
    category: 'DATE',
    // Not inside a run of slashed or decimal values (CO/CI/SVR 5.8/2.71/497), and not a simple fraction (1/2,
    // 2/3) unless a word of dates comes before it ("admitted 1/3"; "on 1/2 NS" is half saline); after a
    // sentence's period it may be ("to Quartermain.8/31").
    regex: re(String.raw`(?<![\d/])(?<!\d\.)(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?(?![\d/]|\.\d)${NE}`),
    validate: (m) => {
      const [month, day] = [num(m[1]), num(m[2])];
      const before = m.input.slice(Math.max(0, m.index - 28), m.index);
      const after = m.input.slice(m.index + m[0].length, m.index + m[0].length + 24);
      if (m[3] === undefined && yearlessFraction(month, day, before, after, /^0/.test(m[1]!) || /^0/.test(m[2]!))) return false;
      // A setting: a value after a multiplication (700x10x.3/5), a percentage (12/10/40%), a range of
      // values on both sides (5-6/3-4).
      if (/[x×]\.?$/i.test(before) || after.startsWith('%') || (MIXED_NUMBER_BEFORE.test(before) && /^-\d{1,3}(?!\d)/.test(after))) return false;
      return dateOk(num(m[3]), month, day);
    },
  },
  {
    // Dashed US dates need all three parts, 3-12-94 (7-8 alone is a range), unless a word of dates comes
    // before them and no span of time after ("admit date: 3-12", "adm 03-12"; not "since 2-3 days").
    name: 'date-us-dashed',
    category: 'DATE',
    regex: re(String.raw`(?<![\d.-])(\d{1,2})-(\d{1,2})(?:-(\d{2}|\d{4}))?(?![\d-]|\.\d)${NE}`),
    validate: (m) => (m[3] !== undefined || (DATE_CUE_BEFORE.test(m.input.slice(Math.max(0, m.index - 16), m.index)) && !SPAN_AFTER.test(m.input.slice(m.index + m[0].length, m.index + m[0].length + 10)))) && dateOk(num(m[3]), num(m[1]), num(m[2])),
  },
  {
    // Dotted or mixed US dates with all three parts and a two- or four-digit year: 3.12.94, 11/21.93 (a
    // decimal has one dot; an IP address four parts).
    name: 'date-us-dotted',
    category: 'DATE',
    regex: re(String.raw`(?<![\p{L}\d./-])(\d{1,2})[./](\d{1,2})\.(\d{2}|\d{4})(?![\d./-]\d|\d)${NE}`),
    validate: (m) => dateOk(num(m[3]), num(m[1]), num(m[2])),
  },
  {
    // Month and year: "CAD/SEMI 8/84", "ovarian ca (12/93)", "fx 4/97" (the day form is date-us).
    name: 'date-month-year',
    category: 'DATE',
    regex: re(String.raw`(?<![\d./])(\d{1,2})/(\d{2}|\d{4})(?![\d/]|\.\d)${NE}`),
    validate: (m) => num(m[1]) >= 1 && num(m[1]) <= 12 && (m[2]!.length === 4 ? num(m[2]) >= 1900 && num(m[2]) <= new Date().getFullYear() + 1 : num(m[2]) > 31),
  },
  {
    name: 'date-month-name',
    category: 'DATE',
    regex: re(
      String.raw`\b${MONTH}\s+${DAY}${DAY_RANGE}(?:st|nd|rd|th)?(?:,\s*${yearAfterMonth(false)}|\s+(\d{4}))?\b|\b${DAY}${DAY_RANGE}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}(?:,?\s+${yearAfterMonth(false)})?\b|\b${MONTH},?\s+(?:of\s+)?${yearAfterMonth(true)}`,
    ),
    // Groups: 1 the day of "March 3[, 1994]", 2-5 its year; 6 the day of "3 March [1994]", 7-9 its year;
    // 10-12 the year of "March 1994".
    validate: (m) => {
      const month = MONTHS[m[0].toLowerCase().match(/[a-z]{3}/g)?.find((w) => w in MONTHS) ?? ''];
      if (month === undefined) return false;
      const day = num(m[1] ?? m[6]);
      // A quantity after the number makes the month's name a word: "dec 10 mmHg", "UO dec 4-5 cc/hr" (dec,
      // decreased), and in lower case a change to a number, "wbc dec 12 from 15" (not "dec 12 to MICU").
      const after = m.input.slice(m.index + m[0].length, m.index + m[0].length + 8);
      const yearless = m.slice(2, 6).every((g) => g === undefined) && m.slice(7, 10).every((g) => g === undefined);
      if (yearless && !Number.isNaN(day) && (QUANTITY_AFTER.test(after) || (/^dec\b/.test(m[0]) && /^\s(?:from|to)\s\d/.test(after)))) return false;
      return Number.isNaN(day) || isCalendarDate(2000, month, day);
    },
  },
  {
    // A day, a month's name and a year joined by dashes or written together, as lab systems print them:
    // 12-Mar-2094, 3-JAN-94, 12MAR94; a day and a month's name alone with a dash (12-Apr).
    name: 'date-day-month-dashed',
    category: 'DATE',
    regex: re(String.raw`(?<![\p{L}\d-])(\d{1,2})(?:(-?)${MONTH}\2(\d{2}|\d{4})|-${MONTH})(?![\p{L}\d-])`),
    validate: (m) => {
      const month = MONTHS[m[0].toLowerCase().match(/[a-z]{3}/)?.[0] ?? ''];
      return month !== undefined && isCalendarDate(2000, month, num(m[1]));
    },
  },
  {
    // A season and its year: "Spring 2095", "summer of '93", "spring of 94".
    name: 'date-season',
    category: 'DATE',
    // Two digits alone after "of" only where no quantity reads so: not after "fall" ("fall of 10 feet").
    regex: re(String.raw`\b(?:${SEASON}\s+(?:of\s+)?(?:(?:19|20)\d{2}|'\d{2})|(?!fall)${SEASON}\s+of\s+${BARE_YEAR})(?![\p{L}\d])`),
  },
  {
    name: 'year',
    category: 'DATE',
    regex: re(String.raw`\b(?:born|since|in|year|dob|died|graduated|class of|married|from|until)\s+((?:19|20)\d{2})${NE}|${NS}((?:19|20)\d{2})\s?년`),
    group: [1, 2],
    validate: (m) => Number(m[1] ?? m[2]) <= new Date().getFullYear() + 1,
  },
  {
    // Years of a medical history: "MI 1992", "s/p AVR 1971" (not a time, a volume or a dose: 1930 hrs, 2000
    // cc), and decades, whose "s" is part of the span: "in the 1980s", "the 1990's" (not a century, 1900s).
    name: 'year-history',
    category: 'DATE',
    regex: re(String.raw`(?<![\w.:/@~-])(?<!(?:\b(?:at|by|until)|@)\s+)((?:19|20)\d{2}(?:['’]?s\b)?)(?![\d:%]|\.\d|\s?(?:${QUANTITY_UNIT}|pm\b|am\b))`),
    group: [1],
    validate: (m) => parseInt(m[1]!, 10) <= new Date().getFullYear() + 1 && !/00$/.test(m[1]!.slice(0, 4)),
  },
  {
    // Two-digit years of a history, kept with the event before or after them so that the term is "cabg
    // 92", not every 92: "CABG '92", "MI '84", "CVA 74'" (a trailing apostrophe only after an
    // abbreviation: 50' is feet), "'09 PTCA".
    name: 'year-apostrophe',
    category: 'DATE',
    regex: re(String.raw`\b\p{L}[\p{L}\d/]+[\s,]{0,2}['’]\d{2}(?![\d'’%])|\b[A-Z][A-Z/]{1,5}\s\d{2}['’](?![\w'’])|(?<![\p{L}\p{N}'’])['’]\d{2}\s(?!${QUANTITY_UNIT})\p{L}[\p{L}\d/]+`, 'gu'),
  },
  {
    // A bare two-digit year after an event of a history, kept with the event: "CABG 81", "Redo CABG 84",
    // "NQWMI 13". Only events that carry no setting or rate (not PPM 60, a pacemaker's rate).
    name: 'year-event',
    category: 'DATE',
    regex: re(String.raw`\b(?:cabg|mi|nqwmi|nstemi|stemi|imi|ami|cva|tia|ptca|pci|avr|mvr|turp|dvt|aaa|cea|appy|appendectomy|chole|cholecystectomy|hysterectomy|tah|bka|aka)\s\d{2}(?![\d'’%.,:/-]\d|[\d'’%:/-]|\s?(?:${QUANTITY_UNIT}|yo\b|y/o|yrs?\b|years?))`, 'giu'),
  },
  {
    // A month alone where the words around make it a time: "in sept.", "since March", "early january".
    // May is left out: "in may" reads as the verb too often.
    name: 'date-month-context',
    category: 'DATE',
    // Abbreviations without their period only where they are no word of the notes (feb, aug, sept, oct, nov; not mar, dec).
    regex: re(String.raw`\b(?:in|since|during|early|late|mid|until|till|by|before|after|end of|beginning of|middle of)(?:\s+|(?<=mid)-)(january|february|march|april|june|july|august|september|october|november|december|jan\.|feb\.?|mar\.|apr\.|jun\.|jul\.|aug\.?|sept?\.?|oct\.?|nov\.?|dec\.)(?![\p{L}])`),
    group: [1],
  },
  {
    // A day of the month alone: "drawn on the 11th.", "since the 3rd and".
    name: 'date-ordinal',
    category: 'DATE',
    regex: re(String.raw`\b(?:on|since|until|till|by|before|after|from)\s+the\s+(\d{1,2}(?:st|nd|rd|th))(?=\s*(?:[.,;:)]|\n|$|of\b|at\b|and\b|to\b))`),
    group: [1],
    validate: (m) => num(m[1]!.slice(0, -2)) >= 1 && num(m[1]!.slice(0, -2)) <= 31,
  },
  {
    // Two-digit years with the apostrophe after, in histories typed in capitals: "CHOLECYSTECTOMY 77'.",
    // "CABG X5 99'"; after a word in lower case it is as often feet ("ambulated 50'").
    name: 'year-apostrophe-after',
    category: 'DATE',
    regex: re(String.raw`(?<=\b[A-Z][A-Z\d/]+\s)(\d{2})['’](?![\w'’])`, 'gu'),
    group: [1],
  },
  {
    name: 'holiday',
    category: 'DATE',
    regex: re(String.raw`\b(?:christmas(?: eve| day)?|x-?mas(?: eve)?|thanksgiving|easter|good friday|new year['’]?s(?: eve| day)?|memorial day|labor day|independence day|fourth of july|4th of july|halloween|c?hanuk?kah|passover|yom kippur|rosh hashanah?|kwanzaa|diwali|boxing day|valentine['’]?s day|mother['’]?s day|father['’]?s day|veterans['’]? day|columbus day|presidents['’]? day|(?:st\.? |saint )patrick['’]?s day|(?:mlk|martin luther king(?: jr\.?)?) day)\b`),
    // "a good Friday" is a fine day, not the holiday.
    validate: (m) => !/^good/i.test(m[0]) || m[0].startsWith('G'),
  },
  {
    name: 'car-plate',
    category: 'CAR_PLATE',
    regex: re(String.raw`${NS}(?:(?:서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|전북|전남|경북|경남|제주)\s?)?\d{2,3}\s?[가-힣]\s?\d{4}${NE}`),
    validate: (m) => /[가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주아바사자배하허호]\s?\d{4}$/.test(m[0]),
  },
  {
    name: 'account',
    category: 'ACCOUNT',
    regex: re(String.raw`${NS}\d{2,6}(?:-\d{2,7}){2,4}${NE}`),
    context: /(계좌|통장|은행|account|acct|a\/c|bank|iban)/i,
    contextWindow: 30,
  },
  {
    // HIPAA's "any other unique identifying number": a licence, passport, policy, record, member or card
    // number after its name, five digits or more, letters allowed (F162823540116, LH329609T).
    name: 'id-number',
    category: 'ID',
    regex: re(
      String.raw`\b(?:licen[cs]e|passport|membership|member|policy|mrn|record|account|acct|card|serial|certificate|insurance|badge|employee|customer|claim|reference|ticket|identification|id)\b(?:\s?(?:number|num|no|nr|code|id)\b\.?)?\s?(?:is|was|[:#=]{1,2})?\s?#?\s?([A-Z0-9][A-Z0-9-]{3,30}[A-Z0-9])${NE}`,
    ),
    group: [1],
    // Not a range of values (a lab's reference range, 135-145).
    validate: (m) => (m[1]!.match(/\d/g) ?? []).length >= 5 && !/^\d{1,5}-\d{1,5}$/.test(m[1]!),
  },
  {
    // A number no quantity is written as: nine digits or more unbroken (an amount has its thousands
    // separated, 1,000,000), or letters and six digits or more in one word (A56319335, 22AF9362); not a
    // ventilator setting (600x50x12, x25x500x40) nor a hashtag (#20ThingsIWantFor2015).
    name: 'long-number',
    category: 'ID',
    regex: re(String.raw`(?<![\p{L}\p{N}@#._/-])(?:\d{9,}|(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z\d]{7,})(?![\p{N}A-Za-z@_/-]|\.\w)`),
    // Nor a quantity with its unit or an ordinal written against it (2400000U, 1000000th).
    validate: (m) => (m[0].match(/\d/g) ?? []).length >= 6 && !/^\d*(?:x\d+)+x?$|^x\d|^\d+(?:st|nd|rd|th|u|iu|k|m|b|cfu|mg|ml)$/i.test(m[0]),
  },
  {
    // A postal code after its name: ZIP: 3520, ZIP 75534-030, postcode 7412 SL (the Netherlands), postal
    // code 394 13, SW1A 1AA, K1A 0B1 (Canada); PLZ in capitals only (plz is please in a tweet).
    name: 'postal-code',
    category: 'LOCATION',
    // Case matters in the code, not in its name: "ZIP 3520 ph" is 3520, not a code ending in PH. After a
    // verb or "of" only a code of four digits or more, never a count or a price ("a zip is 280 now", "zip
    // was 100%").
    regex: re(
      String.raw`\b(?:${anyCase('zip')}(?:[\s-]?${anyCase('code')})?|${anyCase('post')}(?:al)?\s?${anyCase('code')}|PLZ)(?:\s?[:#]?\s?(${postalCodes(SHORT_POSTAL_CODE, String.raw`\d{3,5}(?:-\d{4})?`)})|\s(?:is|of|was)\s(${postalCodes(String.raw`\d{4,5}(?:-\d{4})?`)}))(?!\s?%|[.,]\d)${NE}`,
      'gu',
    ),
    group: [1, 2],
  },
  // Korean court case numbers: year, case-type syllables (고단 criminal single judge, 가합 civil panel, ...), serial.
  { name: 'case-number', category: 'CASE_NUMBER', regex: re(String.raw`${NS}\d{4}\s?[고노도가나다구누두드르머카타초재형모오로보감즈브스느호허버비후크트정마라아자차파하개][가-힣]{0,2}\s?\d{1,7}${NE}`) },
  {
    name: 'age',
    category: 'AGE',
    regex: re(
      String.raw`\b(\d{1,3})[- ](?:years?|yrs?)[- ]old\b|\bage[d]?\s+(\d{1,3})\b|\b(\d{1,3})\s?(?:yo|y/o|y\.o\.)(?![a-z])|(?:만\s?)?${NS}(\d{1,3})\s?(?:세|살)`,
    ),
    // Ages over 89 only, as HIPAA's Safe Harbor rule: a younger age is shared by too many people to single
    // anyone out, and protecting every age cost 1.9% of the Korean judgments' other text.
    validate: (m) => {
      const age = num(m[1] ?? m[2] ?? m[3] ?? m[4]);
      return age >= 90 && age <= 125;
    },
  },
];

/** Names accepted by `--recognizers`. */
export const PATTERN_NAMES = PATTERNS.map((p) => p.name);

/** A recogniser built from one pattern spec. */
export class PatternRecognizer implements Recognizer {
  readonly name: string;
  constructor(private readonly spec: PatternSpec) {
    this.name = `rule:${spec.name}`;
  }

  find(text: string): Detection[] {
    const out: Detection[] = [];
    const { regex, validate, context, contextWindow = 30, category } = this.spec;
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      if (m[0].length === 0) {
        regex.lastIndex++;
        continue;
      }
      const before = text.slice(Math.max(0, m.index - contextWindow), m.index);
      if (validate && !validate(m, before)) continue;
      if (context && !context.test(before)) continue;
      const span = this.spec.group === undefined ? [m.index, m.index + m[0].length] : this.spec.group.map((g) => m.indices?.[g]).find((x) => x !== undefined);
      if (span === undefined) continue;
      out.push({ start: span[0]!, end: span[1]!, category, source: this.name });
    }
    return out;
  }
}
