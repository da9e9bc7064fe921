import { corpusFingerprinter, type Document } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import { documentKey, keyedFingerprint } from '../io/index.js';
import { commonNounPhrases, contentWords, type MorphAnalyzer, type NgramOptions } from '../text/index.js';
import { canonicalTerm } from './blacklist/read.js';
import { BlacklistMatcher } from './blacklist/matcher.js';
import { BLACKLIST_FORMAT_VERSION, type Blacklist, type BlacklistEntry } from './blacklist/types.js';
import { CAPITAL_ONLY_SOURCES, caseEvidence, defaultRecognizers, dictionaryWord, detectDirect, GRAPH_SOURCE, isClinicalWord, isMisspelling, koreanNameShape, MODEL_SOURCE, protectedSpans, publicLists, type Detection, type PublicLists, type Recognizer } from './direct/index.js';
import type { AuthorTermEngine, EngineName, EngineStats } from './indirect/engine.js';
import { CountingEngine } from './indirect/countingEngine.js';
import { DuckdbEngine } from './indirect/duckdbEngine.js';
import { GraphEngine } from './indirect/graphEngine.js';
import { FoundDetections, type FoundDetection } from './foundDetections.js';

export interface BuildBlacklistOptions {
  /** Terms used by fewer than k individuals are indirect identifiers (default 2). */
  k?: number;
  /** Shortest and longest n-gram in words (default [1, 3]). */
  ngrams?: [number, number];
  /**
   * Every rare n-gram is a term. By default (false) an n-gram of two or more words is one only when it
   * holds a listed name ({@link ngramAnchor}): "left the room" is not an identifier even when only one
   * person wrote it, "daughter Frances Baker" is. Korean words are in no name list, so Korean n-grams
   * are terms only with this flag. It also keeps the typos of common words (see {@link isMisspelling}),
   * as the rule of the paper does.
   */
  allNgrams?: boolean;
  /**
   * Which English words ({@link dictionaryWord}: SCOWL levels up to 70, clinical abbreviations, and
   * compounds of common words) may be indirect unigrams when few people used them. `named` (default):
   * those someone wrote as a name (a capital inside a sentence, or anywhere in a text where case means
   * nothing: "Harbor", "Rose") and no one wrote in lower case where case means something ("records" beside
   * "Lantern Records" is a word); the words of running prose are not, however rare their topic in the
   * corpus (an occupation or a diagnosis in prose, "works as a lighthouse keeper", "arteritis", is then
   * lost). `all`: every one, the paper's rule. `none`: never. Words no English list holds always may be.
   */
  commonWords?: CommonWordRule;
  /** Indirect terms must occur at least this often in the corpus (default 1). */
  minOccurrences?: number;
  /**
   * A term only a learned recogniser found ({@link MODEL_SOURCE}: a de-identification model) enters when
   * the model marked at least this share of the places the blacklist would protect it, counted by the
   * blacklist matcher over the whole corpus (default 0.2; 0 keeps every one). A term is applied
   * everywhere, so one false alarm of a model on a common word (the defendant, "pt") would protect it in
   * every document, while a name the model knows it marks nearly wherever it stands. A term a rule or a
   * list also found always enters; a dropped one is then judged as any word is, by the indirect rule.
   * Counting reads the corpus a second time: see `reread`. A term inside a longer direct term counts
   * where it stands alone only.
   */
  modelAgreement?: number;
  /**
   * The corpus from its start again, for the second reading `modelAgreement` needs when a model is among
   * the recognisers and `docs` is a stream read once (a generator); an array is read again by itself.
   */
  reread?: () => AsyncIterable<Document> | Iterable<Document>;
  /** Skip n-grams made only of numbers (default true; dates and ids come from the recognisers). */
  ignoreNumbers?: boolean;
  /** Shortest term in characters (default 2). */
  minLength?: number;
  /** Normalised terms never blacklisted. */
  stopList?: ReadonlySet<string>;
  /** Direct-identifier recognisers (patterns, gazetteers, a DeID model); default {@link defaultRecognizers}. */
  recognizers?: readonly Recognizer[];
  /** Korean morphology; without it Korean words keep their particles. */
  analyzer?: MorphAnalyzer;
  /**
   * `auto` (default): the counting engine, moving to DuckDB once it holds `spillTerms` n-gram nodes (40–80
   * bytes each) or 15M distinct words (V8 caps a Map at 2^24 entries); `graph`: the graphology author–term graph (for --graph-out); `counting`; `duckdb`.
   */
  engine?: 'auto' | EngineName;
  spillTerms?: number;
  /**
   * The corpus is public (`--public-corpus`), recorded in the header: a DP run may then use the blacklist,
   * whose terms depend on no private individual (see {@link blacklistProvenanceProblem}).
   */
  publicCorpus?: boolean;
  /**
   * The records of the public documents that trained a recogniser (a de-identification model's
   * `publicDocuments`), kept in the header as `recognizer-documents`: a DP run checks its training
   * documents against them as against the corpus's own.
   */
  recognizerDocuments?: readonly string[];
  /** `agreement`: the second reading that weighs a model's terms (see `modelAgreement`), documents read again so far. */
  onProgress?: (p: { documents: number; tokens: number; engine: string; agreement?: number }) => void;
  /** Keep each document's detections with their terms (`found` in the result), for `silverLabels`. */
  keepDetections?: boolean;
}

