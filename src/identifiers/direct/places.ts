import { BlacklistMatcher } from '../blacklist/matcher.js';
import { CALENDAR_WORDS } from './clinicalWords.js';
import { contentWords, normalizeTerm } from '../../text/index.js';
import { CANADIAN_POSTCODE, HYPHENATED_POSTAL_CODE, SHORT_POSTAL_CODE, UK_POSTCODE, US_ZIP_CODE } from './postalCodes.js';
import { publicLists, type PublicLists } from './publicLists.js';
import type { Detection, Recognizer } from './recognizer.js';
import { adjacent, classify, commonWord, dictionaryWord, inCapitals, oneSpace, properShape, readWords, sentenceStart, unlistedProperNoun, type TextWord } from './words.js';

/** Words that end the name of a care facility ("Holy Cross Hospital", "Harbor Hosp", "Univ of MD Med Ctr"). */
const FACILITY = new Set(['hospital', 'hosp', 'hospitals', 'clinic', 'clinics', 'rehab', 'rehabilitation', 'infirmary', 'campus', 'center', 'ctr', 'centre', 'manor', 'memorial', 'healthcare', 'hospice', 'university', 'univ', 'institute', 'college', 'sanitarium', 'sanatorium']);
/** Facility words that are part of a name when another facility word follows ("Memorial Hospital", "General Hospital"). */
const NAMING_FACILITY = new Set(['memorial', 'general', 'university', 'univ', 'medical', 'med', 'community', 'county', 'childrens', "children's", 'st', 'saint', 'mercy']);
/** Every word of a facility's kind, however written: "Medical Center", "Med Ctr", "General Hospital". */
const FACILITY_WORDS = new Set([...FACILITY, ...NAMING_FACILITY]);
/** Words before a facility word that are no name ("the hospital", "outside hospital", "rehab center"). */
const GENERIC = new Set([
  'the', 'a', 'an', 'to', 'from', 'at', 'in', 'into', 'and', 'or', 'with', 'for', 'by', 'on', 'per', 'was', 'is', 'his', 'her', 'their', 'this', 'that', 'other', 'another', 'outside', 'local',
  'same', 'previous', 'prior', 'osh', 'home', 'nursing', 'rehab', 'acute', 'chronic', 'care', 'health', 'medical', 'med', 'dialysis', 'teaching', 'awaiting', 'await', 'begin', 'leave', 'cont', "con't",
  'veterans', 'pt', 'patient', 'transferred', 'transfered', 'admitted', 'discharged', 'sent', 'went', 'back', 'our', 'your', 'my', 'city', 'state', 'private', 'psych', 'psychiatric', 'long', 'term', 'skilled', 'day',
]);
/** Clinical abbreviations that end like a facility's (GH, BWH, UMMC) but are findings. */
const CLINICAL_H = new Set(['bph', 'lvh', 'rvh', 'sah', 'ich', 'ivh', 'pph', 'pah', 'nph', 'hh', 'dh', 'sh', 'fh', 'ph', 'mh', 'ch', 'oh', 'ah', 'uh', 'eh', 'pmh', 'hpi', 'adh', 'tsh', 'ldh', 'cmc', 'emc', 'vac']);
/**
 * Countries and states written short, which the place list cannot hold (its words are two letters, or
 * single letters with periods): with their periods, U.S., U.K., U.S.A., D.C.; in capitals where case
 * means something, UK, USA, UAE, NZ, NSW, NYC. US, which is also a word and an ultrasound, is read by
 * {@link PlaceRecognizer.us}.
 */
