import { BlacklistMatcher, type BlacklistEntry } from '../identifiers/index.js';
import type { MorphAnalyzer } from '../text/index.js';

/**
 * The mlmA baseline's input: every occurrence of a direct identifier replaced by its category placeholder
 * (`Alice Smith called` → `[PERSON] called`) before tokenisation. Overlapping occurrences collapse into the
 * outermost one, which keeps the category of the longest term.
 */
export async function pseudonymize(text: string, matcher: BlacklistMatcher, entries: readonly BlacklistEntry[], analyzer?: MorphAnalyzer): Promise<string> {
  const matches = (await matcher.match(text, analyzer)).filter((m) => entries[m.entry]!.kind === 'direct').sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const m of matches) {
    if (m.start < at) continue;
    out += `${text.slice(at, m.start)}[${entries[m.entry]!.category}]`;
    at = m.end;
  }
  return out + text.slice(at);
}