export type CommonWordRule = 'all' | 'named' | 'none';

export interface BuildBlacklistResult {
  blacklist: Blacklist;
  /** The engine after the build, for `--graph-out` / `--export-pairs`; the caller closes it. */
  engine: AuthorTermEngine;
  /**
   * `modelDropped`: terms only a model found, at too few of the places they would be protected (see
   * `modelAgreement`); `modelCommonNouns`: terms only a model found that mecab reads as common nouns (see
   * {@link dropModelCommonNouns}); `modelCommonWords`: terms only a model found made of English words no
   * name or place list holds (see {@link dropModelCommonWords}).
   */
  stats: EngineStats & { documents: number; tokens: number; direct: number; indirect: number; modelDropped: number; modelCommonNouns: number; modelCommonWords: number };
  /**
   * With `publicCorpus`, each document's keyed hash, for the record a DP run checks its training documents
   * against (`recordPublicDocuments` under the header's corpus fingerprint: the CLI keeps it).
   */
  documentKeys?: string[];
  /** With `keepDetections`, each document's detections in corpus order (see `silverLabels`). */
  found?: FoundDetections;
}

/** Distinct words the counting engine holds before moving to DuckDB: V8 caps a Map at 2^24 entries. */
const MAX_MAP_WORDS = 15_000_000;

/** What a build, or protection from one's own text, gathers of a direct term over the documents read. */
export interface DirectTally {
  category: string;
  sources: Set<string>;
  authors: Set<string>;
  occurrences: number;
  /** Of the occurrences, those only rules resting on how a word is written found ({@link CAPITAL_ONLY_SOURCES}). */
  byCapital: number;
  /** Of those, the ones in text where case means something, where the capital was a writer's choice: weighed against lower case ({@link dropCapitalEvidence}). */
  byCapitalWhereCased: number;
  /** The authors of the other occurrences: who used the term where more than a capital made it one. */
  authorsBeyondCapital: Set<string>;
}

/** The sources of a detection's `i`-th term: the identifier (the first) with every recogniser that found the same span. */
const termSources = (d: Detection, source: string, i: number): string[] => (i === 0 ? [source, ...(d.alsoFoundBy ?? [])] : [source]);
/** Whether only rules resting on how a word is written found it ({@link CAPITAL_ONLY_SOURCES}). */
const byCapitalOnly = (sources: readonly string[]): boolean => sources.every((s) => CAPITAL_ONLY_SOURCES.has(s));

/**
 * Counts one detection's terms ({@link detectionTerms}) into `direct`: each with the source that made it,
 * and the identifier with every recogniser that found the same span.
 */
