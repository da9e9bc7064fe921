import { isClinicalWord } from './clinicalWords.js';
import { isMisspelling, publicLists, type PublicLists } from './publicLists.js';
import { SURNAME_SOURCE, type Detection, type Recognizer } from './recognizer.js';
import { adjacent, dictionaryWord, inCapitals, oneSpace, properShape, readWords, sentenceStart, shortensCommonWord, unlistedProperNoun, type TextWord, type WordClass, type WordReading } from './words.js';

/**
 * Capitals that stand for a first name wherever written; the others (A, O, P, S, R, L, T, W, X, I) are also
 * shorthand in notes (SOAP headings, sides, "w/"), initials only where more says so.
 */
const INITIAL_LETTER = /^[B-HJKMNQUVYZ]$/;
/**
 * Whether a shorthand letter at `initial` is an initial by where it stands, the name ending at `nameEnd`:
 * after a bracket, a comma or a semicolon with a figure or a bracket after the name, or after a place in a
 * list that opens a line, as scorecards and results write them ("( A. Kumble 4-73 , S. Tendulkar 12 )",
 * "1. S. Zorblat"). Not a germ in a list ("CHF, P. Aeruginosa, S. Aureus") nor a letter after a figure
 * ("WBC 12. P.").
 */
function initialInList(text: string, initial: number, nameEnd: number): boolean {
  const before = (initial < 5 ? '\n' : '') + text.slice(Math.max(0, initial - 5), initial);
  return /\n\d{1,2}\. $/.test(before) || (/(?:\( ?|[,;] )$/.test(before) && /^ ?[\d()]/.test(text.slice(nameEnd, nameEnd + 2)));
}

/** Particles inside a surname, in lower case: van Gijn, van de Noort, de Gaulle, da Vinci, bin Salman. */
const NAME_PARTICLES = new Set(['van', 'von', 'de', 'der', 'den', 'da', 'di', 'del', 'della', 'dos', 'das', 'du', 'la', 'le', 'ten', 'ter', 'bin', 'ibn', 'al', 'el', 'zu']);
const TITLES = new Set(['dr', 'drs', 'doctor', 'mr', 'mrs', 'ms', 'miss', 'mister', 'prof', 'professor', 'rev']);
/** A title that is also a clinical abbreviation (MS: mental status) counts only with a period or a capital in mixed case. */
const AMBIGUOUS_TITLES = new Set(['ms']);
/** Roles written before a name ("IV nurse Virginia Sallese", "caseworker Leona Labowich"): a listed name must follow. */
const ROLES_BEFORE = new Set(['np', 'nurse', 'caseworker', 'chaplain', 'pharmacist', 'therapist', 'coordinator', 'surgeon', 'physician', 'attending', 'resident', 'intern', 'fellow', 'cardiologist', 'pcp']);
const RELATIONS = new Set([
  'wife', 'husband', 'spouse', 'partner', 'fiance', 'fiancee', 'daughter', 'daughters', 'dtr', 'son', 'sons', 'sister', 'sisters', 'brother', 'brothers',
  'mother', 'mom', 'father', 'dad', 'niece', 'nephew', 'grandson', 'granddaughter', 'grandaughter', 'grandchild', 'aunt', 'uncle', 'cousin', 'friend',
  'neice', 'neighbor', 'neighbour', 'proxy', 'hcp', 'guardian', 'daughter-in-law', 'son-in-law', 'dtr-in-law', 'sister-in-law', 'brother-in-law', 'boyfriend', 'girlfriend',
]);
/**
 * Offices and ranks written before a name as part of it, in news and correspondence ("President Obama",
 * "Pope Francis", "Senator Bushby", "Sir Alex Ferguson"): capitalised, before a listed first name or a word
 * that is no common English word (not "General Medicine", though Medicine is a listed surname). Not cues:
 * King, Lady and General are also surnames and first names.
 */
const OFFICES = new Set([
  'president', 'pope', 'senator', 'sen', 'governor', 'gov', 'mayor', 'minister', 'chancellor', 'premier', 'sir', 'lord', 'lady', 'dame', 'prince', 'princess', 'duke', 'duchess',
  'queen', 'king', 'emperor', 'empress', 'sultan', 'sheikh', 'ayatollah', 'cardinal', 'bishop', 'archbishop', 'general', 'gen', 'colonel', 'col', 'captain', 'capt', 'lieutenant',
  'lt', 'sergeant', 'sgt', 'admiral', 'commander', 'judge', 'justice', 'rep', 'congressman', 'congresswoman', 'councillor', 'councilman', 'ambassador', 'coach', 'detective', 'inspector', 'constable',
  'leader', 'secretary', 'speaker', 'chairman', 'chairwoman', 'treasurer', 'commissioner', 'sheriff', 'prosecutor', 'rabbi', 'imam',
]);
/**
 * A peer named by title and territory: "Duke of Cambridge", "the Duke and Duchess of Cambridge", "Earl of
 * Wessex". One person (or couple) holds each, so the title is the name.
 */
const PEERAGE_TITLES = new Set(['duke', 'duchess', 'prince', 'princess', 'earl', 'countess', 'marquess', 'marchioness', 'viscount', 'viscountess', 'baron', 'baroness']);
const PEER = [...PEERAGE_TITLES].map((t) => t[0]!.toUpperCase() + t.slice(1)).join('|');
const PEERAGE = new RegExp(String.raw`^(?:(?:${PEER})\s+and\s+)?(?:${PEER})\s+of\s+(?:the\s+)?\p{Lu}[\p{L}'’]+(?:[ -](\p{Lu}[\p{L}'’]+))?(?![\p{L}])`, 'u');
/**
 * Words that name things beside a person's name: Quigley Hospital, Parkinson Disease, Smith Street. Not
 * every word that ends a place's name (the place recogniser's facility and feature words): a name beside
 * Manor, Memorial or Square still makes a pair here, a term that protects the facility or place too
 * (taking the place recogniser's words cost 3.6 points of the locations of the PhysioNet patients no rule
 * was read on).
 */
const BESIDE_NAMES = new Set(['hospital', 'clinic', 'center', 'centre', 'street', 'road', 'avenue', 'county', 'river', 'lake', 'university', 'college', 'school', 'syndrome', 'disease', 'sign', 'test', 'score', 'scale', 'company', 'inc', 'corp', 'group', 'party', 'foundation', 'institute', 'award', 'prize', 'cup', 'park', 'hall', 'house', 'building', 'unit', 'ward', 'the', 'and', 'of', 'in', 'on', 'at', 'to', 'for', 'a', 'an']);
/** Credentials written after a name ("Edward C. Jones, RRT"). */
const ROLES = new Set(['rn', 'md', 'np', 'rrt', 'lpn', 'cna', 'msw', 'licsw', 'lcsw', 'pharmd', 'phd', 'bsn', 'crnp', 'aprn']);
/** Written after a name as part of how a person is named: credentials and generations ("Jr.", "III"; not IV, intravenous). */
const AFTER_NAMES = new Set([...ROLES, 'dds', 'dmd', 'dvm', 'esq', 'jr', 'sr', 'ii', 'iii']);
/** Credentials written with their period, after which another may follow ("Jr., PhD"); after any other word a period ends the sentence. */
const WITH_PERIOD = new Set(['jr', 'sr', 'esq']);
/** Whether word `w` is a title where it stands: MS (mental status) only with a period or a capital in mixed case. */
const titleAt = (w: TextWord, text: string, cased: boolean) => TITLES.has(w.key) && (!AMBIGUOUS_TITLES.has(w.key) || text[w.end] === '.' || (cased && w.capital));
/** Every word that announces a name: it is not one itself. */
const CUES = new Set([...TITLES, ...RELATIONS, ...ROLES, ...ROLES_BEFORE]);
/** What the care team does, right after a name: "N. GRANDONE AWARE", "J SMITH ORDERED EPI". */
const CARE_ACT_AFTER = /^\s+(?:aware|notified|paged|ordered|informed|called|updated|contacted|made\s+aware)\b/i;
/** Verbs whose subject is a person, right after a name: "Tanner said", "Bill is so right". */
const PERSON_VERBS = new Set([
  'said', 'says', 'told', 'tells', 'thinks', 'thought', 'wants', 'wanted', 'loves', 'loved', 'hates', 'knows', 'knew', 'married', 'likes', 'feels', 'felt', 'believes', 'asked', 'asks',
  'replied', 'admitted', 'agreed', 'argued', 'claimed', 'explained', 'insisted', 'wrote', 'tweeted', 'posted', 'smiled', 'laughed', 'cried', 'died', 'scored',
  'is', 'was', 'has', 'had', 'will', 'would', 'can', 'could', 'did', 'does', 'continues', 'made', 'looks',
  'states', 'stated', 'reports', 'reported', 'denies', 'denied',
]);
/** Letters that are units after a figure (degrees C and F, joules, kelvins), not initials: "40 degrees C. Younger", "30 J. No". */
const UNIT_LETTER = /^[CFJK]$/;
/** A figure or a degree right before a letter, on its line. */
const UNIT_BEFORE = /(?:\d|°|\bdegrees?)[ \t]*$/i;
/** Greetings and thanks right before the name of the one they are for. */
const GREETING_BEFORE = /(?<![\p{L}])(hi|hey|hello|hiya|thanks|thank\s+you|thx|dear|congrats|congratulations|happy\s+birthday|good\s+job|well\s+done|love\s+you|miss\s+you|bye)[ \t]*,?[ \t]+$/iu;
/** Words of endearment and address after a greeting that the name lists also hold ("Hi Honey", "Thanks Buddy"). */
const ENDEARMENTS = new Set(['man', 'buddy', 'honey', 'sunshine', 'angel', 'love', 'nana', 'granny', 'babe', 'baby', 'darling', 'sweetie', 'dude', 'bro', 'mate', 'pal', 'sir', 'madam', 'girl', 'boy', 'guys', 'folks', 'friend', 'doc', 'champ', 'chief', 'boss']);
/** Seasons: first names too (Summer, Autumn), and what a sentence about the weather starts with (months and days are clinical words). */
const SEASONS = new Set(['spring', 'summer', 'autumn', 'winter']);
/** Words that introduce a name: "my name is", "named him", "called", "Name:". */
const NAMING = /(?:\bname\s+is|\bnamed(?:\s+(?:him|her|it|them))?|\bcalled|\bcalls?\s+me|\bname\s*:|\bi\s+am|\bi'm|\bthis\s+is)\s+$/i;
/** The source of a capitalised word no list holds. */
export const UNKNOWN_PROPER_NOUN = 'context:unknown-proper-noun';
/** The source of a listed surname that is a word too, standing alone written as a name ("a goal from Shearer"). */
export const LISTED_SURNAME = 'context:listed-surname';
/**
 * The sources whose only evidence is how a word is written: its capital, or its place as the last word of
 * a full name. A word someone writes in lower case where case means something ({@link caseEvidence}) is
 * no name for them: a blacklist build, and protection from one's own text, drop them as its sources
 * ("Gordon Brown" makes no term of every brown where notes write "brown stool"), but for a listed name
 * written as one more often than in lower case (the build's `dropCapitalEvidence`).
 */
export const CAPITAL_ONLY_SOURCES: ReadonlySet<string> = new Set([UNKNOWN_PROPER_NOUN, LISTED_SURNAME, SURNAME_SOURCE]);

/** What the case of a text's words tells a blacklist build about them (see {@link caseEvidence}). */
export interface CaseEvidence {
  /**
   * Words written in lower case where case means something, evidence against a name wherever else they
   * are capitalised: a word no list holds (of four letters or more) is no proper noun (a drug at the start
   * of a sentence), an English word no name ("records" beside "Lantern Records").
   */
  inLowerCase: string[];
  /**
   * English words ({@link dictionaryWord}) that may be names here: all of them where case means nothing
   * (a note in capitals, a text in lower case), else those written with a capital inside a sentence (Harbor,
   * Rose). An English word used by few people is an indirect identifier only so, and only if no one wrote
   * it in lower case.
   */
  wordsAsNames: string[];
  /** Whether case means something in the text ({@link caseInformative}): where a capital is a writer's choice. */
  cased: boolean;
}

/** One pass over a text's words for both kinds of case evidence a build collects from every document. */
export function caseEvidence(text: string, lists: PublicLists = publicLists()): CaseEvidence {
  const { words, cased } = readWords(text, lists);
  const out: CaseEvidence = { inLowerCase: [], wordsAsNames: [], cased };
  for (const w of words) {
    const dictionary = dictionaryWord(w.key, lists);
    if (dictionary && (!cased || (w.capital && !sentenceStart(text, w)))) out.wordsAsNames.push(w.key);
    else if (cased && !w.capital && (dictionary || w.key.length >= 4)) out.inLowerCase.push(w.key);
  }
  return out;
}

/** Labels of a form or a chat turn that are no speaker's name. */
const FIELD_LABELS = new Set(['bot', 'user', 'agent', 'customer', 'assistant', 'system', 'operator', 'host', 'guest', 'fax', 'tel', 'email', 'e-mail', 'web', 'note', 'subject', 'attn', 'cc', 'bcc']);
/** Prepositions, articles and conjunctions, which some name lists hold (In, Or, An): never half of a pair of names. */
const PAIR_STOPS = new Set(['and', 'or', 'the', 'a', 'an', 'in', 'at', 'to', 'of', 'is', 'was', 'with', 'by', 'for', 'on', 'not', 'as', 'from', 'into']);
/** Words that follow a title or a relation without being a name. */
const NOT_NAMES = new Set([...PAIR_STOPS, 'per', 'has', 'had', 'will', 'who', 'also', 'aware', 'here', 'none', 'called', 'came', 'visited', 'notified', 'updated']);

/**
 * Whether a word may be part of a name in context (after a title, a relation, before a credential): an
 * initial, a listed name or a word in no English list, not a common word unless capitalised in mixed case.
 * After a title a listed name counts in lower case too ("dr green aware"): the title stays in the term.
 * A title or credential is no part of the name it announces ("Mr. Ryan Bagy MD" is Ryan Bagy); a relation
 * word may be a surname after a title ("Dr. Friend").
 */
function nameWord(w: TextWord, c: WordClass, text: string, cased: boolean, afterTitle = false): boolean {
  if (NOT_NAMES.has(w.key) || TITLES.has(w.key) || ROLES.has(w.key)) return false;
  if (w.end - w.start === 1) return text[w.end] === '.' || /^\s+\p{L}/u.test(text.slice(w.end, w.end + 3));
  if (cased && !w.capital && !(afterTitle && c.name && !isClinicalWord(w.key))) return false;
  // Right after a title in a text in capitals, a less frequent word too ("DR TYRO"): not an everyday word
  // ("DR WILL"), nor a verb's past or participle ("DR APPRISED", "I MISS TEXTING"), nor common words
  // joined by a hyphen ("DR FOLLOW-UP").
  const lessFrequent = afterTitle && !cased && inCapitals(text.slice(w.start, w.end)) && !c.everyday && !(w.key.includes('-') && c.common) && !isClinicalWord(w.key) && !/(?:ed|ing)$/.test(w.key);
  return c.name || !c.common || (cased && w.capital) || lessFrequent;
}

/**
 * Person names, needing no list from the user: the bundled census and Moby name lists (see
 * {@link publicLists}), ignoring case, since much clinical text is typed in capitals.
 * - A listed name that is no English word is a name anywhere (`list:names`).
 * - A name that is also a word (Rose, Will, Baker) is one only in context: after a title (Dr, Mrs:
 *   `context:title`), after a relative or proxy ("daughter Thelma": `context:relation`), before a credential
 *   ("Jones, RN": `context:role`), or next to an unambiguous name ("Frances Baker": `context:first-last`).
 * - In lower case or capitals, a listed first name, an initial if any, and a surname no list holds
 *   ("olga krylova": `context:first-last`); someone spoken to ("Don't go, Mark!": `context:vocative`);
 *   listed names in a list of names ("Kónya, Becker and White": `context:name-list`).
 * - As news writes names: an office before one ("President Obama": `context:office`), a peer's title and
 *   territory ("Duke of Cambridge": `context:office`), an unambiguous name
 *   beside any word written as a name ("Desmond Tutu": `context:first-last`), a surname the text named
 *   in full, again alone ("Shearer said": `context:surname-again`), and a first name before what a person
 *   does ("Nick is", "Tanner said": `context:subject`).
 * In a text that uses case, an unlisted word after a title must be capitalised to count.
 */
export class NameRecognizer implements Recognizer {
  readonly name = 'names';
  constructor(private readonly lists: PublicLists = publicLists()) {}

  find(text: string): Detection[] {
    const reading = readWords(text, this.lists);
    const { words, classes, cased } = reading;
    const out: Detection[] = [];
    /**
     * Words from..to are a name. Found by a cue before (cue < from) or after (cue > to): when one of them
     * is a common word (Dr. Given, Mrs. Rose), the cue is kept in the detection, so that the term a
     * blacklist applies everywhere is "dr given", not every "given".
     */
    const emit = (from: number, to: number, source: string, cue?: number) => {
      if (to < from) return;
      const common = cue !== undefined && classes.slice(from, to + 1).some((x) => x.common);
      const a = common && cue! < from ? cue! : from;
      const b = common && cue! > to ? cue! : to;
      out.push({ start: words[a]!.start, end: words[b]!.end, category: 'PERSON', source });
    };
    /** The name words that follow word i, adjacent to each other, at most three; the last index taken. */
    const following = (i: number, gap: RegExp, afterTitle = false): number => {
      let j = i;
      while (j + 1 < words.length && j - i < 3 && gap.test(text.slice(words[j]!.end, words[j + 1]!.start)) && nameWord(words[j + 1]!, classes[j + 1]!, text, cased, afterTitle && j === i)) {
        j++;
        // A period inside a name only after an initial ("J. Smith"): after a word it ends the sentence.
        gap = words[j]!.end - words[j]!.start === 1 ? /^\s*\.?\s*$/ : /^[ \t]*$/;
      }
      // A name does not end in an initial.
      while (j > i && words[j]!.end - words[j]!.start === 1) j--;
      return j;
    };
    // The halves of a pair of words written as names (the rules below), made once per text, not per word.
    /** A capitalised word of a pair that is no common word, cue, run of capitals or contraction. */
    const unlistedHalf = (x: WordClass, y: TextWord) => !x.common && !CUES.has(y.key) && y.capital && y.key.length > 2 && !inCapitals(text.slice(y.start, y.end)) && !/['’]/.test(y.key);
    const named = (y: TextWord) => properShape(text.slice(y.start, y.end)) && !CUES.has(y.key) && !isClinicalWord(y.key);
    /** An unambiguous name, listed or in no list, written as one; no common word, so no nationality either. */
    const unambiguousHalf = (x: WordClass, y: TextWord) => named(y) && !inCapitals(text.slice(y.start, y.end)) && ((x.name && !x.common && y.key.length > 3) || unlistedProperNoun(text, y, this.lists));
    /** Any word written as a name beside it, two letters too (Ed Miliband, Al Gore), but none that names things beside a name. */
    const otherHalf = (y: TextWord) => (named(y) || (/^\p{Lu}\p{Ll}$/u.test(text.slice(y.start, y.end)) && !CUES.has(y.key))) && !inCapitals(text.slice(y.start, y.end)) && !BESIDE_NAMES.has(y.key);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const c = classes[i]!;
      if (titleAt(w, text, cased)) emit(i + 1, following(i, /^\.?\s*$/, !AMBIGUOUS_TITLES.has(w.key)), 'context:title', i);
      else if (cased && OFFICES.has(w.key) && properShape(text.slice(w.start, w.end)) && i + 1 < words.length && /^\.? $/.test(text.slice(w.end, words[i + 1]!.start)) && (classes[i + 1]!.first || !classes[i + 1]!.common) && !isClinicalWord(words[i + 1]!.key)) {
        // The office stays in the term: it is part of how the person is named, and "General Medicine" is no name.
        const j = following(i, /^\.? $/);
        if (j > i) out.push({ start: w.start, end: words[j]!.end, category: 'PERSON', source: 'context:office' });
      }
      else if (RELATIONS.has(w.key) || ROLES_BEFORE.has(w.key)) {
        const j = following(i, /^\s*[,:(-]?\s*$/);
        // Many words follow a relation; a name there is listed, in no English list, or capitalised where case means something.
        if (classes.slice(i + 1, j + 1).some((x, k) => x.name || (x.unknown && RELATIONS.has(w.key)) || (cased && words[i + 1 + k]!.capital))) emit(i + 1, j, 'context:relation', i);
      } else if (c.name && !c.common && w.key.length > 3 && (c.unknown || !cased || w.capital)) {
        // A rarer English word (Bowman) that is a name needs a capital where case means something.
        emit(i, i, 'list:names');
      } else if (cased && c.first && c.unknown && w.key.length === 3 && properShape(text.slice(w.start, w.end)) && !sentenceStart(text, w)) {
        // A first name of three letters in no English list (Ian, Sam, Zoe) only written as a name inside a
        // sentence: in capitals or at a sentence's start such short words are as often abbreviations.
        emit(i, i, 'list:names');
      }
      if (cased && PEERAGE_TITLES.has(w.key)) {
        const peer = PEERAGE.exec(text.slice(w.start, w.start + 80));
        // A word naming a thing after the territory is no part of the title: "Prince of Wales Hospital".
        const length = peer === null ? 0 : peer[0].length - (peer[1] !== undefined && BESIDE_NAMES.has(peer[1].toLowerCase()) ? peer[1].length + 1 : 0);
        if (length > 0) out.push({ start: w.start, end: w.start + length, category: 'PERSON', source: 'context:office' });
      }
      // A credential (NP is a role before a name too): "Jones, RN", a signature line ending in it, or two
      // name words before it, one listed and one in no English list ("per Warren Kavaliunas NP patent").
      if (ROLES.has(w.key) && i > 0 && /^\s*,\s*$|^\s+$/.test(text.slice(words[i - 1]!.end, w.start))) {
        let j = i - 1;
        while (j >= 0 && i - j <= 3 && nameWord(words[j]!, classes[j]!, text, cased) && (j === i - 1 || adjacent(text, words[j]!, words[j + 1]!))) j--;
        const run = classes.slice(j + 1, i);
        const cue = text[words[i - 1]!.end] === ',' || /^\s*(\n|$)/.test(text.slice(w.end)) || (run.length >= 2 && run.some((x) => x.unknown));
        if (cue && run.some((x) => x.name)) emit(j + 1, i - 1, 'context:role', i);
      }
      // Where case means something, two adjacent capitalised words, one in no English list and the other
      // in none or a listed name (Johannes Varvio, Szabina J. Gelencsér): the names no list holds. Words
      // in capitals (ABG, IBM) and contractions are not.
      if (cased && i > 0 && /^ +$/.test(text.slice(words[i - 1]!.end, w.start))) {
        const p = classes[i - 1]!;
        if (unlistedHalf(c, w) && unlistedHalf(p, words[i - 1]!) && ((c.unknown && (p.unknown || p.name)) || (p.unknown && c.name))) emit(i - 1, i, 'context:proper-noun');
        // A listed first name before a proper noun no list holds (Martin Koughan, Mark Rutte), or such a
        // noun before a listed last name (Kanye West), however common the listed word: the unlisted noun
        // and the pair are the evidence. Not a common word at a sentence's start, where its capital says
        // nothing ("See Carevue for ABGs").
        const v = words[i - 1]!;
        if ((p.first && named(v) && !(p.common && sentenceStart(text, v)) && unlistedProperNoun(text, w, this.lists)) || (this.lists.lastNames.has(w.key) && named(w) && unlistedProperNoun(text, v, this.lists))) emit(i - 1, i, 'context:first-last');
        // An unambiguous name, listed or in no list, beside a word written as a name, however common
        // (Desmond Tutu, Elon Musk, Newt Gingrich): the other half of the name, not at a sentence's start
        // and not a word that names things beside a name (Parkinson Disease, Quigley Hospital).
        else if ((unambiguousHalf(p, v) && otherHalf(w)) || (otherHalf(v) && !sentenceStart(text, v) && unambiguousHalf(c, w))) emit(i - 1, i, 'context:first-last');
      }
      // An initial before a listed surname: "E. WELSH", "J SMITH"; the initial stays in the term.
      // Without a period the surname must be no common word, unless an act of the care team follows ("J
      // SMITH ORDERED", and then a surname no list holds too: "N. GRANDONE AWARE"). A shorthand letter
      // (one INITIAL_LETTER leaves out) is an initial only where case means something and a period and a listed name that
      // is no common word, written as one, follow ("S. Fleming"). Not a unit after a figure: "40 degrees
      // C. Younger children", "30 J. No".
      const gap = i > 0 ? text.slice(words[i - 1]!.end, w.start) : '';
      const initialBeforeName = (letter: string) => INITIAL_LETTER.test(letter) || (cased && /^\p{Lu}$/u.test(letter) && gap === '. ' && c.name && !c.common && properShape(text.slice(w.start, w.end)) && !/\p{Lu}\. ?$/u.test(text.slice(Math.max(0, words[i - 1]!.start - 3), words[i - 1]!.start)));
      if (i > 0 && words[i - 1]!.end - words[i - 1]!.start === 1 && initialBeforeName(text[words[i - 1]!.start]!) && (gap === '. ' || gap === ' ') && (w.capital || !cased) && !CUES.has(w.key) && !NOT_NAMES.has(w.key) && !(UNIT_LETTER.test(text[words[i - 1]!.start]!) && UNIT_BEFORE.test(text.slice(Math.max(0, words[i - 1]!.start - 9), words[i - 1]!.start)))) {
        const acted = w.key.length >= 3 && (c.name || c.unknown) && CARE_ACT_AFTER.test(text.slice(w.end, w.end + 16));
        if ((c.name && (gap === '. ' || !c.common)) || acted) emit(i - 1, i, 'context:initial');
      }
      // Where case means something, initials with their periods before a name: "T. S. Eliot", "J. R. R.
      // Tolkien", "J. Zorblat": two initials or more, or one before a proper noun no list holds (a listed
      // surname after one initial is the rule above). Each initial stands alone, not a unit after a number
      // (100.9F. Apaced) nor half of N/V; initials written together (J.R.R. Tolkien) only before a name
      // that is no common word, since notes write "85 Y.O. Man" so.
      if (cased && w.capital && !inCapitals(text.slice(w.start, w.end)) && !CUES.has(w.key) && (c.name || unlistedProperNoun(text, w, this.lists))) {
        let j = i;
        let together = false;
        while (j > 0 && i - j < 3 && words[j - 1]!.end - words[j - 1]!.start === 1 && /\p{Lu}/u.test(text[words[j - 1]!.start]!) && /^\. ?$/.test(text.slice(words[j - 1]!.end, words[j]!.start))) {
          const before = text.slice(Math.max(0, words[j - 1]!.start - 2), words[j - 1]!.start);
          if (/(?:^|[\s(])$/.test(before)) j--;
          else if (/\p{Lu}\.$/u.test(before)) {
            together = true;
            j--;
          } else break;
        }
        const initialWord = (k: number) => /(?:^|[\s(])$/.test(text.slice(Math.max(0, words[k]!.start - 1), words[k]!.start));
        if (j < i && initialWord(j) && ((i - j >= 2 && !(together && c.common)) || (i - j === 1 && !c.name && (INITIAL_LETTER.test(text[words[j]!.start]!) || initialInList(text, words[j]!.start, w.end))))) emit(j, i, 'context:initial');
      }
      // A middle initial between two capitalised words: "Szabina J Gelencsér", "Karin M. Beike". The words
      // around it need no list: the pattern is the evidence (cues and words in capitals excepted).
      if (cased && i >= 1 && w.end - w.start === 1 && /\p{Lu}/u.test(text[w.start]!) && i + 1 < words.length) {
        const [f, l] = [words[i - 1]!, words[i + 1]!];
        const proper = (y: TextWord) => y.capital && y.key.length > 1 && !CUES.has(y.key) && !inCapitals(text.slice(y.start, y.end));
        if (proper(f) && proper(l) && oneSpace(text, f, w) && /^\.? $/.test(text.slice(w.end, l.start))) emit(i - 1, i + 1, 'context:middle-initial');
      }
      // Named in so many words: "my name is Siiri", "named him Frank", "called Ubul", "Name: Jo Ann".
      if (NAMING.test(text.slice(Math.max(0, w.start - 16), w.start)) && (c.name || c.unknown) && w.key.length > 2 && !CUES.has(w.key) && !NOT_NAMES.has(w.key) && (cased ? properShape(text.slice(w.start, w.end)) : !c.common)) emit(i, following(i, /^$/), 'context:naming');
      // A capitalised word no list holds, where case means something: a proper noun, and in a record most
      // often a person's name (Tomomi, Dzhambek). Not in capitals (ICU), not a shortened word (Misc), not a
      // typo at the start of a sentence (Recieved). Inside a sentence the capital is the writer's choice, so
      // a name a letter or two from a word (Matej, Glyceria) stays a name there.
      else if (cased && unlistedProperNoun(text, w, this.lists) && !(sentenceStart(text, w) && isMisspelling(w.key))) {
        emit(i, i, UNKNOWN_PROPER_NOUN);
      }
      // A speaker's name at the start of a line, before a colon and words: "Halldór: What a wife." A listed
      // first name or a word in no English list; headings are common words (Plan:), capitals (GI:) or
      // shortened words (Misc:, Soc:).
      if (cased && properShape(text.slice(w.start, w.end)) && /^: +\p{L}/u.test(text.slice(w.end, w.end + 4)) && /(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, w.start - 4), w.start)) && (c.first || (c.unknown && !shortensCommonWord(w.key, this.lists))) && !FIELD_LABELS.has(w.key) && w.key.length > 2) {
        emit(i, i, 'context:speaker');
      }
      // A listed first name, an initial if any, and a surname no English list holds, in any case: "olga
      // krylova", "eric g. samoylova", "MONIKA ZILKOVA" (lower case and capitals carry no proper-noun
      // evidence, so the pair is the evidence).
      // Words on one line, a space apart (an initial's period allowed); not a drug after a short name ("mic fentanyl").
      if (c.first && !c.common && w.key.length > 3 && !CUES.has(w.key) && (!cased || !w.capital)) {
        const spaced = (a: TextWord, b: TextWord) => /^\.? $/.test(text.slice(a.end, b.start));
        let j = i + 1;
        if (j + 1 < words.length && words[j]!.end - words[j]!.start === 1 && spaced(w, words[j]!)) j++;
        const last = words[j];
        if (last !== undefined && spaced(words[j - 1]!, last) && last.key.length >= 4 && !/['’]/.test(last.key) && classes[j]!.unknown && !CUES.has(last.key) && !isMisspelling(last.key) && !shortensCommonWord(last.key, this.lists)) emit(i, j, 'context:first-last');
      }
      // A name with its particles, where case means something: "Dyan van Gijn", "Maika van de Noort",
      // "Charles de Gaulle". A listed first name or a word no list holds, written as a name, then one or
      // two particles in lower case and a word written as a name.
      if (cased && (c.first || c.unknown) && !isClinicalWord(w.key) && !CUES.has(w.key) && properShape(text.slice(w.start, w.end))) {
        let j = i + 1;
        while (j < words.length && j - i <= 2 && NAME_PARTICLES.has(text.slice(words[j]!.start, words[j]!.end)) && oneSpace(text, words[j - 1]!, words[j]!)) j++;
        const last = words[j];
        if (j > i + 1 && last !== undefined && oneSpace(text, words[j - 1]!, last) && properShape(text.slice(last.start, last.end)) && !CUES.has(last.key)) emit(i, j, 'context:particle');
      }
      // Someone spoken to: "Don't go to town, Mark!", "Remember me, Maria?" (tokenised text: "Mark !"): a
      // listed first name between a comma and a ! or ?, however common the word, written as a name where
      // case means something.
      if (c.first && w.key.length > 2 && /,\s$/.test(text.slice(Math.max(0, w.start - 2), w.start)) && /^ ?[!?]/.test(text.slice(w.end, w.end + 2)) && (!cased || properShape(text.slice(w.start, w.end))) && !CUES.has(w.key)) {
        emit(i, i, 'context:vocative');
      }
      // Someone greeted or thanked: "Hi Tanner", "thanks Bill!", "Happy birthday Rose". A listed first name
      // right after the greeting, no word of endearment, written as a name where case means something, else
      // no common word; a common one keeps the whole greeting in the term ("thanks bill", "happy birthday
      // rose"), as a cue does.
      if (c.first && w.key.length > 2 && !CUES.has(w.key) && !NOT_NAMES.has(w.key) && !ENDEARMENTS.has(w.key) && (cased ? properShape(text.slice(w.start, w.end)) : !c.common)) {
        const from = Math.max(0, w.start - 24);
        const greeting = GREETING_BEFORE.exec(text.slice(from, w.start));
        const cue = greeting === null ? undefined : reading.startingAt.get(from + greeting.index);
        if (cue !== undefined && !/\p{L}/u.test(text.charAt(words[cue]!.start - 1))) emit(i, i, 'context:vocative', cue);
      }
      // The subject of what a person does: "Tanner said", "Nick is really dragging". A listed first name
      // written as a name where case means something, a space before such a verb; not a clinical word
      // (Foley was; months and days are among them), nor a season (Spring is); surnames alone are left out
      // (Plan is, Patient was). A name that is also a word (Nick, Bill) keeps the verb in the term, as a
      // cue does, so that "bill is" is protected, never every "bill"; a word that is a first name by
      // chance at a sentence's start makes such a term too ("Love is", "Hope was"), which costs little.
      if (c.first && w.key.length > 2 && !CUES.has(w.key) && !isClinicalWord(w.key) && !SEASONS.has(w.key) && !FIELD_LABELS.has(w.key) && (cased ? properShape(text.slice(w.start, w.end)) : !c.everyday) && i + 1 < words.length && PERSON_VERBS.has(words[i + 1]!.key) && oneSpace(text, w, words[i + 1]!)) {
        // Where case means nothing the verb always stays in the term: the name's shape says nothing there.
        if (cased) emit(i, i, 'context:subject', i + 1);
        else out.push({ start: w.start, end: words[i + 1]!.end, category: 'PERSON', source: 'context:subject' });
      }
      // First + last: an ambiguous listed name next to an unambiguous one; a small word is no half of one,
      // however listed: in capitals every word looks like a name ("IN PARIS", "GRAF IN").
      if (i > 0 && c.name && adjacent(text, words[i - 1]!, w) && !PAIR_STOPS.has(w.key) && !PAIR_STOPS.has(words[i - 1]!.key)) {
        const p = classes[i - 1]!;
        const strong = (x: WordClass, y: TextWord) => x.name && !x.common && y.key.length > 3 && (!cased || y.capital);
        if ((strong(p, words[i - 1]!) && (!cased || w.capital)) || (strong(c, w) && p.first && (!cased || words[i - 1]!.capital))) emit(i - 1, i, 'context:first-last');
        // Where case means something, a listed first name and a listed last name, both written as names
        // (Tom Petty, Heath Ledger), however common the words: the capitals and the pair are the evidence.
        else if (cased && p.first && this.lists.lastNames.has(w.key) && properShape(text.slice(words[i - 1]!.start, words[i - 1]!.end)) && properShape(text.slice(w.start, w.end)) && !CUES.has(words[i - 1]!.key) && !CUES.has(w.key)) emit(i - 1, i, 'context:first-last');
      }
    }
    this.nameLists(text, words, classes, cased, out);
    this.surnamesAgain(text, reading, out);
    this.listedSurnamesAlone(text, reading, out);
    withTitles(text, reading, out);
    return out;
  }

  /**
   * The surname of each name found in full ({@link Detection.surname}), and that surname alone elsewhere
   * in the text, written as a name: "Alan Shearer ... Shearer scored", "Gordon Brown ... Brown said". News
   * names a person in full once, then by the surname, at a sentence's start too. The full name is the
   * evidence; a surname that is an everyday word (SCOWL levels up to 35: Brown, King, May) keeps the word
   * after it in the term here, as a title does, so that "brown said" is protected, never every "brown".
   */
  private surnamesAgain(text: string, reading: WordReading, out: Detection[]): void {
    const { words } = reading;
    const surnames = new Set<string>();
    for (const d of out) {
      const surname = surnameIn(text, reading, d, this.lists);
      if (surname === undefined) continue;
      const w = words[surname]!;
      d.surname = { start: w.start, end: w.end };
      if (properShape(text.slice(w.start, w.end))) surnames.add(w.key);
    }
    if (surnames.size === 0) return;
    const named = out.map((d) => [d.start, d.end]);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (!surnames.has(w.key) || !properShape(text.slice(w.start, w.end)) || named.some(([s, e]) => s! <= w.start && w.end <= e!)) continue;
      if (!this.lists.everydayWords.has(w.key)) out.push({ start: w.start, end: w.end, category: 'PERSON', source: 'context:surname-again' });
      else if (i + 1 < words.length && oneSpace(text, w, words[i + 1]!)) out.push({ start: w.start, end: words[i + 1]!.end, category: 'PERSON', source: 'context:surname-again' });
    }
  }

  /**
   * A listed surname that is a word too, alone and written as a name inside a sentence, where case means
   * something and nothing else found it: "a goal from Shearer", "caught by Hick". Not beside another word
   * written as a name (Union Station, Masters Tournament): the pair is a name of its own, or a thing's; nor
   * before a word that names a thing after a person (Gaucher disease).
   * The capital is the only evidence, so a build keeps the term only where the corpus writes the word as a
   * name more often than in lower case ({@link CAPITAL_ONLY_SOURCES}); the full name and its surname again
   * are found first, by rules that keep theirs.
   */
  private listedSurnamesAlone(text: string, { words, classes, cased }: WordReading, out: Detection[]): void {
    if (!cased) return;
    const found = out.map((d) => [d.start, d.end] as const);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (!classes[i]!.common || w.key.length < 4 || !this.lists.lastNames.has(w.key) || !properShape(text.slice(w.start, w.end)) || sentenceStart(text, w)) continue;
      // A nationality is always written with a capital, which is then no evidence ("Russian speaking").
      if (CUES.has(w.key) || NOT_NAMES.has(w.key) || isClinicalWord(w.key) || ENDEARMENTS.has(w.key) || SEASONS.has(w.key) || FIELD_LABELS.has(w.key) || this.lists.nationalities.has(w.key)) continue;
      const next = words[i + 1];
      if ((i > 0 && words[i - 1]!.capital && oneSpace(text, words[i - 1]!, w)) || (next !== undefined && oneSpace(text, w, next) && (next.capital || (BESIDE_NAMES.has(next.key) && !PAIR_STOPS.has(next.key))))) continue;
      // Any overlap, not only containment as for a surname again: a word a longer name or a pattern took
      // part of is that one's evidence, not this rule's.
      if (found.some(([s, e]) => s < w.end && w.start < e)) continue;
      out.push({ start: w.start, end: w.end, category: 'PERSON', source: LISTED_SURNAME });
    }
  }

  /**
   * Names in a list, where case means something: "founders: Kónya, Becker and White". Single words written
   * as names, three or more joined by commas and "and"; when two of them are listed names and one word is
   * in no English list, every listed or unlisted name among them is one, however common the word (White,
   * Graves): the list is the evidence.
   */
  private nameLists(text: string, words: readonly TextWord[], classes: readonly WordClass[], cased: boolean, out: Detection[]): void {
    if (!cased) return;
    const item = (k: number) => properShape(text.slice(words[k]!.start, words[k]!.end)) && !CUES.has(words[k]!.key);
    for (let i = 0; i < words.length; ) {
      if (!item(i)) {
        i++;
        continue;
      }
      const chain = [i];
      const gap = (x: number) => (x + 1 < words.length ? text.slice(words[x]!.end, words[x + 1]!.start) : '');
      for (let k = i; ; ) {
        // A space before the comma too: tokenised text (CoNLL corpora) writes "Skrtel , Agger".
        if (/^ ?, $/.test(gap(k)) && item(k + 1)) chain.push(++k);
        else if (/^(?: ?,)? $/.test(gap(k)) && words[k + 1]?.key === 'and' && gap(k + 1) === ' ' && item(k + 2)) chain.push((k += 2));
        else break;
      }
      // Two listed names at least, none of them the vocabulary of care, and a word no English list holds:
      // a list of drugs (Vano, Ceftaz; Neo, Levo and Vasopressin) is none, nor one of common words (Brown,
      // Black and White).
      if (chain.length >= 3 && chain.filter((c) => classes[c]!.name && !isClinicalWord(words[c]!.key)).length >= 2 && chain.some((c) => classes[c]!.unknown)) {
        for (const c of chain) if (classes[c]!.name || classes[c]!.unknown || this.lists.rareWords.has(words[c]!.key)) out.push({ start: words[c]!.start, end: words[c]!.end, category: 'PERSON', source: 'context:name-list' });
      }
      i = chain.at(-1)! + 1;
    }
  }
}

/**
 * The word of a detected name that is its surname ({@link Detection.surname}): the last name word, past
 * credentials and suffixes (`Edward C. Jones, RRT`, `John Smith Jr`), after another word (`Dr. Muir`,
 * `daughter Maria`). Not a territory after "of" (`Duke of Cambridge`). A common word only after a first
 * name, an initial, a word no list holds, a title, a relation or a role (`Gordon Brown`, `J SMITH`, `Dr
 * Wright`, `SON ROB`), never after any other word (`Happy birthday Rose`, `DR GIVEN SAW HER`): where the
 * corpus writes it in lower case as often as a name or more, a build takes the term back (`Dr. Given`: see
 * {@link CAPITAL_ONLY_SOURCES}); a corpus all in capitals gives no such evidence, and `MRS MAY` protects
 * every "may" there, recall before the text kept.
 */
function surnameIn(text: string, { words, classes, cased, startingAt, endingAt }: WordReading, d: Detection, lists: PublicLists): number | undefined {
  const first = startingAt.get(d.start);
  let b = endingAt.get(d.end);
  if (first === undefined || b === undefined) return undefined;
  while (b > first && AFTER_NAMES.has(words[b]!.key)) b--;
  if (b === first) return undefined;
  const [w, c, p, pc] = [words[b]!, classes[b]!, words[b - 1]!, classes[b - 1]!];
  if (w.key.length < 3 || !(c.name || c.unknown) || lists.nationalities.has(w.key) || CUES.has(w.key) || NOT_NAMES.has(w.key)) return undefined;
  if (PAIR_STOPS.has(p.key) || (c.common && !(CUES.has(p.key) || pc.first || pc.unknown || p.end - p.start === 1))) return undefined;
  return cased && !properShape(text.slice(w.start, w.end)) ? undefined : b;
}

/**
 * The title before each name and the credentials after it, as its mention ({@link Detection.mention}):
 * "Mr. Joshua Okamoto MD", "Dr. Brenda Eldarkhanov", "Matthew Gavrilov II". They are how the person is
 * named there, and say a gender or a profession beside the name; Presidio's gold counts them in the name,
 * i2b2's does not. The name alone stays its own term, protected wherever written.
 */
function withTitles(text: string, { words, cased, startingAt, endingAt }: WordReading, out: Detection[]): void {
  for (const d of out) {
    let a = startingAt.get(d.start);
    let b = endingAt.get(d.end);
    if (a === undefined || b === undefined) continue;
    const last = b;
    if (a > 0 && titleAt(words[a - 1]!, text, cased) && /^\.?[ \t]+$/.test(text.slice(words[a - 1]!.end, words[a]!.start))) a--;
    while (b + 1 < words.length && b - last < 3 && AFTER_NAMES.has(words[b + 1]!.key) && (WITH_PERIOD.has(words[b]!.key) ? /^\.?,?[ \t]+$/ : /^,?[ \t]+$/).test(text.slice(words[b]!.end, words[b + 1]!.start))) b++;
    if (words[a]!.start < d.start || words[b]!.end > d.end) d.mention = { start: words[a]!.start, end: words[b]!.end };
  }
}
