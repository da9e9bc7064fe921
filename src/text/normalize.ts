/**
 * The one normalisation every term goes through, in blacklists and in texts alike: NFKC (full-width
 * digits, ligatures and compatibility jamo become their plain forms) then case folding. Scripts without
 * case (Hangul, Han) are unchanged by the folding.
 *
 * @example normalizeTerm('Ｊｏｈｎ') === 'john'
 */
export function normalizeTerm(text: string): string {
  // Printable ASCII is already NFKC: skip the (comparatively slow) normalisation for the common case.
  return (ASCII.test(text) ? text : text.normalize('NFKC')).toLowerCase();
}

const ASCII = /^[\x20-\x7e]*$/;

/**
 * A word without an English possessive at its end ("London's", "Quigley’s" → London, Quigley), the one
 * definition the matcher, blacklist terms and the recognisers share: one person's name in both forms is
 * one term. A word of one letter keeps it ("o's"). Checked by character first: this runs for
 * every word a corpus scan or the matcher reads.
 */
export function withoutPossessive(word: string): string {
  const n = word.length;
  if (n < 4 || (word.charCodeAt(n - 1) | 0x20) !== 0x73) return word;
  const mark = word.charCodeAt(n - 2);
  return mark === 0x27 || mark === 0x2019 ? word.slice(0, -2) : word;
}

/** Letters without their accents (NFD without combining marks, recomposed): "Zürich" → "Zurich", "São" → "Sao"; Hangul is unchanged. */
export function withoutAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}
