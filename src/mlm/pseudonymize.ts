import type { Rng } from '../engine/random.js';
import { BlacklistMatcher, type BlacklistEntry } from '../identifiers/index.js';
import type { MorphAnalyzer } from '../text/index.js';

export type PseudoStyle = 'placeholder' | 'surrogate';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const HANGUL_FIRST = 0xac00;
const HANGUL_COUNT = 11172;

/**
 * A value of the same shape as `original`: digits become random digits, letters random letters of the same
 * case, Hangul syllables random syllables, everything else (separators, spaces) is kept. A date stays
 * date-shaped and a phone number phone-shaped without any list of real values.
 */
export function formatPreservingSurrogate(original: string, rng: Rng): string {
  let out = '';
  for (const ch of original) {
    const code = ch.codePointAt(0)!;
    if (ch >= '0' && ch <= '9') out += String(rng.int(10));
    else if (UPPER.includes(ch)) out += UPPER[rng.int(26)];
    else if (LOWER.includes(ch)) out += LOWER[rng.int(26)];
    else if (code >= HANGUL_FIRST && code < HANGUL_FIRST + HANGUL_COUNT) out += String.fromCodePoint(HANGUL_FIRST + rng.int(HANGUL_COUNT));
    else out += ch;
  }
  return out;
}

/**
 * The mlmA baseline's input: every occurrence of a direct identifier replaced before tokenisation, by its
 * category placeholder (`Alice Smith called` → `[PERSON] called`) or by a format-preserving surrogate,
 * the same surrogate for every occurrence of a term within the document. Overlapping occurrences collapse
 * into the outermost one, which keeps the category of the longest term.
 */
export async function pseudonymize(text: string, matcher: BlacklistMatcher, entries: readonly BlacklistEntry[], options: { analyzer?: MorphAnalyzer; style?: PseudoStyle; rng?: Rng } = {}): Promise<string> {
  const matches = (await matcher.match(text, options.analyzer)).filter((m) => entries[m.entry]!.kind === 'direct').sort((a, b) => a.start - b.start || b.end - a.end);
  const surrogates = new Map<number, string>();
  let out = '';
  let at = 0;
  for (const m of matches) {
    if (m.start < at) continue;
    const entry = entries[m.entry]!;
    let replacement = `[${entry.category}]`;
    if (options.style === 'surrogate') {
      if (!options.rng) throw new Error('surrogate pseudonymisation needs a seeded rng');
      replacement = surrogates.get(m.entry) ?? formatPreservingSurrogate(text.slice(m.start, m.end), options.rng);
      surrogates.set(m.entry, replacement);
    }
    out += text.slice(at, m.start) + replacement;
    at = m.end;
  }
  return out + text.slice(at);
}