const COUNTRY_SHORT = /(?<![\p{L}\p{N}.])(?:U\. ?S\.(?: ?A\.)?|U\. ?K\.|D\. ?C\.)|(?<![\p{L}\p{N}])(?:UK|USA|UAE|NZ|NSW|NYC)(?![\p{L}\p{N}])/gu;
/** Words after "US" that make it the pronoun written in capitals: "join US for", "let US know". */
const PRONOUN_AFTER_US = new Set([
  ...['a', 'an', 'the', 'and', 'or', 'but', 'to', 'for', 'in', 'on', 'at', 'of', 'by', 'with', 'from', 'as', 'so', 'if', 'up', 'out', 'off', 'all', 'about', 'back', 'again', 'too', 'now', 'here', 'there', 'know', 'what', 'how', 'why', 'when', 'please', 'be', 'get', 'go', 'that', 'this', 'some', 'more', 'our', 'it', 'i', 'you', 'we', 'they', 'he', 'she'],
  ...['after', 'before', 'into', 'over', 'under', 'than', 'since', 'until', 'while', 'where', 'who', 'which', 'not', 'no', 'will', 'can', 'would', 'should', 'could', 'must', 'may', 'might', 'do', 'does', 'did', 'have', 'has', 'had', 'are', 'were', 'been', 'its', 'their', 'his', 'her', 'my', 'your', 'me', 'him', 'them', 'us'],
]);
/** What an ultrasound does or is, after "US": "the US showed", "US guided", "US was negative", "US done today". */
const ULTRASOUND_ACTS = new Set([
  ...['is', 'was', 'guided', 'guidance', 'done', 'show', 'showed', 'shows', 'revealed', 'result', 'results', 'today', 'tomorrow', 'tonight', 'yesterday', 'doppler', 'scan', 'exam', 'study'],
  ...['report', 'read', 'pending', 'negative', 'neg', 'positive', 'pos', 'ordered', 'needed', 'scheduled', 'planned', 'obtained', 'performed', 'completed', 'findings', 'impression'],
]);
/** What an ultrasound looks at, right after "US": "US abd", "RUQ US liver" (not after "the": "the US leg of a tour"). */
const ULTRASOUND_SITES = new Set(['abd', 'abdomen', 'abdominal', 'renal', 'kidney', 'kidneys', 'liver', 'pelvis', 'pelvic', 'neck', 'chest', 'head', 'leg', 'legs', 'arm', 'arms']);
/** The form of a state before a country's name, part of it: "Kingdom of the Netherlands", "People's Republic of China". */
const STATE_FORM_BEFORE = /(?:^|[^\p{L}])((?:(?:federal|democratic|people['’]s|islamic|socialist|arab|united|federated|plurinational|independent)\s+)*(?:kingdom|republic|commonwealth|principality|sultanate|emirate|state|federation|grand\s+duchy)\s+of\s+(?:the\s+)?)$/iu;
/** Ireland's and Britain's counties name their kind first, written with a capital: "County Cavan", "Co. Antrim". */
const COUNTY_BEFORE = /(?:^|[^\p{L}])((?:County|Co\.?)\s)$/u;
/** Days and months, which name no place after a preposition ("in August"; August is a town too). */
const CALENDAR = new Set(CALENDAR_WORDS);
/** Words of direction or extent that start a place's name: "Eastern Saskatchewan", "Greater London", "Upper Austria". */
const COMPASS = new Set(['north', 'south', 'east', 'west', 'northern', 'southern', 'eastern', 'western', 'central', 'northeast', 'northwest', 'southeast', 'southwest', 'northeastern', 'northwestern', 'southeastern', 'southwestern', 'north-east', 'north-west', 'south-east', 'south-west', 'upper', 'lower', 'greater', 'inner', 'outer']);
/** Compass words that belong to a place in lower case too ("eastern Ukraine"); the others are adjectives then ("lower", "central"). */
const POINTS = new Set([...COMPASS].filter((w) => /^(?:north|south|east|west)/.test(w)));
/** Landforms a point of the compass names a region by: "Eastern Shore", "West Coast", "East End", "West Bank". */
const REGION_AFTER_POINT = new Set(['shore', 'coast', 'end', 'side', 'bank', 'midlands', 'highlands', 'lowlands', 'plains']);
/** Words of administration after a place's name: "Donetsk region", "Fairfax County". */
const ADMINISTRATIVE = ['region', 'province', 'county', 'district', 'oblast', 'prefecture', 'governorate', 'municipality', 'canton', 'township', 'parish', 'borough'];
/** An administrative word right after a listed place, in any case: "Donetsk region", "Fairfax county", "Washington state". */
const ADMINISTRATIVE_AFTER = new RegExp(`^ (?:${[...ADMINISTRATIVE, 'state'].join('|')})(?![\\p{L}\\p{N}])`, 'iu');
/** Kinds of place that name one after "of": "the town of Mpeketoni", "the province of Diyala". */
const KIND_OF_PLACE = new Set(['city', 'town', 'village', 'hamlet', 'township', 'borough', 'suburb', 'municipality', 'commune', 'province', 'prefecture', 'county', 'district', 'region', 'island', 'port']);
/** Prepositions before a place's name. */
const PLACE_PREPOSITIONS = new Set(['in', 'from', 'at', 'near', 'outside', 'around', 'across']);
/** Whether `words[i]` comes right after a preposition of place or "to", a space between. */
function afterPlacePreposition(text: string, words: readonly TextWord[], i: number): boolean {
  const before = words[i - 1];
  return before !== undefined && (PLACE_PREPOSITIONS.has(before.key) || before.key === 'to') && oneSpace(text, before, words[i]!);
}
/** Words of a move between wards or hospitals, one of which must come shortly before a ward. */
const MOVES = /\b(?:transfer(?:r?ed)?|admit(?:ted)?|sent|moved?|back|go|going|went|arrived|came|returned?|discharged|accepted)\b/;
/**
 * A number, up to three capitalised words and a street type written with a capital ("19 Clover St."); in
 * capitals only the types no clinical abbreviation shares ("2 WEEKS WITH DR", "1 HEAD CT" are not streets).
 */
const STREET = /\b\d{1,5}\s+(?:(?:\p{Lu}[\p{L}'.-]*|\d{1,3}(?:st|nd|rd|th))\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Ln|Lane|Dr|Drive|Way|Ct|Court|Pl|Place|Sq|Square|Ter|Terrace|Pkwy|Parkway|Hwy|Highway|Cir|Circle|STREET|AVE|AVENUE|ROAD|BLVD|BOULEVARD|LANE|DRIVE|COURT|SQUARE|TERRACE|PARKWAY|HIGHWAY)\b\.?/gu;

/** Street types in any case, for the postal address rule ("14 Crown Street", "74678 midtvollen 130 st."). */
/** The endings of a street's name and type written in one word (Søndergade, Ringvej, Kiannonkatu, Sahantie). */
const STREET_SUFFIXES = 'strasse|straße|gasse|gade|gatan|gata|vägen|vegen|veien|vej|weg|katu|tie|straat|laan|plaats|plein|allee';
const STREET_TYPE = new RegExp(String.raw`^(?:st|street|ave|avenue|rd|road|blvd|boulevard|ln|lane|dr|drive|way|ct|court|pl|place|sq|square|squares|ter|terrace|terrasse|pkwy|parkway|hwy|highway|cir|circle|parks?|gardens|crescent|close|row|alley|plaza|route|trail|u\.|ul\.|utca|út|útja|ulica|trg|tér|tere|körút|krt\.|rakpart|sétány|fasor|tee|vei|allé|via|viale|corso|rue|calle|paseo|carrer|avenida|avda|rua|rúa|av\.|estrada|strada|piazza|λεωφόρος|λεωφ\.|λ\.|οδός|πλατεία|\p{L}+(?:${STREET_SUFFIXES}))(?<!\b(?:u|ul))\.?$`, 'iu');
/** Where a postal address may start: a house number (one or two; a unit and a slash before it, as Australia writes "5/23 George St", or a range, "3-12 Oxford Rd"), a letter after it before a capitalised street ("221B Baker Street"; not "3L via NC", litres). */
const HOUSE = /(?<![\p{L}\p{N}.,:/-])(?:\d{1,4}[/-])?(\d{1,6})(?:[A-Z](?= \p{Lu}))?(?: \d{1,5})?(?= \p{L}| \d{1,3}(?:st|nd|rd|th)\b)/gu;
/** A post office box, with a number before it if any: "P.O. Box 149", "45818 P.O. Box 242". */
const PO_BOX = /(?<![\p{L}\p{N}])(?:\d{1,6} )?(?:P\.? ?O\.? ?Box|Post ?box) \d{1,6}(?![\p{L}\p{N}])/giu;
/** Words before a place that locate something there: "at", "to", "is in". */
const LOCATIVE = String.raw`\b(?:at|to|on|in|is|with)`;
/** The locatives after which a street's words alone may make it one: not "on" or "with", which drugs follow ("on Zyvox 600"). */
const ADDRESS_LOCATIVE = String.raw`\b(?:at|to|in|is)`;
/**
 * An intersection's first street, named bare before an address after a locative: "at Spencer and Søndre
 * Havnevej 65", "to Eloise and 226 Thomas Avenue".
 */
const CORNER_STREET = String.raw`\p{Lu}[\p{L}\p{M}'’-]* and`;
const CORNER_BEFORE = new RegExp(String.raw`(?<=${LOCATIVE} )${CORNER_STREET} $`, 'u');
/**
 * Street types Spain, Portugal and Brazil write before the name, with a comma between the name and its
 * number: "Av. Paulista, 1578", "Rua Augusta, 274". "av" is one only with its period (an AV node is none).
 */
const IBERIAN_LEADING_TYPES = ['av.', 'avda', 'avenida', 'rua', 'rúa', 'calle', 'travessa', 'alameda', 'praça', 'largo', 'paseo', 'carrer'];
/** The comma after a street named by an Iberian type, before its number. */
const NUMBER_AFTER_COMMA = String.raw`(?:(?<=(?:^|[\s:(])(?:${IBERIAN_LEADING_TYPES.map((t) => t.charAt(0).toUpperCase() + t.slice(1).replace(/\.$/, '')).join('|')})\.? [^,\n]{1,40}),)`;
/**
 * A street written before its number, as most of Europe writes it, at a line's start or after a colon, a
 * locative or an intersection's first street: "Kálmán Imre u. 12.", "Via dei Fiorentini 17", "Tungata 11";
 * a house number before it if any (group 1); Poland's type before it in lower case ("ul. Marszałkowska 84/92", a
 * building and a flat). Counts with an address line after it or a street type in it;
 * after a locative, also with a word no English list holds ({@link LOCATIVE_BEFORE}, {@link CLAUSE_AFTER}).
 */
const STREET_FIRST = new RegExp(String.raw`(?<=(?:^|\n|:|${LOCATIVE}|${LOCATIVE} ${CORNER_STREET}) ?)(\d{1,5} )?(?:(?:ul|al|pl)\. )?(?:\p{Lu}[\p{L}\p{M}'’.-]*(?: (?:\p{Lu}[\p{L}\p{M}'’.-]*|de|del|dei|della|degli|delle|di|da|do|dos|la|le|van|von|du|des|u\.|ul\.|út|útja|utca|tér|körút|rakpart|sétány|fasor|tee|vei|allé)){0,4})${NUMBER_AFTER_COMMA}? \d{1,5}[A-Za-z]?(?:\/\d{1,4})?\.?(?![\p{L}\p{N}])`, 'gmu');
/**
 * Where a street-first address's words alone may make it one: right after "at", "to", "in", "is", an
 * intersection after them, or "address:" (not any colon: "Scorers: Ronaldo 23, Figo 45").
 */
const LOCATIVE_BEFORE = new RegExp(String.raw`(?:${ADDRESS_LOCATIVE}|${ADDRESS_LOCATIVE} ${CORNER_STREET}|\b(?:[Aa]ddress(?:es)?|ADDRESS(?:ES)?)\s?:) ?$`, 'u');
/**
 * Its number then closes the clause: punctuation, the line's end, "in case", "please" or "for". Not a score,
 * a range, a decimal, a dose, a time or what a drug's dose goes on with ("to Arsenal 2-1", "to Levophed 12
 * in the am", "to Jones 2 days ago").
 */
const CLAUSE_AFTER = /^\s*(?:[.,;!?)](?!\d)|$|\n|(?:in case|please|for)\b)/u;
/** A street type right after a street-first address's number: "Hoge Wei 32 St.", "Grössgstötten 50 street". */
const TYPE_AFTER = / (?:st|street|ave|avenue|rd|road)\b\.?/iuy;
/** A US military address: unit or PSC, box, and the military post office. */
const MILITARY = /\b(?:(?:PSC|Unit|CMR) \d{1,6},? Box \d{1,6}|(?:USNS|USNV|USS|USCGC) \p{L}[\p{L}'’.-]*(?: \p{L}[\p{L}'’.-]*)?)[ \t]*,?[ \t]*\n?[ \t]*(?:APO|FPO|DPO) (?:AA|AE|AP) \d{5}(?![\p{L}\p{N}])/giu;
// The address scanner reads from a position with sticky (y) patterns, never copying the rest of the text:
// a long document has many numbers.
const STREET_WORD = / (\p{L}[\p{L}\p{M}'’.-]*|\d{1,3}(?:st|nd|rd|th)\b)/uy;
/** After a lower-case street word: a number and a street type ("midtvollen 130 st."), or a street type spelled out ("fourth avenue"). */
const NUMBER_THEN_TYPE = / (?:\d{1,5} (?:st|street|ave|rd|road)|street|avenue|road|boulevard|lane|drive)\b/iuy;
/** Street types that languages write before the name ("Via Roma", "Rue de Piétrain", "Paseo del Atlántico"). */
const LEADING_TYPE = new RegExp(String.raw`^(?:via|viale|corso|rue|estrada|strada|piazza|avenue|boulevard|ul\.|trg|plaza|λεωφόρος|λεωφ\.|λ\.|οδός|πλατεία|${IBERIAN_LEADING_TYPES.map((t) => t.replace('.', '\\.')).join('|')})$`, 'iu');
/** Words that join a street's name: "Avenue du Golf", "Rua Vinte e Cinco de Setembro". */
const PARTICLE = /^(?:de|du|des|del|della|dei|delle|di|da|do|dos|das|la|le|les|van|von|der|den|e)$/iu;
/** Within two words, a street's number or a street type. */
const NUMBER_OR_TYPE_SOON = /(?: \p{L}[\p{L}\p{M}'’.-]*){0,2} (?:\d{1,5}(?![\p{L}\p{N}])|(?:st|street|ave|rd|road)\b)/iuy;
/** A street's name and type in one word. */
const COMPOUND_STREET = new RegExp(`^\\p{L}+(?:${STREET_SUFFIXES})\\.?$`, 'iu');
/** A street's name and type in one word, not an English word that ends so (brigade, necktie). */
const compoundStreet = (word: string, lists: PublicLists) => COMPOUND_STREET.test(word) && !dictionaryWord(word.toLowerCase().replace(/\.$/, ''), lists);
/** Street types that are everyday English words too, so types only written as names: "1 Infinite Loop", not "Lasix loop diuretic". */
const NAMED_STREET_TYPE = /^(?:Loop|Mews|Wharf|Quay|Esplanade|Promenade)$/u;
/** A street type ({@link STREET_TYPE}), but no English word that ends as a name and type in one word does. */
const streetType = (word: string, lists: PublicLists) => NAMED_STREET_TYPE.test(word) || (STREET_TYPE.test(word) && (!COMPOUND_STREET.test(word) || compoundStreet(word, lists)));
/** The number after a street, and a street type after it if any. */
const STREET_NUMBER = / \d{1,5}[A-Za-z]?(?![\p{L}\p{N}]|[.,]\d)(?: (?:st|street|ave|rd|road)\.?(?![\p{L}]))?/iuy;
/** A postal code as an address's line: four to six digits (a ZIP+4 too), or a short code only before its town's capital. */
const POSTAL_CODE = String.raw`(?:${HYPHENATED_POSTAL_CODE}|\d{4,6}(?:-\d{4})?|(?:${SHORT_POSTAL_CODE})(?= \p{Lu}))(?![\p{L}\p{N}])`;
/** A postal code after a town ("Tokyo 104-0061"), where the town already says it is an address: a short one too. */
const POSTAL_CODE_AFTER_TOWN = String.raw`(?:${HYPHENATED_POSTAL_CODE}|${SHORT_POSTAL_CODE}|\d{4,6})(?![\p{L}\p{N}])`;
/** A list's bullet at a line's start, as addresses are pasted in ("• Suite 292"; "??? " where the bullet's encoding was lost). */
const BULLET = String.raw`(?:[•·*–?-]{1,3}[ \t]+)?`;
/** The units only an address has: "Apt. 311", "Suite 268" mean an address wherever they stand. */
const UNIT_WORDS = String.raw`Suite|Ste\.?|Apt\.?|Apartment`;
/** Units that mean one only after a street: a note's "Unit 5" or "Room 12" is a ward's. */
const UNIT_WORDS_AFTER_STREET = String.raw`Unit|Floor|Fl\.?|Room|Rm\.?`;
/**
 * A unit after the street, on its line or the next (after the street's closing period too: "Kálmán Imre u.
 * 12.\n Apt. 762"), or a floor and a door as Spain and Portugal write them ("Calle Mayor 5, 3º izquierda").
 */
const INLINE_UNIT = new RegExp(String.raw`[.,]?(?:[ \t]*\n[ \t]*${BULLET}|[ \t]+)(?:(?:${UNIT_WORDS}|${UNIT_WORDS_AFTER_STREET}|#) ?\d{1,5}[A-Za-z]?|\d{1,2}[ºª](?: ?(?:izquierda|derecha|izda\.|dcha\.|esq\.|dto\.|[A-Z]))?)(?![\p{L}\p{N}])`, 'iuy');
/** The word after a street's match, in its case. */
const NEXT_WORD = / (\p{Lu}[\p{L}'’-]*)/uy;
/**
 * Whether a street's "Dr" is a doctor's title, as the title rule reads it: a listed person's name right
 * after it ("3/12 Cardiology Dr Smith", where a date's day looked like a house number), not a unit or a
 * point of the compass (Suite, Apt, North are census surnames too: "12 Oak Dr Suite 200"). A town after a
 * street with no comma (many towns are surnames too: "12 Oak Dr Springfield") is the postal rule's, which
 * reads the address's lines.
 */
function doctorAfter(text: string, end: number, street: string, lists: PublicLists): boolean {
  if (!/ Dr\.?$/.test(street) || matchAt(INLINE_UNIT, text, end) !== null) return false;
  const key = matchAt(NEXT_WORD, text, end)?.[1]!.toLowerCase();
  return key !== undefined && !COMPASS.has(key) && (lists.lastNames.has(key) || lists.firstNames.has(key)) && !lists.namedPlaces.has(key);
}

/** What separates the lines of an address: a comma (on the next line too: "MOSS\n, nan"), a line break (a blank line at most). */
const ADDRESS_BREAK = new RegExp(String.raw`(?:(?:[ \t]*\n)?[ \t]*,[ \t]*(?:\n[ \t]*)?|[ \t]*\n(?:[ \t]*\n)?[ \t]*${BULLET})`, 'y');
/**
 * Once it is an address, its lines may also follow on one line: "Suite 019 CHARLEROI Victoria"; "nan" is
 * an empty field printed by a data frame ("BODØ nan").
 */
const SPACE_BEFORE_CAPITAL = / (?=\p{Lu}|nan(?![\p{L}\p{N}]))/uy;
const UNIT_LINE = new RegExp(String.raw`(?:${UNIT_WORDS}|${UNIT_WORDS_AFTER_STREET}|Box) ?#?\d{1,5}[A-Za-z]?(?![\p{L}\p{N}])`, 'iuy');
/** Lines that only an address has: a unit, a military post office, a postal code, a state with its code. */
const ADDRESS_LINES = [
  UNIT_LINE,
  /(?:APO|FPO|DPO) [A-Z]{2} \d{5}(?![\p{L}\p{N}])/uy,
  new RegExp(POSTAL_CODE, 'uy'),
  new RegExp(String.raw`${UK_POSTCODE}(?![\p{L}\p{N}])`, 'uy'),
  new RegExp(String.raw`(?:[A-Z]{2}|nan) ${US_ZIP_CODE}(?![\p{L}\p{N}])`, 'uy'),
  // A Canadian province and its postal code (an Australian state and its postcode is a town line's).
  new RegExp(String.raw`[A-Z]{2} ${CANADIAN_POSTCODE}(?![\p{L}\p{N}])`, 'uy'),
];
/** A unit written before its street, a comma between: "Apartment 4B, 350 Fifth Avenue", "Flat 3, 14 Princes Street". */
const UNIT_BEFORE = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${UNIT_WORDS}|Flat|Unit) ?#?\d{1,5}[A-Za-z]?,? $`, 'iu');
/** Where an address starting at `start` starts with the unit written before its street, if any. */
function withUnitBefore(text: string, start: number): number {
  return start - (UNIT_BEFORE.exec(text.slice(Math.max(0, start - 24), start))?.[0].length ?? 0);
}
/** A unit alone on its line ("Apt. 311", "suite 268"): an address's second line, whatever the language of its street. */
const UNIT_ALONE = new RegExp(String.raw`(?<=^|\n)[ \t]*${BULLET}((?:${UNIT_WORDS}) ?#?\d{1,5}[A-Za-z]?)(?=[ \t]*(?:\r?\n|$))`, 'giu');
/** A line of an address in lower case, a postal code after it if any: "montzen", "cape verde 30038". */
const LOWER_LINE = /\p{Ll}[\p{L}\p{M}'’.-]*(?: \p{Ll}[\p{L}\p{M}'’.-]*){0,3}(?: \d{4,6})?(?![\p{L}\p{N}])/uy;
/** The small words of a sentence before a street: "lives on Via dei Fiorentini 17", "and 37 Rue X". */
const SMALL_WORDS = 'and|at|to|in|on|is|with|from|of';
/** What leads a street on its line: a list's bullet, small words. */
const LINE_LEAD = new RegExp(String.raw`^[ \t]*${BULLET}(?:(?:${SMALL_WORDS}) )*`, 'u');
/** A small word inside a line: where a street may start after it. */
const SMALL_WORD = new RegExp(String.raw` (?:${SMALL_WORDS})(?= )`, 'gu');
/** Lower-case words inside a place's name: "Caxias do Sul", "Ostrov nad Ohrí", "Villafranca del Cid", "Turkovice u Prelouce". */
const PLACE_PARTICLES = 'de|del|do|dos|da|das|di|du|des|la|le|am|an|der|im|bei|on|upon|sur|sul|nad|pod|na|u|en|y|van|von';
const PARTICLE_WORD = new RegExp(`^(?:${PLACE_PARTICLES})$`, 'u');
/** The particles, and the English words inside a listed place's name: "Isle of Man", "Trinidad and Tobago". */
const LISTED_PARTICLE = new RegExp(`^(?:${PLACE_PARTICLES}|della|les|el|al|of|and|the)$`, 'u');
/**
 * A town, a region or a country, capitalised, with a qualifier in brackets and its postal code after it
 * if any ("ΑΓΛΑΝΤΖΙΑ (ΑΓΛΑΓΓΙΑ)"), or its district's number before the next line ("Karlovy Vary 17,"); a
 * lone state code. Not a label before a colon ("Mobile: 0490").
 */
const TOWN_LINE = new RegExp(String.raw`(?:\p{Lu}[\p{L}\p{M}'’.-]*(?:[ -](?:\p{Lu}[\p{L}\p{M}'’.-]*|${PLACE_PARTICLES})){0,3}(?: \([\p{L}\p{M} ]{2,30}\))?(?: ${POSTAL_CODE_AFTER_TOWN}| \d{1,2}(?=[ \t]*[,\n]))?|[A-Z]{2}|nan)(?![\p{L}\p{N}]|[ \t]*:)`, 'uy');

/**
 * A US state as news abbreviates it after a city and a comma (the AP's forms): "Tampa, Fla.", "Trenton,
 * N.J.", "Charleston, W.Va.". Alone they are words (Mass., Miss., Ill.) or shorthand (S.C., N.C.).
 */
const AP_STATE_AFTER = /^ ?, ?(?:Ala|Ariz|Ark|Calif|Colo|Conn|Del|Fla|Ga|Ill|Ind|Kan|Ky|La|Md|Mass|Mich|Minn|Miss|Mo|Mont|Neb|Nev|Okla|Ore|Pa|Tenn|Vt|Va|Wash|Wis|Wyo|W\. ?Va|N\. ?[CDHJMY]|S\. ?[CD]|R\. ?I)\.(?![\p{L}\p{N}])/u;
/** A word in brackets after a country, kept with it when it says which part: see {@link PlaceRecognizer.qualifier}. */
const COUNTRY_QUALIFIER = /^ \((\p{Lu}\p{Ll}+)\)/u;
/** Where a postal code after a place ends: not inside a word, nor the year or month of a date ("1996-12-06"). */
const CODE_END = String.raw`(?![\p{L}\p{N}]|[-/.]\d)`;
/**
 * A postal code after a place: five digits (ZIP+4 too) after any, four after a country; a qualifier before
 * it: "Cyprus (Greek) 13429". Not the year of a date after it: "United Arab Emirates 1996-12-06".
 */
const POSTCODE_AFTER = new RegExp(String.raw`^(?: \([\p{L} ]{2,20}\))? (?:(${US_ZIP_CODE})|\d{4})${CODE_END}`, 'u');
/** A ZIP code after a state's code: "Springfield, IL 62704". */
const ZIP_AFTER_STATE = new RegExp(String.raw`,? ${US_ZIP_CODE}${CODE_END}`, 'uy');
/**
 * A place and its state with the ZIP code after them as its mention, protected where written so: the place
 * and state stay a term of their own ("harbor md" in lower case elsewhere), and a count after them is
 * protected only there ("Washington DC 20000 people").
 */
function withZip(text: string, d: Detection): Detection {
  const zip = matchAt(ZIP_AFTER_STATE, text, d.end);
  return zip === null ? d : { ...d, mention: { start: d.start, end: d.end + zip[0].length } };
}
/** An intersection: "the corner of Dalbraut 99 and Frederikke Coves", up to the next punctuation or line break. */
const INTERSECTION = /\b(?:the )?(?:corner|intersection|junction) of ([^\n,;:!?]{2,60}?) and ([^\n,;:!?.]{2,60}?)(?=[.,;:!?]|\n|$)/giu;
/** Words after a place's name that make it a geographic feature or landmark: "Hudson River", "Orange County". */
const FEATURE_AFTER = new Set([
  ...ADMINISTRATIVE,
  ...['river', 'lake', 'lakes', 'mountain', 'mountains', 'island', 'islands', 'isles', 'bay', 'valley', 'city', 'park', 'square', 'stadium', 'arena', 'airport', 'station', 'bridge', 'castle', 'cathedral', 'abbey', 'palace'],
  ...['peninsula', 'canyon', 'desert', 'forest', 'beach', 'coast', 'strait', 'sea', 'ocean', 'falls', 'creek', 'hills', 'heights', 'springs', 'gulf', 'glacier', 'volcano', 'reservoir', 'harbour', 'harbor'],
  ...['strip', 'basin', 'delta', 'plateau', 'highlands', 'channel', 'canal', 'reef', 'archipelago', 'steppe', 'marshes', 'fjord', 'pass', 'dam'],
  ...['tower', 'towers', 'building', 'museum', 'church', 'chapel', 'temple', 'mosque', 'synagogue', 'monastery', 'cemetery', 'prison', 'mall', 'hotel', 'theatre', 'theater', 'zoo'],
  ...['hall', 'garden', 'gardens', 'gallery'],
]);
/** One or two feature words after a listed place, in any case ("Mosul dam", "Montreal city hall"); not pass, a verb after a name too. */
const LANDMARK_AFTER_PLACE = new RegExp(String.raw`^(?: (?:${[...FEATURE_AFTER].filter((w) => w !== 'pass' && !ADMINISTRATIVE.includes(w)).join('|')})){1,2}(?![\p{L}\p{N}])`, 'iu');
/** Words before a place's name that make it one: "Lake Geneva", "Mount Kosciuszko", "River Thames". */
const FEATURE_BEFORE = new Set(['lake', 'mount', 'mt', 'river', 'cape', 'fort', 'port', 'isle', 'gulf', 'loch', 'lough', 'glen']);
/**
 * Features of the land and the sea that name a place whatever word comes with them, a common one too
 * (Kangaroo Island, Central Coast, Mt Cook, Cape Cod): no title or thing is called so. Before or after one
 * word written as a name, inside a sentence, where no run of capitals around makes it a headline's. Not
 * falls, which a clinical note writes so (Mechanical Falls); a town named so is listed (Twin Falls).
 */
const GEOGRAPHIC = new Set(['island', 'islands', 'isles', 'coast', 'bay', 'beach', 'peninsula', 'lake', 'lakes', 'mountains', 'strait', 'canyon', 'glacier', 'reef', 'fjord', 'mount', 'mt', 'cape', 'isle', 'loch', 'lough']);
/**
 * The same after the name only: Orange County, Peace River, Black Sea, Death Valley. Before one, river and
 * gulf start other things too (River Island, a shop; the Gulf War).
 */
const GEOGRAPHIC_AFTER = new Set(['river', 'sea', 'ocean', 'valley', 'desert', 'hills', 'creek', 'harbor', 'harbour', 'county']);
/** A university named after its place: "University of Maryland", "Univ. of Chicago", "U OF MD" (the place is checked). */
const UNIVERSITY_OF = /\b(?:university|univ\.?|u) of (\p{L}+(?: \p{L}+)?)(?![\p{L}\p{N}])/giu;
/** A US state code where someone lives: "lives in DC", "moved to VA". */
const LIVES_IN_STATE = /\b(?:lives?|living|lived|resides?|residing|moved|moving|home) (?:in|to) ([A-Z]{2})(?![\p{L}\p{N}])/gu;
/** A street named with its type spelled out, without a number: "on Berg Hills Street", "Tarsicio Isle Street", "on 5th Avenue". */
const NAMED_STREET = /(?<![\p{L}\p{N}])((?:(?:\p{Lu}\p{Ll}[\p{L}\p{M}'’-]*|\d{1,3}(?:st|nd|rd|th)) ){1,3})(?:Street|Avenue|Road|Boulevard|Lane|Parkway|Terrace|Highway)\b/gu;

/** What closes a state code after a place in capitals: punctuation, a five-digit postal code or the line's end. */
const CODE_CLOSES = /[ \t]*(?:[\r.,;:)]|\d{5}(?!\d)|$)/my;
/** A sticky pattern's match at position `at` of `text`, or null. */
function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/**
 * A postal address from `at`: a house number and up to five street words (capitalised, or any before a
 * number or a street type), a number and a unit if any, then lines of units, towns, regions, countries and
 * postal codes, separated by commas or line breaks. It counts when something only addresses have is in
 * it: a street type, a unit, a postal line, or a house number of three digits or more with a number
 * after the street ("20789 Allika 46"). Returns where it ends.
 */
function postalAddress(text: string, at: number, house: string, houseDigits: number, lists: PublicLists): number | undefined {
  // A unit or a range before the number ("5/23 George St", "3-12 Oxford Rd") is what notes' ranges and dates
  // look like too ("HR 100-120 Metoprolol 5", "on 12/2018 Remicade 400"): it needs a street type after a
  // name and a line after the street, a comma or a line break before it.
  const ranged = /^\d{1,4}[/-]\d/.test(house);
  let end = at + house.length;
  let words = 0;
  let named = 0;
  let foreign = true;
  let evidence = false;
  let leadingType = false;
  for (let m = matchAt(STREET_WORD, text, end); m !== null && words < 5; m = matchAt(STREET_WORD, text, end)) {
    const word = m[1]!;
    // Words in capitals are shorthand in notes (1 HEAD CT, 2 IN PLACE), not streets.
    const shouted = inCapitals(word);
    // A type shortened to one capital is no shouting: "Λ." (Λεωφόρος, avenue), "U." (utca).
    const typed = streetType(word, lists) && (!shouted || /^\p{Lu}\.$/u.test(word));
    // A lower-case street needs its type, before or after its number ("midtvollen 130 st."); a particle
    // joins a street's words ("Avenue du Golf", "Paseo del Atlántico").
    // "d'Ouchy" is written as a name.
    // A numbered street names as a capital does after a capitalised word or before one ("W 45th St", "5th
    // Avenue"; not "2 1st place finishes", "2 3rd row seats").
    const ordinal = /^\d/.test(word) && (words > 0 || /^ \p{Lu}/u.test(text.slice(end + m[0].length, end + m[0].length + 2)));
    const capitalised = !shouted && (word.charAt(0) !== word.charAt(0).toLowerCase() || /^d['’]\p{Lu}/u.test(word) || ordinal);
    const particle = words > 0 && PARTICLE.test(word);
    // After a type written first, the name may be in lower case when its number or type soon follows
    // ("31 Rue tachkent St.", "947 trg revolucije 17"; not "60 via nbp with neo").
    const afterLeadingType = leadingType && !shouted && matchAt(NUMBER_OR_TYPE_SOON, text, end + m[0].length) !== null;
    // Or a street's name and type in one word after it ("pierre delannoyplaats").
    const typeNext = matchAt(NUMBER_THEN_TYPE, text, end + m[0].length) !== null || compoundStreet(matchAt(STREET_WORD, text, end + m[0].length)?.[1] ?? '', lists);
    if (!typed && !capitalised && !particle && !afterLeadingType && !typeNext) break;
    end += m[0].length;
    words++;
    if (particle) continue;
    // A street named with its type in one word (Søndergade, Ringvej, Sahantie) is a name too.
    if (!typed || compoundStreet(word, lists)) named++;
    // A period ends the street unless it shortens a street type ("u.", "St."): "3 Way Foley. HR 116".
    if (word.endsWith('.') && !typed) break;
    // A street type counts after a name ("3 WAY" and "116 ST" are none), or first where languages put it
    // first ("Via Roma", "Rue de Piétrain"; not "3 Way Foley", a catheter).
    leadingType ||= words === 1 && LEADING_TYPE.test(word);
    evidence ||= (typed || leadingType) && named > 0;
    foreign &&= capitalised && word.length > 2 && !dictionaryWord(word.toLowerCase(), lists);
  }
  if (named === 0) return undefined;
  const number = matchAt(STREET_NUMBER, text, end);
  if (number) {
    end += number[0].replace(/\.$/, '').length;
    // "20789 Allika 46": a long house number, a street no English list holds and a number after it.
    evidence ||= (houseDigits >= 3 && foreign && !ranged) || / \p{L}/u.test(number[0]);
  }
  if (ranged && (!evidence || matchAt(ADDRESS_BREAK, text, end) === null)) return undefined;
  const lines = addressLines(text, end, evidence);
  if (ranged && lines.end === end) return undefined;
  return lines.evidence ? lines.end : undefined;
}

/**
 * The units and lines of an address after its street, from `end`: where they end, and whether one of them
 * is something only addresses have (a unit, a postal line, a postal code after a town).
 */
function addressLines(text: string, end: number, evidence: boolean): { end: number; evidence: boolean } {
  for (let unit = matchAt(INLINE_UNIT, text, end); unit !== null; unit = matchAt(INLINE_UNIT, text, end)) {
    end += unit[0].length;
    evidence = true;
  }
  for (let lines = 0; lines < 6; lines++) {
    const gap = matchAt(ADDRESS_BREAK, text, end) ?? (evidence ? matchAt(SPACE_BEFORE_CAPITAL, text, end) : null);
    if (gap === null) break;
    const from = end + gap[0].length;
    const strong = ADDRESS_LINES.map((r) => matchAt(r, text, from)).find((m) => m !== null);
    const line = strong ?? matchAt(TOWN_LINE, text, from);
    if (!line) break;
    // A town's postal code is evidence; its district's number is not ("Chelsea 1," in a score).
    evidence ||= strong !== undefined || /\d{4}/.test(line[0]);
    end += gap[0].length + line[0].length;
  }
  return { end, evidence };
}

/**
 * Where the street on the line `line` starts, when it is one: the line's last clause (after a comma, a
 * colon, and the small words before a street: "and", "at"), of six words at most, holding a number; in a
 * longer clause, what follows a small word ("lives on Via dei Fiorentini 17") or a house number ("the
 * billing address 11 via goffredo mameli 149"), the first that leaves six words at most. Only the line's
 * last 200 characters are read: a street is shorter.
 */
function streetOfLine(line: string): number | undefined {
  const near = Math.max(0, line.length - 200);
  const clauseStart = Math.max(near, ...[',', ';', ':', '!', '?'].map((mark) => line.lastIndexOf(mark) + 1));
  const from = clauseStart + LINE_LEAD.exec(line.slice(clauseStart))![0].length;
  const tail = line.slice(from).trimEnd();
  if (!/\d/u.test(tail)) return undefined;
  const wordStarts = [0, ...[...tail.matchAll(/\s+/gu)].map((m) => m.index + m[0].length)];
  const wordsFrom = (at: number) => wordStarts.filter((w) => w >= at).length;
  const starts = [0, ...[...tail.matchAll(SMALL_WORD)].map((m) => m.index + m[0].length + 1), ...[...tail.matchAll(HOUSE)].map((m) => m.index)].sort((x, y) => x - y);
  const start = starts.find((at) => wordsFrom(at) <= 6 && /\d/u.test(tail.slice(at)));
  return start === undefined ? undefined : from + start + LINE_LEAD.exec(tail.slice(start))![0].length;
}

/**
 * The lines of an address written in lower case after `end`: up to three, kept only when the last ends
 * in a postal code ("montzen\n macedonia 64733"), so that a line of prose after an address is none.
 */
function lowerCaseLines(text: string, end: number): number {
  let at = end;
  for (let lines = 0; lines < 3; lines++) {
    const gap = matchAt(ADDRESS_BREAK, text, at);
    const line = gap === null ? null : matchAt(LOWER_LINE, text, at + gap[0].length);
    if (gap === null || line === null) break;
    at += gap[0].length + line[0].length;
    if (/ \d{4,6}$/u.test(line[0])) return at;
  }
  return end;
}

/**
 * An address around a unit alone on its line (`rule:postal-address`): the street on the line before it
 * (see {@link streetOfLine}), the unit, and the towns, countries and postal codes after it, in capitals or
 * in lower case. A unit line is what only addresses have, so the street needs no type any list knows
 * ("76 Boriñaur enparantza 29\n Apt. 311", "71 Λεωφ. Ηρώων Πολυτεχνείου 19\n Apt. 129").
 */
function unitAnchoredAddress(text: string, unit: RegExpExecArray): [number, number] {
  const unitStart = unit.index + unit[0].length - unit[1]!.length;
  // The line above, over one blank line at most ("37 Rue X\n\n Apt. 4"), without its carriage return.
  let lineEnd = unit.index - 1;
  const blank = /\n[ \t\r]*$/u.exec(text.slice(Math.max(0, lineEnd - 8), Math.max(0, lineEnd)));
  if (blank !== null) lineEnd -= blank[0].length;
  const previousStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
  const street = lineEnd <= 0 ? undefined : streetOfLine(text.slice(previousStart, lineEnd).replace(/\r$/u, ''));
  const unitEnd = unit.index + unit[0].length;
  const lines = addressLines(text, unitEnd, true).end;
  return [street === undefined ? unitStart : previousStart + street, lines > unitEnd ? lines : lowerCaseLines(text, unitEnd)];
}

/**
 * A news dateline: at a line's start, the city in capitals, its region after a comma if any ("ORLANDO ,
 * Fla.", "AL-AIN , United Arab Emirates"), then the date or the agency: "LONDON 1996-12-06", "NEW YORK,
 * Dec 5", "PARIS (Reuters)". News names where it reports from so, every story once.
 */
const DATELINE = new RegExp(
  String.raw`(?<=^|\n)[ \t]*(\p{Lu}[\p{Lu}'’.-]+(?:[ \t]+\p{Lu}[\p{Lu}'’.-]+){0,3})(?:[ \t]*,[ \t]*(?:(\p{Lu}[\p{L}'’.-]*(?:[ \t]+\p{Lu}[\p{L}'’.-]*){0,3})[ \t]+)?|[ \t]+)` +
    String.raw`(?:\d{4}-\d\d-\d\d|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?[ \t]+\d{1,2}\b|(\([ \t]*(?:Reuters|AP|AFP|UPI)[ \t]*\)))`,
  'gu',
);

const matchers = new WeakMap<PublicLists, BlacklistMatcher>();
/** The trie of a list's ~60,000 places, built once per process: every default build makes a recogniser. */
function placeMatcher(lists: PublicLists): BlacklistMatcher {
  let matcher = matchers.get(lists);
  if (matcher === undefined) matchers.set(lists, (matcher = new BlacklistMatcher([...lists.places].map((term) => ({ term })))));
  return matcher;
}

/**
 * Places, needing no list from the user:
 * - cities, US states and countries from the bundled GeoNames and ISO lists, and the world's places
 *   (`list:places`), ignoring case; a place name that is also a common word (Harbor, Union, Mobile) only
 *   capitalised before a US state code, kept in the term (`context:place`), unless it is a country or a
 *   world place written as a name (Wales) or a listed place of two words written as names (Fort Worth);
 * - care facilities: the name words before "Hospital", "Hosp", "Rehab", "Medical Center", "Memorial"...
 *   (`rule:facility`), and a hospital's initials after "to", "from", "at" (GH, BWH, UMMC:
 *   `context:facility`);
 * - a postal code after a listed place belongs to it ("Hungary 06554": five digits, four after a country);
 * - street addresses: a number, up to three words, and a street type, a street named with its type spelled
 *   out ("Pine Hollow Street"), an intersection ("the corner of 5 Elm Road and Baker Avenue")
 *   (`rule:street-address`); whole postal addresses, street to country over several lines, street types
 *   written first ("Via Roma 131"), units on the next line, military and ships' post offices
 *   (`rule:postal-address`, see {@link postalAddress});
 * - a place no list holds after "in", "from", "at"...: capitalised words, or a word in capitals of six
 *   letters or more (`context:place-preposition`);
 * - a place after its kind and "of", whatever its words ("the town of Mpeketoni": `context:place-kind`).
 * The name words only are detected, not "Hospital": the term is then protected wherever it recurs,
 * "Holy Cross" alone included; the name with its facility words is its mention.
 */
export class PlaceRecognizer implements Recognizer {
  readonly name = 'places';
  private readonly matcher: BlacklistMatcher;

  constructor(private readonly lists: PublicLists = publicLists()) {
    this.matcher = placeMatcher(lists);
  }

  async find(text: string): Promise<Detection[]> {
    const out: Detection[] = [];
    const { words, cased, startingAt } = readWords(text, this.lists);
    for (const m of this.matcher.matchWords(await contentWords(text))) {
      const i = startingAt.get(m.start);
      if (i === undefined) continue;
      const span: TextWord[] = [];
      for (let k = i; k < words.length && words[k]!.end <= m.end; k++) span.push(words[k]!);
      // Where case means something, every word a name's, but for the small words inside one: Rio de
      // Janeiro, Isle of Man, Trinidad and Tobago. A listed place of two words or more in lower case right
      // after a preposition of place is one too, and in a text where case means nothing however written
      // ("back to new haven", "FLEW IN FROM SAN DIEGO"), but not one that starts with an article ("in the
      // village").
      const lowerAfterPreposition = span.length > 1 && span[0]!.key !== 'the' && (!cased || span.every((w) => !w.capital)) && afterPlacePreposition(text, words, i);
      if (span.length === 0 || (cased && !lowerAfterPreposition && !span.every((w, k) => w.capital || (k > 0 && k < span.length - 1 && LISTED_PARTICLE.test(w.key))))) continue;
      // A country or world place of two words or more is a place whatever its words (United Kingdom,
      // Middle East); one of one word (China, Turkey, Wales) where case means something and it is written
      // as a name, at a sentence's start too, where news most often names it.
      const term = normalizeTerm(text.slice(m.start, m.end));
      const listedCountry = this.lists.countries.has(term);
      // Where case means something, a place of two words or more written as names (Fort Worth, Cape Town,
      // Northern Territory) is that place: capitals on every word of a listed name are evidence enough.
      const named = (this.lists.namedPlaces.has(term) && (span.length > 1 || (cased && properShape(text.slice(m.start, m.end))))) || (cased && span.length > 1 && !sentenceStart(text, span[0]!));
      const ambiguous = span.every((w) => dictionaryWord(w.key, this.lists) || w.key.length < 4) && !named && !lowerAfterPreposition;
      // A place in capitals is followed by words in capitals, where IN, OR and ME are words: there the
      // code must close the place, before punctuation, a postal code or the line's end ("BOSTON MA 02115",
      // not "CHINA IN SURPRISE DEFEAT"). Tokenised text (CoNLL) writes a space before the comma: "Manhattan , NY".
      const code2 = /^ ?,?\s*([A-Z]{2})(?![\p{L}\d])/u.exec(text.slice(m.end, m.end + 7));
      const state = code2 !== null && (!span.every((w) => inCapitals(text.slice(w.start, w.end))) || matchAt(CODE_CLOSES, text, m.end + code2[0].length) !== null) ? code2 : null;
      // A postal code after it belongs to the place ("Hungary 06554"); four digits only after a country (not "Boston 2010").
      const code = POSTCODE_AFTER.exec(text.slice(m.end, m.end + 40));
      const coded = code !== null && (code[1] !== undefined || listedCountry) ? code[0].length : 0;
      if (!ambiguous) {
        // A compass word, a state's form or a county's before it and an administrative word after it
        // belong to the place: "Eastern Saskatchewan", "Republic of Ireland", "County Cavan", "Donetsk
        // region", "Kent county".
        const form = listedCountry ? STATE_FORM_BEFORE.exec(text.slice(Math.max(0, m.start - 60), m.start)) : cased ? COUNTY_BEFORE.exec(text.slice(Math.max(0, m.start - 8), m.start)) : null;
        const before = form !== null ? m.start - form[1]!.length : i > 0 && COMPASS.has(words[i - 1]!.key) && (words[i - 1]!.capital || !cased || POINTS.has(words[i - 1]!.key)) && oneSpace(text, words[i - 1]!, m) ? words[i - 1]!.start : m.start;
        const after = coded === 0 ? ADMINISTRATIVE_AFTER.exec(text.slice(m.end, m.end + 14)) ?? (listedCountry ? this.qualifier(text.slice(m.end, m.end + 24)) : null) : null;
        out.push({ start: before, end: m.end + (coded || (after?.[0].length ?? 0)), category: 'LOCATION', source: 'list:places' });
        // A state code after it belongs to it too ("Washington DC", "Baltimore, MD"), or a state as news
        // abbreviates it ("Tampa, Fla."), in a term of its own: the place alone stays one, and MD alone is a doctor.
        const stateAfter = state !== null && this.lists.stateCodes.has(state[1]!) ? state : cased && span.every((w) => w.capital) ? AP_STATE_AFTER.exec(text.slice(m.end, m.end + 10)) : null;
        if (stateAfter !== null) out.push(withZip(text, { start: m.start, end: m.end + stateAfter[0].length, category: 'LOCATION', source: 'list:places' }));
        // A landmark named after it, its kind in any case, in a term of its own beside the place: "Mosul
        // dam", "Delhi zoo", "Montreal city hall".
        const feature = coded === 0 && after === null ? LANDMARK_AFTER_PLACE.exec(text.slice(m.end, m.end + 24)) : null;
        if (feature !== null) out.push({ start: before, end: m.end + feature[0].length, category: 'LOCATION', source: 'list:places' });
      }
      // A place that is also a word ("Harbor", "Union"; one of two words written as names counts above) only before a state code, which stays in the
      // term: "harbor md", never every "union".
      else if (state !== null && this.lists.stateCodes.has(state[1]!) && span.every((w) => w.capital)) {
        out.push(withZip(text, { start: m.start, end: m.end + state[0].length, category: 'LOCATION', source: 'context:place' }));
      } else if (cased && afterPlacePreposition(text, words, i) && !sentenceStart(text, span[0]!) && !span.some((w) => CALENDAR.has(w.key) || COMPASS.has(w.key)) && !inCapitals(text.slice(words[i - 1]!.start, words[i - 1]!.end))) {
        // Capitalised after a preposition ("Surgeon from Harbor", "go to Harbor"): the preposition stays in
        // the term, "from harbor", never every harbor. Not a month ("in August", a town too), nor a point of
        // the compass, which is the first word of a longer place ("in West Africa"), nor after a preposition
        // in capitals: a line in capitals, a headline, where every word has one ("CHINA IN SURPRISE
        // DEFEAT"), is read as a text where case means nothing.
        out.push({ start: words[i - 1]!.start, end: m.end, category: 'LOCATION', source: 'context:place' });
      }
    }
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (FACILITY.has(w.key) && (w.capital || !cased)) this.facility(text, words, i, cased, out);
      else if (i > 0 && /^[A-Z]{2,5}$/.test(text.slice(w.start, w.end)) && /(?:h|mc|va)$/.test(w.key) && !CLINICAL_H.has(w.key) && !this.lists.commonWords.has(w.key) && !this.lists.rareWords.has(w.key) && ['to', 'from', 'at', 'the'].includes(words[i - 1]!.key)) {
        out.push({ start: w.start, end: w.end, category: 'LOCATION', source: 'context:facility' });
      }
    }
    for (let i = 1; i < words.length; i++) {
      const w = words[i]!;
      // A ward or unit after a move: "transferred to Quartermain 3" (not "changed to cpap 5").
      if ((words[i - 1]!.key === 'to' || words[i - 1]!.key === 'from') && i > 1 && MOVES.test(words.slice(Math.max(0, i - 4), i - 1).map((x) => x.key).join(' ')) && w.key.length >= 4 && !this.lists.commonWords.has(w.key) && !this.lists.rareWords.has(w.key) && /^\s?\d{1,2}(?![\d.:/%]|\s?(?:mg|mcg|cc|ml|l\b|units?|u\b))/i.test(text.slice(w.end, w.end + 8))) {
        out.push({ start: w.start, end: w.end, category: 'LOCATION', source: 'context:ward' });
      }
      // A place no list holds, after a preposition of place: "I am in Sutri", "based in KURZENKIRCHEN",
      // "originally from ΕΓΚΩΜΗ". Up to three capitalised words, each in no English list, where case means
      // something; a word in capitals only from six letters (notes write "in ICU", "from OSH").
      if (cased && PLACE_PREPOSITIONS.has(words[i - 1]!.key) && oneSpace(text, words[i - 1]!, w)) {
        const name = this.placeName(text, words, i);
        if (name?.unlisted) out.push({ start: w.start, end: name.end, category: 'LOCATION', source: 'context:place-preposition' });
      }
      // A place after its kind and "of", whatever its words, since the kind says what they name: "the town
      // of Mpeketoni", "the northern Iraqi city of Tal Afar" (a name and a word no list holds as a place).
      if (cased && i > 1 && words[i - 1]!.key === 'of' && KIND_OF_PLACE.has(words[i - 2]!.key) && oneSpace(text, words[i - 2]!, words[i - 1]!) && oneSpace(text, words[i - 1]!, w)) {
        const name = this.placeName(text, words, i);
        if (name !== undefined) out.push({ start: w.start, end: name.end, category: 'LOCATION', source: 'context:place-kind' });
      }
      // A town too small for the places list after a preposition of place, "to" too: "returned to LYCKSELE",
      // "in punkaharju" where case means nothing.
      if (afterPlacePreposition(text, words, i)) {
        const end = this.town(text, words, i, cased);
        if (end !== undefined) out.push({ start: w.start, end, category: 'LOCATION', source: 'context:town' });
      }
      // A region named by a point of the compass and a landform, written as a name or in capitals: "the
      // Eastern Shore", "EAST END", "West Coast" (not "the east side of the bed").
      const p = words[i - 1]!;
      if (POINTS.has(p.key) && REGION_AFTER_POINT.has(w.key) && /^[ -]$/.test(text.slice(p.end, w.start)) && p.capital && w.capital) {
        out.push({ start: p.start, end: w.end, category: 'LOCATION', source: 'rule:landmark' });
      }
      // A saint's name: "St. Agnes", "St Mary's".
      if ((w.key === 'st' || w.key === 'saint') && i + 1 < words.length && adjacent(text, w, words[i + 1]!) && this.lists.firstNames.has(words[i + 1]!.key) && (!cased || words[i + 1]!.capital)) {
        out.push({ start: w.start, end: words[i + 1]!.end, category: 'LOCATION', source: 'rule:saint' });
      }
    }
    for (const m of text.matchAll(COUNTRY_SHORT)) if (cased || m[0].includes('.')) out.push({ start: m.index, end: m.index + m[0].length, category: 'LOCATION', source: 'context:country-short' });
    if (cased) this.us(text, words, out);
    for (const m of text.matchAll(STREET)) {
      if (doctorAfter(text, m.index + m[0].length, m[0], this.lists)) continue;
      out.push({ start: m.index, end: m.index + m[0].replace(/\.$/, '').length, category: 'LOCATION', source: 'rule:street-address' });
    }
    for (const m of text.matchAll(HOUSE)) {
      const end = postalAddress(text, m.index, m[0], m[1]!.length, this.lists);
      if (end !== undefined) out.push({ start: withUnitBefore(text, m.index), end, category: 'LOCATION', source: 'rule:postal-address' });
    }
    for (const m of text.matchAll(PO_BOX)) out.push({ start: m.index, end: addressLines(text, m.index + m[0].length, true).end, category: 'LOCATION', source: 'rule:postal-address' });
    for (const m of text.matchAll(STREET_FIRST)) {
      // Not a unit line of another address, nor words in capitals (PSC 1437, BP 120).
      const street = m[0].slice(m[1]?.length ?? 0);
      const words = street.split(' ');
      if (matchAt(UNIT_LINE, street, 0) !== null || inCapitals(words[0]!)) continue;
      const typeAfter = matchAt(TYPE_AFTER, text, m.index + m[0].length)?.[0] ?? '';
      const typed = typeAfter !== '' || words.some((w) => streetType(w, this.lists) && !inCapitals(w));
      const lines = addressLines(text, m.index + m[0].length + typeAfter.length, typed);
      // After a locative or "address:", a street named by a word no English list holds is one ("to Sorlaskeid
      // 32", "his address: 76 Stubben 149"), its number no year ("in Munich 1972"). A house number before
      // it needs that place.
      const located = LOCATIVE_BEFORE.test(text.slice(Math.max(0, m.index - 40), m.index)) && CLAUSE_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 8)) && !/ (?:19|20)\d\d\.?$/.test(street);
      const unlisted = located && words.slice(0, -1).some((w) => w.length >= 4 && !inCapitals(w) && !dictionaryWord(normalizeTerm(w), this.lists));
      if ((lines.evidence && (m[1] === undefined || located)) || unlisted) out.push({ start: withUnitBefore(text, m.index), end: lines.end, category: 'LOCATION', source: 'rule:postal-address' });
    }
    for (const m of text.matchAll(INTERSECTION)) {
      // Each street named (a capital, a number or a type written first: "ul. Grochowa 80") where case means something; in capitals or lower case, one needs a number or a street type.
      const named = (part: string) => (/^[\p{Lu}\d]/u.test(part) || LEADING_TYPE.test(part.split(' ')[0]!)) && part.split(' ').length <= 6;
      const addressy = (part: string) => /\d/.test(part) || part.split(' ').some((w) => streetType(w, this.lists));
      if (cased ? named(m[1]!) && named(m[2]!) : addressy(m[1]!) || addressy(m[2]!)) out.push({ start: m.index, end: m.index + m[0].length, category: 'LOCATION', source: 'rule:street-address' });
    }
    // An address its street already found comes again; detectDirect keeps the longest of overlapping detections.
    for (const m of text.matchAll(UNIT_ALONE)) {
      const [start, end] = unitAnchoredAddress(text, m);
      out.push({ start, end, category: 'LOCATION', source: 'rule:postal-address' });
    }
    if (cased) {
      for (const m of text.matchAll(NAMED_STREET)) {
        const names = m[1]!.trim().split(' ');
        if (names.every((n) => GENERIC.has(n.toLowerCase()))) continue;
        out.push({ start: m.index, end: m.index + m[0].length, category: 'LOCATION', source: 'rule:street-address' });
      }
    }
    if (cased) this.landmarks(text, words, out);
    for (const m of text.matchAll(DATELINE)) {
      // A dateline's city and its region after a comma. A listed place of two words or more (NEW YORK,
      // United Arab Emirates) or of one that is no everyday English word; not READING alone, whose term
      // would protect every "reading". A city no list holds (AL-AIN) only with a listed region or the agency
      // after it: a note's history line puts a procedure before its date ("CABG 2094-03-12"). A region may
      // be a state's abbreviation (Fla.).
      const inList = (part: string) => this.lists.places.has(part.split(/[ \t]+/).map((w) => normalizeTerm(w)).join(' '));
      const listed = (part: string) => inList(part) && (/[ \t]/.test(part) || !this.lists.everydayWords.has(normalizeTerm(part)));
      const [, city, region, agency] = m;
      const regionListed = region !== undefined && (listed(region) || /^\p{Lu}[\p{Ll}.]*\.$/u.test(region));
      const unlisted = city!.split(/[ \t]+/).every((w) => !commonWord(normalizeTerm(w), this.lists));
      const start = m.index + m[0].indexOf(city!);
      const regionAt = regionListed ? m.index + m[0].indexOf(region!, m[0].indexOf(city!) + city!.length) : -1;
      const regionEnd = regionAt + (region?.replace(/\.$/, '').length ?? 0);
      if (!listed(city!) && !(unlisted && (regionListed || agency !== undefined))) {
        // A listed city that is an everyday word before its listed region (NICE , France; BATH , England):
        // the region stays in the term, which protects "nice, france", never every "nice".
        if (regionListed && inList(city!)) out.push({ start, end: regionEnd, category: 'LOCATION', source: 'context:dateline' });
        continue;
      }
      out.push({ start, end: start + city!.length, category: 'LOCATION', source: 'context:dateline' });
      if (regionListed) out.push({ start: regionAt, end: regionEnd, category: 'LOCATION', source: 'context:dateline' });
    }
    for (const m of text.matchAll(UNIVERSITY_OF)) {
      // "University of Maryland", "U OF MD": a listed place of one or two words, or a state code in capitals.
      const [first, second] = m[1]!.split(' ');
      const place = [second === undefined ? undefined : `${first} ${second}`, first!].find((p) => p !== undefined && (this.lists.places.has(normalizeTerm(p)) || (/^[A-Z]{2}$/.test(p) && this.lists.stateCodes.has(p))));
      if (place !== undefined) out.push({ start: m.index, end: m.index + m[0].length - m[1]!.length + place.length, category: 'LOCATION', source: 'rule:facility' });
    }
    for (const m of text.matchAll(LIVES_IN_STATE)) {
      // The preposition stays in the term ("in dc"): DC is also discontinued.
      if (this.lists.stateCodes.has(m[1]!)) out.push({ start: m.index + m[0].indexOf(' ') + 1, end: m.index + m[0].length, category: 'LOCATION', source: 'context:place' });
    }
    for (const m of text.matchAll(MILITARY)) out.push({ start: m.index, end: m.index + m[0].length, category: 'LOCATION', source: 'rule:postal-address' });
    for (const d of out.filter((x) => x.source === 'rule:postal-address' || x.source === 'rule:street-address')) {
      const before = text.slice(Math.max(0, d.start - 40), d.start);
      const corner = CORNER_BEFORE.exec(before);
      if (corner !== null) out.push({ ...d, start: d.start - before.length + corner.index });
    }
    return out;
  }

  /**
   * The place name whose first word is `words[i]`, where case means something: up to four words a space
   * apart, capitalised, or particles inside ("Villafranca del Cid"). Where it ends, and whether a word of
   * it is one no list holds (`Store Merløse`, not `Mill Village`), the evidence where no context names it
   * a place.
   */
  private placeName(text: string, words: readonly TextWord[], i: number): { end: number; unlisted: boolean } | undefined {
    let end: number | undefined;
    let unlisted = false;
    for (let j = i; j < words.length && j - i < 4 && (j === i || oneSpace(text, words[j - 1]!, words[j]!)); j++) {
      const x = words[j]!;
      const surface = text.slice(x.start, x.end);
      // A weekday or a month after it is when, not part of where: "in Gaza on Tuesday".
      if (CALENDAR.has(x.key)) break;
      if (unlistedProperNoun(text, x, this.lists) || this.unlistedInCapitals(text, x)) unlisted = true;
      else if (j > i && !x.capital && PARTICLE_WORD.test(surface)) continue;
      else if (!properShape(surface)) break;
      end = x.end;
    }
    return end === undefined ? undefined : { end, unlisted };
  }

  /**
   * A named geographic feature or landmark, where case means something: a feature word after its name
   * ("Hudson River", "Orange County", "Wembley Stadium") or before it ("Lake Geneva", "Mount Kosciuszko",
   * "River Thames"), written as names. One name word at least is no common English word, or a nationality
   * (Korean Peninsula), so that a title in capitals ("Nursing Station", "Mental State") is none; or, with a
   * feature of the land or the sea ({@link GEOGRAPHIC}), a single common word inside a sentence (Kangaroo
   * Island, Mt Cook) whose neighbours are not written as names. The feature stays in the term.
   */
  private landmarks(text: string, words: readonly TextWord[], out: Detection[]): void {
    const named = (k: number) => k >= 0 && k < words.length && properShape(text.slice(words[k]!.start, words[k]!.end)) && !FEATURE_AFTER.has(words[k]!.key) && !FEATURE_BEFORE.has(words[k]!.key);
    // A nationality names a place's feature as well as a word no list holds: Korean Peninsula, Arabian Sea.
    const distinctive = (k: number) => !this.lists.commonWords.has(words[k]!.key) || this.lists.nationalities.has(words[k]!.key);
    const spaced = (a: number, b: number) => oneSpace(text, words[a]!, words[b]!);
    // One pair alone inside a sentence: no word beside it, a space apart, is written as a name.
    const alonePair = (a: number, b: number) => spaced(a, b) && !sentenceStart(text, words[a]!) && !(a > 0 && words[a - 1]!.capital && spaced(a - 1, a)) && !(b + 1 < words.length && words[b + 1]!.capital && spaced(b, b + 1));
    // Whether the name words from..to beside the feature name a place with it.
    const namesPlace = (feature: number, from: number, to: number) =>
      words.slice(from, to + 1).some((_, k) => distinctive(from + k)) || (from === to && (GEOGRAPHIC.has(words[feature]!.key) || (feature > to && GEOGRAPHIC_AFTER.has(words[feature]!.key))) && alonePair(Math.min(feature, from), Math.max(feature, from)));
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (!w.capital) continue;
      if (FEATURE_AFTER.has(w.key)) {
        let j = i;
        while (j > 0 && i - j < 3 && named(j - 1) && spaced(j - 1, j)) j--;
        if (j < i && namesPlace(i, j, i - 1)) out.push({ start: words[j]!.start, end: w.end, category: 'LOCATION', source: 'rule:landmark' });
      }
      if (FEATURE_BEFORE.has(w.key)) {
        let j = i;
        while (j + 1 < words.length && j - i < 3 && named(j + 1) && spaced(j, j + 1)) j++;
        if (j > i && namesPlace(i, i + 1, j)) out.push({ start: w.start, end: words[j]!.end, category: 'LOCATION', source: 'rule:landmark' });
      }
    }
  }

  /**
   * "US", where case means something, as the country: after "the" (`the US`), or before the word it
   * qualifies (`US officials`, `US President`), which stays in the term, since a term applies everywhere
   * and "us" is a word; not before what an ultrasound does ({@link ULTRASOUND_ACTS}), nor before what it
   * looks at, the pronoun's words ({@link PRONOUN_AFTER_US}) or in a run of capitals.
   */
  private us(text: string, words: readonly TextWord[], out: Detection[]): void {
    const capitals = (k: number) => k >= 0 && k < words.length && inCapitals(text.slice(words[k]!.start, words[k]!.end));
    const spaced = (a: number, b: number) => a >= 0 && b < words.length && oneSpace(text, words[a]!, words[b]!);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      // US alone, or the first part of a word: the US-led coalition, the US's allies.
      const surface = text.slice(w.start, w.end);
      if (surface !== 'US' && !/^US(?:-|['’]s$)/.test(surface)) continue;
      const next = spaced(i, i + 1) ? words[i + 1] : undefined;
      if (next !== undefined && ULTRASOUND_ACTS.has(next.key)) continue;
      if (spaced(i - 1, i) && words[i - 1]!.key === 'the' && !capitals(i - 1)) out.push({ start: words[i - 1]!.start, end: w.end, category: 'LOCATION', source: 'context:country-short' });
      if (surface === 'US' && next !== undefined && !PRONOUN_AFTER_US.has(next.key) && !ULTRASOUND_SITES.has(next.key) && !(capitals(i - 1) && spaced(i - 1, i)) && !capitals(i + 1)) out.push({ start: w.start, end: next.end, category: 'LOCATION', source: 'context:country-short' });
    }
  }

  /**
   * Which part of a country, in brackets after it: a point of the compass, a nationality or a listed city
   * ("Korea (South)", "Cyprus (Greek)", "Congo (Kinshasa)"), not a person ("Kenya (John Mwangi)").
   */
  private qualifier(after: string): RegExpExecArray | null {
    const m = COUNTRY_QUALIFIER.exec(after);
    const key = m === null ? '' : normalizeTerm(m[1]!);
    return m !== null && (COMPASS.has(key) || this.lists.nationalities.has(key) || this.lists.places.has(key)) ? m : null;
  }

  /**
   * The end of the small town ({@link PublicLists.towns}) of up to three words a space apart that starts
   * at `words[i]`, the longest; where case means something, written as a name or in capitals, but for the
   * particles inside it (Bělá pod Bezdězem).
   */
  private town(text: string, words: readonly TextWord[], i: number, cased: boolean): number | undefined {
    let end: number | undefined;
    let key = '';
    for (let j = i; j < words.length && j - i < 3 && (j === i || oneSpace(text, words[j - 1]!, words[j]!)); j++) {
      const x = words[j]!;
      const surface = text.slice(x.start, x.end);
      if (cased && !x.capital && !(j > i && PARTICLE_WORD.test(surface))) break;
      key = j === i ? x.key : `${key} ${x.key}`;
      if (this.lists.towns.has(key) && (!cased || !PARTICLE_WORD.test(surface))) end = x.end;
    }
    return end;
  }

  /**
   * A word in capitals of six letters or more that no English, name or clinical list holds: BÜSCHENDORF,
   * SAINT-DIÉ (one part of five letters at least), not ICU, DNR or GI-ABD.
   */
  private unlistedInCapitals(text: string, w: TextWord): boolean {
    const c = classify(w, this.lists);
    return inCapitals(text.slice(w.start, w.end)) && w.key.length >= 6 && w.key.split('-').some((part) => part.length >= 5) && c.unknown && !c.name && !/\d/.test(text.charAt(w.end));
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
    const common = i - j === 1 && (dictionaryWord(words[j]!.key, this.lists) || words[j]!.key.length < 3);
    // A facility word that names ("Sacred Heart Memorial", "Mercy General") belongs to the name.
    const naming = NAMING_FACILITY.has(words[i]!.key) && !(i + 1 < words.length && FACILITY.has(words[i + 1]!.key) && adjacent(text, words[i]!, words[i + 1]!));
    // The facility words after the name belong to its mention ("Royal Sussex County Hospital", "Mercy Med
    // Ctr"), protected where written with it, the name alone a term wherever it recurs: on one line,
    // capitalised where case means something, ending on a facility word (not "Hospital\nHospital Course",
    // "Mercy Clinic med list", nor the saint of the next name, "Mercy Hospital St. Louis").
    let last = i;
    const joins = (k: number) => FACILITY_WORDS.has(words[k]!.key) && (!cased || words[k]!.capital) && adjacent(text, words[k - 1]!, words[k]!) && !text.slice(words[k - 1]!.end, words[k]!.start).includes('\n');
    while (last + 1 < words.length && joins(last + 1)) last++;
    while (last > i && !FACILITY.has(words[last]!.key)) last--;
    if (j < i) {
      const end = words[common || naming ? i : i - 1]!.end;
      out.push({ start: words[j]!.start, end, category: 'LOCATION', source: 'rule:facility', ...(words[last]!.end > end && { mention: { start: words[j]!.start, end: words[last]!.end } }) });
    }
    // "Memorial Hospital": a naming facility word before another facility word is the name.
    else if (NAMING_FACILITY.has(words[i]!.key) && i + 1 < words.length && FACILITY.has(words[i + 1]!.key) && adjacent(text, words[i]!, words[i + 1]!)) {
      out.push({ start: words[i]!.start, end: words[i]!.end, category: 'LOCATION', source: 'rule:facility' });
    }
  }
}
