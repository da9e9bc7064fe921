import { BlacklistMatcher } from '../blacklist/matcher.js';
import { contentWords } from '../../text/index.js';
import { publicLists, type PublicLists } from './publicLists.js';
import type { Detection, Recognizer } from './recognizer.js';
import { adjacent, caseInformative, textWords, type TextWord } from './words.js';

/** Words that end the name of a care facility ("Holy Cross Hospital", "Harbor Hosp", "Univ of MD Med Ctr"). */
const FACILITY = new Set(['hospital', 'hosp', 'hospitals', 'clinic', 'clinics', 'rehab', 'rehabilitation', 'infirmary', 'campus', 'center', 'ctr', 'centre', 'manor', 'memorial', 'healthcare', 'hospice', 'university', 'univ', 'institute', 'college', 'sanitarium', 'sanatorium']);
/** Facility words that are part of a name when another facility word follows ("Memorial Hospital", "General Hospital"). */
const NAMING_FACILITY = new Set(['memorial', 'general', 'university', 'univ', 'medical', 'med', 'community', 'county', 'childrens', "children's", 'st', 'saint', 'mercy']);
/** Words before a facility word that are no name ("the hospital", "outside hospital", "rehab center"). */
const GENERIC = new Set([
  'the', 'a', 'an', 'to', 'from', 'at', 'in', 'into', 'and', 'or', 'with', 'for', 'by', 'on', 'per', 'was', 'is', 'his', 'her', 'their', 'this', 'that', 'other', 'another', 'outside', 'local',
  'same', 'previous', 'prior', 'osh', 'home', 'nursing', 'rehab', 'acute', 'chronic', 'care', 'health', 'medical', 'med', 'dialysis', 'teaching', 'awaiting', 'await', 'begin', 'leave', 'cont', "con't",
  'veterans', 'pt', 'patient', 'transferred', 'transfered', 'admitted', 'discharged', 'sent', 'went', 'back', 'our', 'your', 'my', 'city', 'state', 'private', 'psych', 'psychiatric', 'long', 'term', 'skilled', 'day',
]);
/** Clinical abbreviations that end like a facility's (GH, BWH, UMMC) but are findings. */
const CLINICAL_H = new Set(['bph', 'lvh', 'rvh', 'sah', 'ich', 'ivh', 'pph', 'pah', 'nph', 'hh', 'dh', 'sh', 'fh', 'ph', 'mh', 'ch', 'oh', 'ah', 'uh', 'eh', 'pmh', 'hpi', 'adh', 'tsh', 'ldh', 'cmc', 'emc', 'vac']);
/** Words of a move between wards or hospitals, one of which must come shortly before a ward. */
const MOVES = /\b(?:transfer(?:r?ed)?|admit(?:ted)?|sent|moved?|back|go|going|went|arrived|came|returned?|discharged|accepted)\b/;
/**
 * A number, up to three capitalised words and a street type written with a capital ("19 Clover St."); in
 * capitals only the types no clinical abbreviation shares ("2 WEEKS WITH DR", "1 HEAD CT" are not streets).
 */
