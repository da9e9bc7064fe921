import { UsageError } from '../../errors.js';
import type { MorphAnalyzer } from '../../text/index.js';
import { KoreanFacilityRecognizer } from './koreanFacilities.js';
import { KoreanNameRecognizer } from './koreanNames.js';
import { KoreanOrganizationRecognizer } from './koreanOrganizations.js';
import { KoreanPlaceRecognizer } from './koreanPlaces.js';
import { NameRecognizer } from './names.js';
import { PATTERNS, PATTERN_NAMES, PatternRecognizer } from './patterns.js';
import { PlaceRecognizer } from './places.js';
import { publicLists } from './publicLists.js';
import type { Detection, Recognizer } from './recognizer.js';

export type { Detection, Recognizer } from './recognizer.js';
export { GRAPH_SOURCE, MENTION_SOURCE, MODEL_SOURCE, SURNAME_SOURCE, closeRecognizers, mentionOnly, protectedSpans } from './recognizer.js';
export { PATTERNS, PATTERN_NAMES, PatternRecognizer } from './patterns.js';
export type { PatternSpec } from './patterns.js';
export { GazetteerRecognizer, readGazetteer, categoryForList } from './gazetteer.js';
export { CAPITAL_ONLY_SOURCES, LISTED_SURNAME, NameRecognizer, UNKNOWN_PROPER_NOUN, caseEvidence } from './names.js';
export type { CaseEvidence } from './names.js';
export { KoreanNameRecognizer, koreanNameShape } from './koreanNames.js';
export { KoreanPlaceRecognizer } from './koreanPlaces.js';
export { KoreanFacilityRecognizer } from './koreanFacilities.js';
export { COURT_PLACEHOLDER, KoreanOrganizationRecognizer } from './koreanOrganizations.js';
export { PlaceRecognizer } from './places.js';
export { publicLists, isMisspelling } from './publicLists.js';
export { commonWord, dictionaryWord } from './words.js';
export type { PublicLists } from './publicLists.js';
export { isClinicalWord } from './clinicalWords.js';
export type { GazetteerOptions } from './gazetteer.js';
export * from './validators.js';

/** The recognisers built on the bundled public lists, selectable by name beside the patterns, and the kind each finds. */
const LIST_RECOGNIZERS = { names: 'PERSON', places: 'LOCATION', 'korean-names': 'PERSON', 'korean-places': 'LOCATION', 'korean-facilities': 'LOCATION', 'korean-organizations': 'ORGANIZATION' } as const;
/** Every name `--recognizers` accepts. */
export const RECOGNIZER_NAMES: readonly string[] = [...PATTERN_NAMES, ...Object.keys(LIST_RECOGNIZERS)];

/** Each recogniser's kind of identifier, by name. */
const CATEGORY_OF: ReadonlyMap<string, string> = new Map([...PATTERNS.map((p) => [p.name, p.category] as const), ...Object.entries(LIST_RECOGNIZERS)]);

/**
 * The kinds of identifier `--recognizers` can name as a whole (`DATE`, `-LOCATION`), in capitals: each
 * recogniser's own kind (`date` is the ISO date rule alone). The proper nouns of no class that
 * `korean-places` also finds (PROPER_NOUN) go with it.
 */
export const RECOGNIZER_CATEGORIES: readonly string[] = [...new Set(CATEGORY_OF.values())];

/**
 * The recognisers a `--recognizers` value selects, in their running order. Items are read left to right: a
 * recogniser's name, a kind of identifier (every recogniser of it), `all` or `none` (which clears what came
 * before); `-` before a name or a kind removes it. A value that starts with a removal starts from all, so
 * that a standard which leaves a kind unprotected is written as what it leaves out (`-DATE`) rather than as
 * the thirty names it keeps.
 */
function selected(selection: string): string[] {
  const items = selection.split(',').map((s) => s.trim());
  if (items.some((item) => item === '' || item === '-')) throw new UsageError(`--recognizers "${selection}" has an empty item; write none for no recogniser, or names and kinds separated by commas`);
  const chosen = new Set<string>(items[0]!.startsWith('-') ? RECOGNIZER_NAMES : []);
  const unknown: string[] = [];
  for (const item of items) {
    const remove = item.startsWith('-');
    const key = remove ? item.slice(1) : item;
    if (key === 'none' && !remove) {
      chosen.clear();
      continue;
    }
    const names = key === 'all' ? RECOGNIZER_NAMES : RECOGNIZER_NAMES.filter((n) => n === key || CATEGORY_OF.get(n) === key);
    if (names.length === 0) unknown.push(item);
    for (const n of names) {
      if (remove) chosen.delete(n);
      else chosen.add(n);
    }
  }
  if (unknown.length > 0) throw new UsageError(`unknown recogniser(s) ${unknown.join(', ')}; available: ${RECOGNIZER_NAMES.join(', ')}, the kinds ${RECOGNIZER_CATEGORIES.join(', ')} (or all, none; -NAME or -KIND leaves one out)`);
  return RECOGNIZER_NAMES.filter((n) => chosen.has(n));
}

