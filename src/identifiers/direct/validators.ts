/** Checksums and plausibility checks that turn a digit pattern into an identifier. */

const digitsOf = (s: string) => s.replace(/\D/g, '');

/** Luhn (mod 10) check used by payment card numbers. */
export function luhnValid(number: string): boolean {
  const d = digitsOf(number);
  if (d.length < 12 || d.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/** ISO 13616 IBAN: country code, check digits, BBAN; valid when the rearranged number mod 97 is 1. */
export function ibanValid(iban: string): boolean {
  const s = iban.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  const rearranged = s.slice(4) + s.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const v = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of v) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

/** US SSN rules: area not 000, 666 or 9xx; group not 00; serial not 0000. */
export function ssnValid(ssn: string): boolean {
  const d = digitsOf(ssn);
  if (d.length !== 9) return false;
  const area = d.slice(0, 3);
  return area !== '000' && area !== '666' && area[0] !== '9' && d.slice(3, 5) !== '00' && d.slice(5) !== '0000';
}

/** Whether year-month-day is a real calendar date. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/**
 * Korean resident registration number YYMMDD-GNNNNNN: a real birth date, a gender/century digit 1-8
 * (5-8 for foreign residents), and the mod-11 check digit used for numbers issued before October 2020.
 */
export function rrnValid(rrn: string): boolean {
  const d = digitsOf(rrn);
  if (d.length !== 13) return false;
  const g = Number(d[6]);
  if (g < 1 || g > 8) return false;
  const century = g === 9 || g === 0 ? 1800 : g <= 2 || g === 5 || g === 6 ? 1900 : 2000;
  if (!isCalendarDate(century + Number(d.slice(0, 2)), Number(d.slice(2, 4)), Number(d.slice(4, 6)))) return false;
  return rrnCheckDigit(d.slice(0, 12)) === Number(d[12]);
}

/** The check digit of the first 12 digits of a resident registration number. */
export function rrnCheckDigit(first12: string): number {
  const weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  const sum = weights.reduce((acc, w, i) => acc + w * (first12.charCodeAt(i) - 48), 0);
  return (11 - (sum % 11)) % 10;
}

/** Each octet of a dotted IPv4 address is 0-255 without leading zeros. */
export function ipv4Valid(ip: string): boolean {
  const parts = ip.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255 && (p === '0' || !p.startsWith('0')));
}

/**
 * An IPv6 address: eight groups of 1-4 hex digits, or fewer around one `::` (so a time, `12:30:45`, is none);
 * three groups and a digit at least, so that `Foo::Bar` and `bad::face:cafe` are none either.
 */
export function ipv6Valid(ip: string): boolean {
  const halves = ip.toLowerCase().split('::');
  if (halves.length > 2 || !/\d/.test(ip)) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) || groups.length < 3) return false;
  return halves.length === 2 ? groups.length <= 7 : groups.length === 8;
}

/** Digit groups that are all times of day on a 24-hour clock (`0300 0600 0900`): a schedule, not a phone. */
export function militaryTimes(s: string): boolean {
  const groups = s.split(/\D+/).filter(Boolean);
  return groups.every((g) => g.length === 4 && Number(g.slice(0, 2)) <= 23 && Number(g.slice(2)) <= 59);
}

/** A phone number has 7 to 15 digits (ITU E.164). */
export function phoneDigitsValid(phone: string): boolean {
  const n = digitsOf(phone).length;
  return n >= 7 && n <= 15;
}