const STREET = /\b\d{1,5}\s+(?:\p{Lu}[\p{L}'.-]*\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Ln|Lane|Dr|Drive|Way|Ct|Court|Pl|Place|Sq|Square|Ter|Terrace|Pkwy|Parkway|Hwy|Highway|Cir|Circle|STREET|AVE|AVENUE|ROAD|BLVD|BOULEVARD|LANE|DRIVE|COURT|SQUARE|TERRACE|PARKWAY|HIGHWAY)\b\.?/gu;

const matchers = new WeakMap<PublicLists, BlacklistMatcher>();
/** The trie of a list's ~60,000 places, built once per process: every default build makes a recogniser. */
function placeMatcher(lists: PublicLists): BlacklistMatcher {
  let matcher = matchers.get(lists);
  if (matcher === undefined) matchers.set(lists, (matcher = new BlacklistMatcher(lists.places.map((term) => ({ term })))));
  return matcher;
}

/**
 * Places, needing no list from the user:
 * - cities, US states and countries from the bundled GeoNames and ISO lists (`list:places`), ignoring case;
 *   a place name that is also a common word (Harbor, Union, Mobile) only capitalised before a US state
 *   code, kept in the term (`context:place`);
 * - care facilities: the name words before "Hospital", "Hosp", "Rehab", "Medical Center", "Memorial"...
 *   (`rule:facility`), and a hospital's initials after "to", "from", "at" (GH, BWH, UMMC:
 *   `context:facility`);
 * - street addresses: a number, up to three words, and a street type (`rule:street-address`).
 * The name words only are detected, not "Hospital": the term is then protected wherever it recurs,
 * "Holy Cross" alone included.
 */
export class PlaceRecognizer implements Recognizer {
  readonly name = 'places';
  private readonly matcher: BlacklistMatcher;

  constructor(private readonly lists: PublicLists = publicLists()) {
    this.matcher = placeMatcher(lists);
  }

  async find(text: string): Promise<Detection[]> {
    const out: Detection[] = [];
    const words = textWords(text);
    const cased = caseInformative(text, words);
    const byStart = new Map(words.map((w, i) => [w.start, i]));
    for (const m of this.matcher.matchWords(await contentWords(text))) {
      const i = byStart.get(m.start);
      if (i === undefined) continue;
      const span: TextWord[] = [];
      for (let k = i; k < words.length && words[k]!.end <= m.end; k++) span.push(words[k]!);
      if (span.length === 0 || (cased && !span.every((w) => w.capital))) continue;
      const ambiguous = span.every((w) => this.lists.commonWords.has(w.key) || this.lists.rareWords.has(w.key) || w.key.length < 4);
      const state = /^,?\s*([A-Z]{2})(?![\p{L}\d])/u.exec(text.slice(m.end, m.end + 5));
      if (!ambiguous) out.push({ start: m.start, end: m.end, category: 'LOCATION', source: 'list:places' });
      // A place that is also a word ("Middle River", "Union") only before a state code, which stays in the
      // term: "middle river md", never every "union".
      else if (state !== null && this.lists.stateCodes.has(state[1]!) && span.every((w) => w.capital)) {
        out.push({ start: m.start, end: m.end + state[0].length, category: 'LOCATION', source: 'context:place' });
      }
    }
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (FACILITY.has(w.key) && (w.capital || !cased)) this.facility(text, words, i, cased, out);
      else if (i > 0 && /^[A-Z]{2,5}$/.test(text.slice(w.start, w.end)) && /(?:h|mc|va)$/.test(w.key) && !CLINICAL_H.has(w.key) && !this.lists.commonWords.has(w.key) && !this.lists.rareWords.has(w.key) && ['to', 'from', 'at', 'the'].includes(words[i - 1]!.key)) {
        out.push({ start: w.start, end: w.end, category: 'LOCATION', source: 'context:facility' });
      }
    }
    for (let i = 1; i + 1 < words.length; i++) {
      const w = words[i]!;
      // A ward or unit after a move: "transferred to Quartermain 3" (not "changed to cpap 5").
      if ((words[i - 1]!.key === 'to' || words[i - 1]!.key === 'from') && i > 1 && MOVES.test(words.slice(Math.max(0, i - 4), i - 1).map((x) => x.key).join(' ')) && w.key.length >= 4 && !this.lists.commonWords.has(w.key) && !this.lists.rareWords.has(w.key) && /^\s?\d{1,2}(?![\d.:/%]|\s?(?:mg|mcg|cc|ml|l\b|units?|u\b))/i.test(text.slice(w.end, w.end + 8))) {
        out.push({ start: w.start, end: w.end, category: 'LOCATION', source: 'context:ward' });
      }
      // A saint's name: "St. Agnes", "St Mary's".
      if ((w.key === 'st' || w.key === 'saint') && adjacent(text, w, words[i + 1]!) && this.lists.firstNames.has(words[i + 1]!.key) && (!cased || words[i + 1]!.capital)) {
        out.push({ start: w.start, end: words[i + 1]!.end, category: 'LOCATION', source: 'rule:saint' });
      }
    }
    for (const m of text.matchAll(STREET)) out.push({ start: m.index, end: m.index + m[0].replace(/\.$/, '').length, category: 'LOCATION', source: 'rule:street-address' });
    return out;
  }

  /** The name before the facility word at `i`: up to four adjacent words, not generic, capitalised where case means something. */
  private facility(text: string, words: readonly TextWord[], i: number, cased: boolean, out: Detection[]): void {
    let j = i;
    while (j > 0 && i - j < 4 && adjacent(text, words[j - 1]!, words[j]!)) {
      const p = words[j - 1]!;
      const inner = p.key === 'of' && j - 1 > 0 && j < i;
      if (!inner && (GENERIC.has(p.key) && !NAMING_FACILITY.has(p.key))) break;
      if (!inner && cased && !p.capital) break;
      if (!inner && FACILITY.has(p.key) && !NAMING_FACILITY.has(p.key)) break;
      j--;
    }
    while (j < i && (words[j]!.key === 'of' || GENERIC.has(words[j]!.key) || words[j]!.key.length < 2)) j++;
    // A one-word name that is a common word ("Cardiac Rehab") keeps its facility word in the term; two
    // words ("Holy Cross") are a name wherever they recur.
    const common = i - j === 1 && (this.lists.commonWords.has(words[j]!.key) || this.lists.rareWords.has(words[j]!.key) || words[j]!.key.length < 3);
    if (j < i) out.push({ start: words[j]!.start, end: words[common ? i : i - 1]!.end, category: 'LOCATION', source: 'rule:facility' });
    // "Memorial Hospital": a naming facility word before another facility word is the name.
    else if (NAMING_FACILITY.has(words[i]!.key) && i + 1 < words.length && FACILITY.has(words[i + 1]!.key) && adjacent(text, words[i]!, words[i + 1]!)) {
      out.push({ start: words[i]!.start, end: words[i]!.end, category: 'LOCATION', source: 'rule:facility' });
    }
  }
}