export function tallyDetection(direct: Map<string, DirectTally>, terms: readonly { term: string; source: string }[], d: Detection, author: string, where: { cased: boolean; stopList?: ReadonlySet<string> }): void {
  for (const [i, { term, source }] of terms.entries()) {
    if (term === '' || where.stopList?.has(term)) continue;
    const sources = termSources(d, source, i);
    const tally = direct.get(term) ?? { category: d.category, sources: new Set(), authors: new Set(), occurrences: 0, byCapital: 0, byCapitalWhereCased: 0, authorsBeyondCapital: new Set() };
    for (const s of sources) tally.sources.add(s);
    tally.authors.add(author);
    tally.occurrences++;
    if (byCapitalOnly(sources)) {
      tally.byCapital++;
      if (where.cased) tally.byCapitalWhereCased++;
    } else tally.authorsBeyondCapital.add(author);
    direct.set(term, tally);
  }
}

/** Stops a second reading of a corpus that gave other documents than the first (a stream read once, a file changed). */
export function assertSameReading(what: string, read: number, documents: number): void {
  if (read !== documents) throw new UsageError(`${what}: the second reading of the corpus gave ${read} documents, the first ${documents}; reread must give the corpus from its start`);
}

/** How many times the corpus writes each word in lower case where case means something ({@link caseEvidence}). */
export type LowerCaseCounts = Map<string, number>;

/** Adds one document's lower-case words ({@link caseEvidence}'s `inLowerCase`) to `counts`. */
export function countLowerCase(counts: LowerCaseCounts, words: readonly string[]): void {
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
}

/**
 * A capitalised word is a common noun, not a name, where its writers also write it in lower case
 * (Amiodarone at the start of a sentence, "started amiodarone" elsewhere; Brown in "Gordon Brown", "brown
 * stool"): the rules that rest on how a word is written stop counting for it, and so do the places only
 * they found. What else found it decides; a term nothing else found is no direct term. A listed first name
 * or surname is weighed instead: it stays a name where those rules found it written as one more often
 * than the corpus writes it in lower case, both counted where case means something (tweets write Trump,
 * Mason, Butler as names and now and then in lower case; notes write "brown stool" more often than
 * Brown; notes in capitals count neither way). A word no name list holds, a drug written with a capital
 * in the middle of a sentence, any lower case still refutes.
 */
export function dropCapitalEvidence(direct: Map<string, DirectTally>, inLowerCase: ReadonlyMap<string, number>, lists: PublicLists = publicLists()): void {
  for (const [term, t] of direct) {
    const lower = inLowerCase.get(term) ?? 0;
    if (lower === 0 || ![...t.sources].some((s) => CAPITAL_ONLY_SOURCES.has(s))) continue;
    if ((lists.firstNames.has(term) || lists.lastNames.has(term)) && t.byCapitalWhereCased > lower) continue;
    for (const source of CAPITAL_ONLY_SOURCES) t.sources.delete(source);
    t.occurrences -= t.byCapital;
    t.byCapital = 0;
    // Only the occurrences left count, and only their authors: a blacklist never has more authors than occurrences.
    t.authors = t.authorsBeyondCapital;
    if (t.sources.size === 0) direct.delete(term);
  }
}

/** The terms only a model found: the ones `modelAgreement` weighs. */
const modelOnly = (t: DirectTally) => [...t.sources].every((s) => s.startsWith(MODEL_SOURCE));

/**
 * Drops the terms only a model found that mecab reads, each alone, as one common noun or pronoun a word
 * (얼굴, 말다툼, 왼쪽 뺨, 나): a model trained on one kind of document takes the everyday words of another
 * for entities wherever they stand, so agreement keeps them. A name mecab knows is a proper noun to it;
 * one it does not know it may read as a compound noun (강우진: 강우 + 진), so a word shaped as a Korean name
 * stays, and with it a few nouns of that shape, which agreement still weighs (피해자, 고양이). A given name
 * alone that is also a word (하늘, 보람) goes with the words, where no rule found it. Returns how many were
 * dropped; each is judged by the indirect rule as any word is.
 */
async function dropModelCommonNouns(direct: Map<string, DirectTally>, analyzer: MorphAnalyzer): Promise<number> {
  const terms = [...direct].filter(([term, t]) => modelOnly(t) && !koreanNameShape(term)).map(([term]) => term);
  const common = await commonNounPhrases(analyzer, terms);
  let dropped = 0;
  for (const [k, term] of terms.entries()) {
    if (!common[k]) continue;
    direct.delete(term);
    dropped++;
  }
  return dropped;
}

