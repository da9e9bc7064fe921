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

/** Letters without their accents (NFD without combining marks, recomposed): "Zürich" → "Zurich", "São" → "Sao"; Hangul is unchanged. */
export function withoutAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}
