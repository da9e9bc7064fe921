import { describe, expect, it } from 'vitest';
import { ibanValid, ipv4Valid, ipv6Valid, isCalendarDate, luhnValid, militaryTimes, rrnCheckDigit, rrnValid, ssnValid } from '../../src/identifiers/index.js';

describe('validators', () => {
  it('accepts Luhn-valid card numbers and rejects a changed digit', () => {
    expect(luhnValid('4111 1111 1111 1111')).toBe(true);
    expect(luhnValid('5500-0000-0000-0004')).toBe(true);
    expect(luhnValid('4111 1111 1111 1112')).toBe(false);
    expect(luhnValid('1234')).toBe(false);
  });

  it('checks IBAN mod 97', () => {
    expect(ibanValid('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82 WEST 1234 5698 7654 33')).toBe(false);
    expect(ibanValid('XX00')).toBe(false);
  });

  it('reads IPv6 groups and one :: at most, and tells a schedule on a 24-hour clock from a phone', () => {
    expect(ipv6Valid('2001:db8:85a3:0:0:8a2e:370:7334')).toBe(true);
    expect(ipv6Valid('fe80::1ff:fe23:4567:890a')).toBe(true);
    expect(ipv6Valid('2001:db8:85a3:0:0:8a2e:370')).toBe(false);
    expect(ipv6Valid('1::2::3')).toBe(false);
    expect(ipv6Valid('bad::face:cafe')).toBe(false);
    expect(ipv6Valid('12:30:45')).toBe(false);
    expect(militaryTimes('0300 0600 0900')).toBe(true);
    expect(militaryTimes('0430 150')).toBe(false);
    expect(militaryTimes('0688 872')).toBe(false);
  });

  it('applies the SSN area, group and serial rules', () => {
    expect(ssnValid('123-45-6789')).toBe(true);
    expect(ssnValid('000-45-6789')).toBe(false);
    expect(ssnValid('666-45-6789')).toBe(false);
    expect(ssnValid('912-45-6789')).toBe(false);
    expect(ssnValid('123-00-6789')).toBe(false);
    expect(ssnValid('123-45-0000')).toBe(false);
  });

  it('validates Korean resident registration numbers: date, gender digit and check digit', () => {
    const first12 = '900101123456';
    const valid = `900101-${first12.slice(6)}${rrnCheckDigit(first12)}`;
    expect(rrnValid(valid)).toBe(true);
    const wrongCheck = `${valid.slice(0, -1)}${(Number(valid.at(-1)) + 1) % 10}`;
    expect(rrnValid(wrongCheck)).toBe(false);
    expect(rrnValid('901301-1234567')).toBe(false);
    expect(rrnValid('900101-9234567')).toBe(false);
  });

  it('knows calendar dates and IPv4 octets', () => {
    expect(isCalendarDate(2020, 2, 29)).toBe(true);
    expect(isCalendarDate(2019, 2, 29)).toBe(false);
    expect(isCalendarDate(2019, 13, 1)).toBe(false);
    expect(ipv4Valid('192.168.0.1')).toBe(true);
    expect(ipv4Valid('256.1.1.1')).toBe(false);
    expect(ipv4Valid('01.2.3.4')).toBe(false);
  });
});