/**
 * Drops the terms only a model found whose every word is a clinical abbreviation (even one a name list
 * holds: foley, levo, may), or an English dictionary word that no list holds as a name or a place
 * (tolerated, sputum): a model trained on tweets and news takes the unfamiliar vocabulary of another kind
 * of text for names wherever it stands, as it does the judgments' everyday words in Korean. A word a name
 * list holds stays (mason, trump, butler: names in tweets), and so do a word no dictionary knows
 * (krithika, hangwani) and a listed place of several words (middle east). Returns how many were dropped;
 * each is judged by the indirect rule as any word is.
 */
function dropModelCommonWords(direct: Map<string, DirectTally>, lists: PublicLists): number {
  const commonWord = (w: string) => /^[a-z'-]+$/.test(w) && (isClinicalWord(w) || (dictionaryWord(w, lists) && !lists.firstNames.has(w) && !lists.lastNames.has(w) && !lists.places.has(w)));
  let dropped = 0;
  for (const [term, t] of direct) {
    if (!modelOnly(t)) continue;
    // A term keeps the punctuation of the words it was widened to (`resp-`, `well.`, `gu- foley`: the notes'
    // headings and sentence ends), which makes no word a name.
    const words = term.split(' ').map((w) => w.replace(EDGE_PUNCTUATION, '')).filter((w) => w !== '');
    const bare = words.join(' ');
    if ((words.length > 1 && (lists.places.has(bare) || lists.namedPlaces.has(bare))) || !words.every(commonWord)) continue;
    direct.delete(term);
    dropped++;
  }
  return dropped;
}

/** Punctuation at a word's start or end: what a term's word is compared without. */
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * Where the blacklist would protect each of `weighed` on its own, counted by the matcher over the corpus
 * read again: its occurrences, less those inside a longer direct term, which protects them itself ("smith"
 * within "john smith"), as a model's detection inside a longer one counts for the longer one.
 */
async function protectedOccurrences(direct: readonly string[], weighed: ReadonlySet<string>, docs: AsyncIterable<Document> | Iterable<Document>, analyzer: MorphAnalyzer | undefined, documents: number, onRead: (read: number) => void): Promise<Map<string, number>> {
  const counts = new Map([...weighed].map((term) => [term, 0]));
  const matcher = new BlacklistMatcher(direct.map((term) => ({ term })));
  let read = 0;
  for await (const doc of docs) {
    read++;
    const found = (await matcher.match(doc.text, analyzer)).sort((x, y) => x.start - y.start || y.end - x.end);
    let reach = -1;
    for (const m of found) {
      const term = direct[m.entry]!;
      if (m.end > reach && counts.has(term)) counts.set(term, counts.get(term)! + 1);
      reach = Math.max(reach, m.end);
    }
    if (read % 500 === 0) onRead(read);
  }
  onRead(read);
  assertSameReading('buildBlacklist', read, documents);
  return counts;
}

/**
 * Whether `docs` can be read only once: an iterator (a generator, a stream's reader) is its own
 * iterable. A stream that claims more and gives nothing the second time is caught by the count.
 */
const readOnce = (docs: AsyncIterable<Document> | Iterable<Document>) => typeof (docs as { next?: unknown }).next === 'function';

/**
 * Builds the blacklist of a corpus in one streaming pass (two with a model among the recognisers, see
 * `modelAgreement`): direct identifiers from the recognisers, and indirect identifiers from the bipartite
 * author–term graph (a term used by fewer than k individuals).
 * A term found both ways is listed once, as direct, with both sources.
 *
 * @example
 * const { blacklist } = await buildBlacklist(readCorpus('notes.csv'), { k: 2 });
 */
export async function buildBlacklist(docs: AsyncIterable<Document> | Iterable<Document>, options: BuildBlacklistOptions = {}): Promise<BuildBlacklistResult> {
  const { k = 2, ngrams = [1, 3], minOccurrences = 1, modelAgreement = 0.2, ignoreNumbers = true, minLength = 2, stopList = new Set(), analyzer } = options;
  if (!Number.isInteger(ngrams[0]) || !Number.isInteger(ngrams[1]) || ngrams[0] < 1 || ngrams[1] < ngrams[0]) throw new UsageError(`buildBlacklist: ngrams must be [min, max] with 1 <= min <= max, got ${JSON.stringify(ngrams)}`);
  const recognizers = options.recognizers ?? defaultRecognizers('all', analyzer);
  const hasModel = recognizers.some((r) => r.name.startsWith(MODEL_SOURCE));
  const weighsModel = modelAgreement > 0 && hasModel;
  // Before the first reading, which a model makes long.
  if (weighsModel && options.reread === undefined && readOnce(docs)) throw new UsageError('buildBlacklist: a model among the recognisers needs the corpus read twice (modelAgreement); pass reread, or modelAgreement: 0');
  const spillTerms = options.spillTerms ?? 50_000_000;
  const terms: NgramOptions = { min: ngrams[0], max: ngrams[1], ignoreNumbers, minLength, ...(options.allNgrams ? {} : { anchor: ngramAnchor(), nameLike: ngramNameLike() }) };
  const choice = options.engine ?? 'auto';
  let engine: AuthorTermEngine =
    choice === 'duckdb' || (choice === 'auto' && k > CountingEngine.MAX_K)
      ? await DuckdbEngine.create({ ngrams: terms })
      : choice === 'graph'
        ? new GraphEngine(terms)
        : new CountingEngine(k, terms);
  const fingerprint = corpusFingerprinter();
  const documentKeys: string[] | undefined = options.publicCorpus ? [] : undefined;
  const direct = new Map<string, DirectTally>();
  const found = options.keepDetections ? new FoundDetections() : undefined;
  /** Words someone wrote in lower case where case means something, and how often (see {@link caseEvidence}). */
  const writtenLower: LowerCaseCounts = new Map();
  const commonWordRule = options.commonWords ?? 'named';
  /** English words someone wrote as a name (see {@link caseEvidence}): bounded by the word lists. */
  const writtenAsNames = new Set<string>();
  let documents = 0;
  let tokens = 0;

  for await (const doc of docs) {
    documents++;
    fingerprint.add(doc);
    documentKeys?.push(documentKey(doc.text));
    const words = await contentWords(doc.text, analyzer);
    tokens += words.length;
    await engine.add(doc.author, words);

    const evidence = caseEvidence(doc.text);
    countLowerCase(writtenLower, evidence.inLowerCase);
    if (commonWordRule === 'named') for (const w of evidence.wordsAsNames) writtenAsNames.add(w);
    const kept: FoundDetection[] = [];
    for (const d of await detectDirect(doc.text, recognizers)) {
      const terms = detectionTerms(doc.text, words, d);
      tallyDetection(direct, terms, d, doc.author, { cased: evidence.cased, stopList });
      if (found && terms.length > 0) {
        const { term, source } = terms[0]!;
        // The label is the detection widened to whole words; its term may hold the word before it too.
        const [start, end] = snapToWords(words, d.start, d.end);
        kept.push({ start, end, label: d.category, term, byCapital: byCapitalOnly(termSources(d, source, 0)) });
      }
    }
    found?.add(kept);

    if (engine instanceof CountingEngine && choice === 'auto' && (engine.size > spillTerms || engine.words > MAX_MAP_WORDS)) {
      const moved = await DuckdbEngine.create({ ngrams: terms });
      await moved.addRows(engine.rows());
      await engine.close();
      engine = moved;
    }
    if (documents % 500 === 0) options.onProgress?.({ documents, tokens, engine: engine.name });
  }
  options.onProgress?.({ documents, tokens, engine: engine.name });
  if (documents === 0) {
    await engine.close();
    throw new UsageError('buildBlacklist: the corpus gave no document; a blacklist built from it would protect nothing');
  }

  const lists = publicLists();
  const entries: BlacklistEntry[] = [];
  const graphSource = `${GRAPH_SOURCE}k=${k}`;
  // One array for every indirect entry: a build can yield millions of them.
  const graphOnly = Object.freeze([graphSource]);
  // Before a model's finds are weighed: where a capital was the rules' only evidence, the model's agreement
  // decides. A word nothing else found is judged below as any word is.
  dropCapitalEvidence(direct, writtenLower, lists);
  const modelCommonNouns = weighsModel && analyzer?.name === 'mecab' ? await dropModelCommonNouns(direct, analyzer) : 0;
  const modelCommonWords = weighsModel ? dropModelCommonWords(direct, lists) : 0;
  let modelDropped = 0;
  const weighed = new Set(weighsModel ? [...direct].filter(([, t]) => modelOnly(t)).map(([term]) => term) : []);
  if (weighed.size > 0) {
    const places = await protectedOccurrences([...direct.keys()], weighed, options.reread?.() ?? docs, analyzer, documents, (read) => options.onProgress?.({ documents, tokens, engine: engine.name, agreement: read }));
    for (const term of weighed) {
      if (direct.get(term)!.occurrences >= modelAgreement * places.get(term)!) continue;
      // Out of the direct terms, it is judged below as any word is: rare among individuals or not.
      direct.delete(term);
      modelDropped++;
    }
  }
  const directUsage = await engine.usage([...direct.keys()]);
  for (const [term, t] of direct) {
    const usage = directUsage.get(term);
    const sources = [...t.sources].sort();
    if (usage !== undefined && usage.authors > 0 && usage.authors < k) sources.push(graphSource);
    entries.push({ term, kind: 'direct', category: t.category, authors: t.authors.size, occurrences: t.occurrences, sources });
  }
  let indirect = 0;
  await engine.forEachRareTerm(k, (term, authors, occurrences) => {
    if (occurrences < minOccurrences || (direct.size > 0 && direct.has(term)) || (stopList.size > 0 && stopList.has(term))) return;
    // A typo of a common word ("heavely") used by one person is noise, not an identifier.
    if (!options.allNgrams && isMisspelling(term)) return;
    if (commonWordRule !== 'all' && !term.includes(' ') && dictionaryWord(term, lists) && (commonWordRule === 'none' || !writtenAsNames.has(term) || writtenLower.has(term))) return;
    indirect++;
    entries.push({ term, kind: 'indirect', category: 'RARE', authors, occurrences, sources: graphOnly });
  });
  const blacklist: Blacklist = {
    header: {
      version: BLACKLIST_FORMAT_VERSION,
      k,
      ngrams,
      corpus: fingerprint.digest(),
      created: new Date().toISOString(),
      extra: { recognizers: recognizers.map((r) => r.name).join(',') || 'none', ...(hasModel && { 'model-agreement': String(modelAgreement) }), 'ngram-rule': options.allNgrams ? 'all' : 'names', 'unigram-rule': [options.allNgrams ? '' : 'no typos', { all: '', named: 'English words only written as names, never in lower case', none: 'no English words' }[commonWordRule]].filter(Boolean).join(', ') || 'all', analyzer: analyzer?.name ?? 'none', 'public-corpus': options.publicCorpus ? 'yes' : 'no', ...(options.recognizerDocuments?.length && { 'recognizer-documents': options.recognizerDocuments.join(',') }) },
    },
    entries,
  };
  return { blacklist, engine, stats: { ...(await engine.stats()), documents, tokens, direct: direct.size, indirect, modelDropped, modelCommonNouns, modelCommonWords }, ...(documentKeys && { documentKeys }), ...(found && { found }) };
}

/**
 * The blacklist terms a detection makes ({@link protectedSpans}), each widened to whole words: the
 * identifier first, then its mention and family name if any. A model's short number
 * ({@link shortModelNumber}) standing as a word of its own makes its term with the word written before
 * it, and none without one.
 */
export function detectionTerms(text: string, words: readonly { start: number; end: number }[], d: Detection): { term: string; source: string; start: number; end: number }[] {
  let from = d.start;
  // Inside a longer word (B-89), the word is the term, as any detection's.
  if (shortModelNumber(text, d) && snapToWords(words, d.start, d.end)[0] === d.start) {
    const before = WORD_BEFORE.exec(text.slice(Math.max(0, d.start - 40), d.start));
    if (before === null) return [];
    from = d.start - before[0].length;
  }
  return protectedSpans({ ...d, start: from }).map((span) => {
    const [start, end] = snapToWords(words, span.start, span.end);
    return { term: canonicalTerm(text.slice(start, end)), source: span.source, start, end };
  });
}

/** The word before a position, spaces between, on the same line; a letter or a digit in it (not `- 89`, which the matcher reads as 89 alone). */
const WORD_BEFORE = /[\p{L}\p{N}]\S*[^\S\r\n]+$/u;

/**
 * Whether a detection is a number of at most three digits and nothing else (408, 5-2) that only a model
 * found. Judgments mark such numbers where they say where someone was (안양교도소 408, 부개역 89 출구, 383
 * 시내버스), but a thousand values identify no one alone (HIPAA's Safe Harbor keeps a ZIP code's first three
 * digits): as a term of its own, applied everywhere, the number would protect every count, amount and
 * article of the corpus. With the word written before it, it is protected where written so. A rule's
 * number (an age over 89) is the rule's.
 */
function shortModelNumber(text: string, d: Detection): boolean {
  if (!d.source.startsWith(MODEL_SOURCE) || d.alsoFoundBy?.some((s) => !s.startsWith(MODEL_SOURCE))) return false;
  const surface = text.slice(d.start, d.end);
  const digits = surface.replace(/\D/g, '').length;
  return digits > 0 && digits <= 3 && !/\p{L}/u.test(surface);
}

/**
 * A detection widened to the words it touches. The matcher finds terms at word boundaries, and a word
 * keeps its inner hyphens (`9/7-INITIAL`, `UO-9/10`), so a detection inside such a word would never be
 * found again, not even where it was detected. `words` are sorted and disjoint.
 */
function snapToWords(words: readonly { start: number; end: number }[], start: number, end: number): [number, number] {
  let lo = 0;
  let hi = words.length;
  // The first word that ends after `start`.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  const first = words[lo];
  if (first !== undefined && first.start < start && first.end > start) start = first.start;
  for (let i = lo; i < words.length && words[i]!.start < end; i++) if (words[i]!.end > end) end = words[i]!.end;
  return [start, end];
}

/**
 * The default anchor of multi-word terms: a listed first or last name that is no common English word
 * (SCOWL levels up to 50, clinical abbreviations). "Frances Baker" used by one person is a term; "left the
 * room" is not. Measured against anchoring on any uncommon word and on every listed name in
 * docs/blacklists.md. Public lists only, so the rule depends on no one's data.
 */
export function ngramAnchor(): (norm: string) => boolean {
  const { commonWords, firstNames, lastNames } = publicLists();
  // A word's normal form has no possessive (see contentWords).
  return (word) => (firstNames.has(word) || lastNames.has(word)) && !commonWords.has(word);
}

/**
 * The words an anchored n-gram may hold besides its name: names, initials and words in no English list
 * ("robert v degiorgio", "dr marder"). A common or rarer English word ("aware", "and", "wife") adds the
 * text around a name, already protected by the name itself, not identification; so does a number (a
 * score beside a team, a dose beside a drug named for a person), which phone and record patterns find on
 * their own: counted, it protected the figures beside each team of a results table.
 */
export function ngramNameLike(): (norm: string) => boolean {
  // The listed words only, not dictionaryWord's compounds: counting compounds of common words and numbers
  // as words lost a gold span of the PhysioNet notes' development half.
  const { commonWords, rareWords, firstNames, lastNames } = publicLists();
  return (word) => !/\d/.test(word) && (word.length === 1 || firstNames.has(word) || lastNames.has(word) || (!commonWords.has(word) && !rareWords.has(word)));
}

/**
 * Why a blacklist is not data-independent, or undefined when its header declares it built from a public
 * corpus. A blacklist built from the private corpus makes one person's protected positions depend on
 * everyone else's text (a term used by fewer than k people), so DP's sensitivity is no longer the clip.
 */
export function blacklistProvenanceProblem(list: Blacklist): string | undefined {
  const declared = list.header.extra['public-corpus'];
  if (declared === 'yes') return undefined;
  return declared === undefined ? 'a term list with no provenance (not built by ppmlm blacklist build --public-corpus)' : 'built from a corpus not declared public';
}

/**
 * A short keyed fingerprint of a blacklist's terms, for provenance that must not contain the terms
 * themselves (ppmlm.json, model cards, ONNX metadata): keyed with the data holder's secret, so that a
 * candidate list cannot be confirmed against it.
 */
export function blacklistFingerprint(list: Blacklist): string {
  return keyedFingerprint(list.entries.map((e) => e.term).sort());
}
