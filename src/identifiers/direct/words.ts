import { normalizeTerm, withoutPossessive } from '../../text/index.js';
import type { PublicLists } from './publicLists.js';

/** A word of a text as the name and place recognisers see it: letters, inner apostrophes and hyphens. */
export interface TextWord {
  start: number;
  end: number;
  /** Case-folded, a possessive 's dropped: the form looked up in the lists. */
  key: string;
  /** Written with an initial capital. */
  capital: boolean;
}

const WORD = /\p{L}[\p{L}\p{M}'’]*(?:-\p{L}[\p{L}\p{M}'’]*)*/gu;

/** The words of a text, with their offsets. */
export function textWords(text: string): TextWord[] {
  const out: TextWord[] = [];
  for (const m of text.matchAll(WORD)) {
    const surface = m[0].replace(/['’]+$/, '');
    const first = surface.charAt(0);
    out.push({ start: m.index, end: m.index + surface.length, key: withoutPossessive(normalizeTerm(surface)), capital: first !== first.toLowerCase() });
  }
  return out;
}

/**
 * Whether case carries information in this text: not when most letters are capitals (much of a clinical
 * record is typed in upper case, where every word looks like a name), nor when hardly a word starts with
 * one (notes typed all in lower case, names included).
 */
export function caseInformative(text: string, words: readonly TextWord[]): boolean {
  let upper = 0;
  let lower = 0;
  for (const ch of text) {
    if (ch === ch.toLowerCase() && ch !== ch.toUpperCase()) lower++;
    else if (ch === ch.toUpperCase() && ch !== ch.toLowerCase()) upper++;
  }
  const capitals = words.reduce((n, w) => n + (w.capital ? 1 : 0), 0);
  return lower >= upper && capitals >= 0.04 * words.length;
}

/** Exactly one space between `a` and `b`: two words of one phrase, not across punctuation or a line. */
export function oneSpace(text: string, a: { end: number }, b: { start: number }): boolean {
  return b.start === a.end + 1 && text.charCodeAt(a.end) === 32;
}

/** Only spaces, or the period of an initial or short abbreviation, between two words: they may be one name ("Edward C. Jones", "St. Agnes"; not "Reed.  The"). */
export function adjacent(text: string, a: TextWord, b: TextWord): boolean {
  const gap = text.slice(a.end, b.start);
  return /^\s*\.?\s*$/.test(gap) && gap.length <= 3 && (!gap.includes('.') || a.end - a.start <= 2);
}

/** The first word of a text, a line or a sentence, where a capital is no evidence of a name. */
export function sentenceStart(text: string, w: TextWord): boolean {
  return /(?:^|[\n.!?:;•])[\s"'“(\-*]*$/u.test(text.slice(Math.max(0, w.start - 8), w.start));
}

/** How a word stands against the public lists. */
export interface WordClass {
  /** In a first- or last-name list. */
  name: boolean;
  /** In a first-name list. */
  first: boolean;
  /** A common English word (SCOWL ≤ 50). */
  common: boolean;
  /** One of the most frequent English words (SCOWL ≤ 35: will, said, brown). */
  everyday: boolean;
  /** In no English word list: a name, a foreign word, a typo or an abbreviation. */
  unknown: boolean;
}

export function classify(word: TextWord, lists: PublicLists): WordClass {
  const key = word.key;
  const first = lists.firstNames.has(key);
  const name = first || lists.lastNames.has(key) || (key.includes('-') && key.split('-').every((p) => lists.firstNames.has(p) || lists.lastNames.has(p)));
  // A compound of common words is one (steady-state, second-degree), however its parts are listed as names.
  const common = commonWord(key, lists);
  return { name, first, common, everyday: lists.everydayWords.has(key), unknown: !dictionaryWord(key, lists) };
}

/** A text's words as the recognisers read them: each word, how it stands against the lists, and whether case means something there. */
export interface WordReading {
  readonly words: readonly TextWord[];
  readonly classes: readonly WordClass[];
  readonly cased: boolean;
  /** The index of the word that starts at an offset: where a detection's first word is. */
  readonly startingAt: ReadonlyMap<number, number>;
  /** The index of the word that ends at an offset: where a detection's last word is. */
  readonly endingAt: ReadonlyMap<number, number>;
}

let lastReading: { text: string; lists: PublicLists; reading: WordReading } | undefined;
/**
 * The words of a text with their classes, read once for the several readers of one document: a blacklist
 * build's case evidence, then the place and name recognisers, each on the same text in turn. The last
 * text's reading is kept, so the corpus scan splits and looks up each document's words once.
 */
export function readWords(text: string, lists: PublicLists): WordReading {
  if (lastReading !== undefined && lastReading.text === text && lastReading.lists === lists) return lastReading.reading;
  const words = textWords(text);
  const reading: WordReading = {
    words,
    classes: words.map((w) => classify(w, lists)),
    cased: caseInformative(text, words),
    startingAt: new Map(words.map((w, i) => [w.start, i])),
    endingAt: new Map(words.map((w, i) => [w.end, i])),
  };
  lastReading = { text, lists, reading };
  return reading;
}

/**
 * A common English word (SCOWL levels up to 50, clinical abbreviations), or a compound of them and numbers
 * joined by hyphens ("six-month", "state-owned"; "re-intubated" is not: "re" is no word), which no list
 * holds whole but no one names a person or place with.
 */
export function commonWord(key: string, lists: PublicLists): boolean {
  return lists.commonWords.has(key) || (key.includes('-') && key.split('-').every((part) => lists.commonWords.has(part) || /^\d+$/.test(part)));
}

/** A word of an English dictionary: a {@link commonWord} or one of SCOWL's rarer levels (55-70). */
export function dictionaryWord(key: string, lists: PublicLists): boolean {
  return lists.rareWords.has(key) || commonWord(key, lists);
}

const sortedCommon = new WeakMap<PublicLists, string[]>();
/**
 * Whether a word is the start of a longer common English word: how notes shorten words ("Misc", "Integ",
 * "Soc"), which a list of names or places never holds but the shape of a proper noun matches.
 */
export function shortensCommonWord(key: string, lists: PublicLists): boolean {
  let sorted = sortedCommon.get(lists);
  if (sorted === undefined) sortedCommon.set(lists, (sorted = [...lists.commonWords].sort()));
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < sorted.length && sorted[k]!.startsWith(key); k++) if (sorted[k]!.length > key.length + 1) return true;
  return false;
}

/** Written as a name: a capital, then lower case, each part of a hyphenated word so (Fritz-Armstrong; not ICU, GI-abd, O-Neuro). */
export function properShape(surface: string): boolean {
  return withoutPossessive(surface).split('-').every((part) => /^\p{Lu}\p{Ll}[\p{L}\p{M}]+$/u.test(part));
}

/** Written in capitals, two letters or more, hyphenated parts too (ICU, HEAD, PSC, GI-ABD, SAINT-DIÉ): shorthand or emphasis, not a name's shape. */
export function inCapitals(surface: string): boolean {
  return /^\p{Lu}[\p{Lu}.]+(?:-\p{Lu}[\p{Lu}.]*)*$/u.test(surface);
}

/**
 * A proper noun no list knows: written as a name, four letters or more, in no English, name or clinical
 * list, shortening no common word (Misc, Soc: how notes shorten), with no digit right after it (Levo 5).
 */
export function unlistedProperNoun(text: string, w: TextWord, lists: PublicLists): boolean {
  const c = classify(w, lists);
  return c.unknown && !c.name && w.key.length >= 4 && properShape(text.slice(w.start, w.end)) && !/\d/.test(text.charAt(w.end)) && !shortensCommonWord(w.key, lists);
}
