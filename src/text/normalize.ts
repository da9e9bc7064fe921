/**
 * The one normalisation every term goes through, in blacklists and in texts alike: NFKC (full-width
 * digits, ligatures and compatibility jamo become their plain forms) then case folding. Scripts without
 * case (Hangul, Han) are unchanged by the folding.
 *
 * @example normalizeTerm('Ｊｏｈｎ') === 'john'
 */
export function normalizeTerm(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}
