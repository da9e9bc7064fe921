/**
 * Offsets in code points, as Hugging Face's `return_offsets_mapping` and Python's `str` count them, from
 * ppmlm's UTF-16 offsets into the same text. They differ after any astral character (emoji, CJK
 * extension B): 😀 is two UTF-16 units and one code point.
 *
 * @example codePointOffsets('😀 ab', [[0, 2], [3, 5]]) // [[0, 1], [2, 4]]
 */
export function codePointOffsets(text: string, offsets: readonly (readonly [number, number])[]): [number, number][] {
  // index[u] = code points before UTF-16 unit u (for u = 0..length).
  const index = new Uint32Array(text.length + 1);
  let cps = 0;
  for (let u = 0; u < text.length; u++) {
    const code = text.charCodeAt(u);
    const secondHalf = code >= 0xdc00 && code <= 0xdfff && u > 0 && isHighSurrogate(text.charCodeAt(u - 1));
    index[u] = secondHalf ? cps - 1 : cps;
    if (!secondHalf) cps++;
  }
  index[text.length] = cps;
  return offsets.map(([s, e]) => [index[s]!, index[e]!]);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