/** Pattern recognisers by `--recognizers` value (list recognisers ignored). */
export function patternRecognizers(selection = 'all'): Recognizer[] {
  return patternsNamed(selected(selection));
}

function patternsNamed(names: readonly string[]): Recognizer[] {
  return PATTERNS.filter((p) => names.includes(p.name)).map((p) => new PatternRecognizer(p));
}

/**
 * The default recognisers, needing no list from the user: the validated patterns, then person names and
 * places from the bundled public lists with their context rules, and Korean names, places, facilities and organisations
 * (with the names and places of mecab-ko-dic when `analyzer` is mecab). `selection` as `--recognizers`.
 */
export function defaultRecognizers(selection = 'all', analyzer?: MorphAnalyzer): Recognizer[] {
  const names = selected(selection);
  const out = patternsNamed(names);
  // Places first: of two identical spans the earlier recogniser names the category (Baltimore is a place).
  if (names.includes('places')) out.push(new PlaceRecognizer(publicLists()));
  if (names.includes('names')) out.push(new NameRecognizer(publicLists()));
  if (names.includes('korean-names')) out.push(new KoreanNameRecognizer(analyzer));
  if (names.includes('korean-places')) out.push(new KoreanPlaceRecognizer(analyzer));
  if (names.includes('korean-facilities')) out.push(new KoreanFacilityRecognizer(analyzer));
  if (names.includes('korean-organizations')) out.push(new KoreanOrganizationRecognizer(analyzer));
  return out;
}

/**
 * A name written again in Chinese characters right after it, in brackets or after a middle dot: 시진핑(習近平),
 * 베이징(北京), 권영길·權永吉. Two characters or more: one is most often a sex or a word (홍길동(男, 45)).
 */
const HAN_GLOSS = /^[(·]\s*(\p{Script=Han}{2,8})(?=\s*[),·])/u;

/** The glosses of the people and places found: the same identifier, in the script a reader may know it by. */
function glosses(text: string, found: readonly Detection[]): Detection[] {
  const out: Detection[] = [];
  for (const d of found) {
    if (d.category !== 'PERSON' && d.category !== 'LOCATION') continue;
    const m = HAN_GLOSS.exec(text.slice(d.end, d.end + 16));
    if (m !== null) out.push({ start: d.end + m[0].length - m[1]!.length, end: d.end + m[0].length, category: d.category, source: 'context:gloss' });
  }
  return out;
}

/**
 * Runs every recogniser, adds the glosses in Chinese characters of the people and places found, and keeps
 * each detection no other one contains: one inside a longer one is dropped, of two identical spans the
 * earlier recogniser wins (validated patterns come first; the other's source is kept in
 * {@link Detection.alsoFoundBy}, and, where both found the same kind of identifier, its mention and
 * family name), and two that overlap only in part are both
 * kept, each a term of its own ("Hudson River" and "River Road").
 */
export async function detectDirect(text: string, recognizers: readonly Recognizer[]): Promise<Detection[]> {
  const all: Detection[] = [];
  for (const r of recognizers) all.push(...(await r.find(text)));
  all.push(...glosses(text, all));
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Detection[] = [];
  let reach = -1;
  for (const d of all) {
    const last = kept.at(-1);
    // The same span found twice is one detection; a blacklist build weighs each source that found it.
    if (last !== undefined && last.start === d.start && last.end === d.end) {
      if (d.source !== last.source && !last.alsoFoundBy?.includes(d.source)) (last.alsoFoundBy ??= []).push(d.source);
      // Of the same kind of identifier, both mentions (a title before, a kind after) and the family name,
      // whichever recogniser found them; a person's surname is no part of a place found at the same span.
      if (d.category === last.category) {
        if (d.mention !== undefined) last.mention = last.mention === undefined ? d.mention : { start: Math.min(last.mention.start, d.mention.start), end: Math.max(last.mention.end, d.mention.end) };
        last.surname ??= d.surname;
      }
    }
    if (d.end <= reach) continue;
    kept.push(d);
    reach = d.end;
  }
  return kept;
}
