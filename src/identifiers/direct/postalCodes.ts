/**
 * The shapes of postal codes, as regular-expression sources shared by the rules that read them: a code
 * after its name (`rule:postal-code`) and the lines of a postal address (`rule:postal-address`).
 */

/** A US ZIP code, ZIP+4 too (21201, 21201-1234). */
export const US_ZIP_CODE = String.raw`\d{5}(?:-\d{4})?`;
/** The Netherlands' postal code, four digits and two capitals (7412 SL). */
export const DUTCH_POSTCODE = String.raw`\d{4} ?[A-Z]{2}`;
/** Codes no quantity is written as: five digits and three (Brazil), four and three (Portugal). */
export const HYPHENATED_POSTAL_CODE = String.raw`\d{5}-\d{3}|\d{4}-\d{3}`;
/**
 * Codes that vitals, doses and scores also make ("Pulse 88, 120 60", "Lasix 40, 20-120"): three and four
 * (Japan), two and three (Poland), three and two (Sweden, Czechia, Greece).
 */
export const SHORT_POSTAL_CODE = String.raw`\d{3}-\d{4}|\d{2}-\d{3}|\d{3} \d{2}`;
/** The United Kingdom's postcode (SW1A 1AA, EH2 2AN), in capitals. */
export const UK_POSTCODE = String.raw`[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}`;
/** Canada's postal code (K1A 0B1, M5H2M9), in capitals. */
export const CANADIAN_POSTCODE = String.raw`[A-Z]\d[A-Z] ?\d[A-Z]\d`;
