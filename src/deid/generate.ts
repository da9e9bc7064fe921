import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { FormatError, UsageError } from '../errors.js';
import { Rng } from '../engine/random.js';
import { decodeUtf8Strict, fileSystemError, readJsonFile } from '../io/index.js';
import { parseAnnotated, type AnnotatedDocument } from './annotated.js';
import { agreeParticle, GENERATED, STAND_IN_SOURCES, startsWithParticle } from './surrogates.js';
import type { LabelPath, LabelResolver } from './taxonomy.js';

/** A labelled character span of a generated document. */
export interface LabelledSpan extends LabelPath {
  start: number;
  end: number;
}

/** One generated training document: surrogates in place of the placeholders, spans at all three levels. */
export interface GeneratedDocument {
  id: string;
  /**
   * The judgment it was filled from, as a corpus's author: its replicas are one individual, so a blacklist
   * built on them counts a term of that judgment once (counted apart, a judgment's own words were no
   * longer rare and went unprotected).
   */
  author: string;
  source: string;
  replica: number;
  text: string;
  spans: LabelledSpan[];
}

export type ReplacementMode = 'per-epoch' | 'single';

/** Replacement lists by fine label. */
export type ReplacementLists = Map<string, string[]>;

async function* walk(dir: string, ext: RegExp, what: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    // The folder itself a file: "part of the path is a file" would send the user to look elsewhere.
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') throw new UsageError(`${dir}: a file, not a folder; ${what}`);
    throw fileSystemError(err, dir, what);
  });
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path, ext, what);
    else if (ext.test(e.name)) yield path;
  }
}

/** Reads every `{label: [values]}` JSON file under a folder (all_categories.json is the tree, not a list). */
export async function readReplacementLists(dir: string): Promise<ReplacementLists> {
  const lists: ReplacementLists = new Map();
  for await (const path of walk(dir, /\.json$/, 'give the folder of replacement lists, JSON files {"label": ["value", ...]}')) {
    if (path.endsWith('all_categories.json')) continue;
    const data = await readJsonFile(path, { fix: 'a replacement list is {"label": ["value", ...]}' });
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new FormatError('a replacement list is a JSON object {"label": ["value", ...]}', { file: path });
    for (const [label, values] of Object.entries(data)) {
      if (!Array.isArray(values)) throw new FormatError(`"${label}" must map to an array of values: "${label}": ["value", ...]`, { file: path });
      // String() of an object would become the surrogate "[object Object]" in generated training text.
      const bad = values.findIndex((v) => typeof v !== 'string');
      if (bad !== -1) throw new FormatError(`"${label}"[${bad}] is ${values[bad] === null ? 'null' : typeof values[bad]}; replacement values must be strings`, { file: path });
      lists.set(label, [...(lists.get(label) ?? []), ...(values as string[]).filter((v) => v.trim() !== '')]);
    }
  }
  // Without a list every placeholder of a listed kind (a bank, an address) would stay the court's letter.
  if (lists.size === 0) throw new UsageError(`${dir}: no replacement list in it (JSON files {"label": ["value", ...]}); give the folder of replacement lists`);
  return lists;
}

/** The key a stand-in pool is kept under, apart from the lists, so that a label's own list comes first. */
const standInKey = (label: string) => `\u0000stand-in:${label}`;

/**
 * The lists and, for each label of {@link STAND_IN_SOURCES}, a pool of every value of the lists it names, by
 * label or by a group the category tree (`treePaths`) files them under; a dataset without the tree gets only
 * the pools named by label. A pool is drawn from only where neither the label nor its synonym has a list
 * of its own: Thunder-DeID's 가게 keeps its shops though its synonym map files it under 사업체.
 */
export function withStandIns(lists: ReplacementLists, treePaths: ReadonlyMap<string, string>): ReplacementLists {
  const out: ReplacementLists = new Map(lists);
  for (const [label, sources] of Object.entries(STAND_IN_SOURCES)) {
    const from = (l: string) => sources.some((s) => l === s || treePaths.get(l) === s || treePaths.get(l)?.startsWith(`${s}/`) === true);
    const pool = [...lists].filter(([l]) => from(l)).flatMap(([, values]) => values);
    if (pool.length > 0) out.set(standInKey(label), pool);
  }
  return out;
}

/**
 * Parses every annotated judgment (.md or .txt) under a folder; ids are relative paths. A malformed
 * document throws, or with `onBadDocument` is reported there and skipped.
 */
export async function readAnnotatedFolder(dir: string, onBadDocument?: (err: FormatError) => void): Promise<AnnotatedDocument[]> {
  const docs: AnnotatedDocument[] = [];
  let skipped = 0;
  for await (const path of walk(dir, /\.(md|txt)$/, 'give the folder of annotated judgments (.md or .txt)')) {
    const id = relative(dir, path).split(sep).join('/').replace(/\.(md|txt)$/, '');
    try {
      const text = decodeUtf8Strict(await readFile(path), path);
      // A corpus refuses an empty document; a judgment with no text would train and measure as one.
      if (text.trim() === '') throw new FormatError('an empty judgment; remove the file or write its text', { file: path });
      docs.push(parseAnnotated(text, path, id));
    } catch (err) {
      if (!(err instanceof FormatError) || onBadDocument === undefined) throw err;
      skipped++;
      onBadDocument(err);
    }
  }
  if (docs.length === 0 && skipped > 0) throw new UsageError(`${dir}: all ${skipped} judgments were skipped as malformed (--skip-bad-docs); fix them`);
  if (docs.length === 0) throw new UsageError(`${dir}: no .md or .txt judgments found; give the folder of annotated judgments`);
  return docs;
}

/**
 * How many characters at the end of a surrogate the text right after its placeholder repeats as the
 * label's kind: a court writes `B아파트` and `C역` with the kind outside the placeholder, while the
 * replacement lists hold whole names (래미안아파트, 강남역), so a plain fill reads 래미안아파트아파트. The
 * repeat is a kind of two syllables or more (사무소, 문화센터), or a single one that ends the label
 * (역 of 지하철역, 구 of 행정구) and is no particle there; a lone syllable by chance (중고나라 before 라는,
 * 맥주 before 주점) is none, nor the court's particle (치과 before `과 같은`). The name keeps at least one
 * character.
 */
function repeatedKind(value: string, following: string, labels: readonly string[]): number {
  for (let n = Math.min(value.length - 1, following.length); n >= 1; n--) {
    const tail = value.slice(value.length - n);
    if (!/^[가-힣]+$/.test(tail) || !following.startsWith(tail)) continue;
    if (n >= 2 || (labels.some((l) => l.endsWith(tail)) && !startsWithParticle(following))) return n;
  }
  return 0;
}

/**
 * Fills an annotated document with surrogates: the same (label, placeholder) gets the same value within
 * the document, values come from the label's replacement list, its generator (names, RRNs, phone,
 * account, card and car numbers, ages) or a stand-in pool of its kind ({@link withStandIns}), and the
 * particle after each value is rewritten to agree with it.
 * A kind the text repeats after the placeholder is written once ({@link repeatedKind}), outside the span.
 * A label with none of these keeps the court's placeholder, still labelled.
 */
export function fillDocument(doc: AnnotatedDocument, lists: ReplacementLists, resolver: LabelResolver, rng: Rng, replica: number): GeneratedDocument {
  const values = new Map<string, string>();
  const used = new Set<string>();
  let text = '';
  const spans: LabelledSpan[] = [];
  let pendingWord: string | undefined;
  const drawable = (key: string) => {
    const list = lists.get(key);
    return list !== undefined && list.length > 0 ? list : undefined;
  };
  for (const [i, seg] of doc.segments.entries()) {
    if (typeof seg === 'string') {
      text += pendingWord === undefined ? seg : agreeParticle(pendingWord, seg);
      pendingWord = undefined;
      continue;
    }
    const path = resolver.resolve(seg.label, { file: doc.file, line: seg.line });
    const key = `${path.level3}\u0000${seg.placeholder}`;
    let value = values.get(key);
    if (value === undefined) {
      const generate = GENERATED[path.level3];
      // The label's own list or its synonym's, then a generator, then a stand-in pool (withStandIns).
      const list = drawable(path.level3) ?? drawable(seg.label) ?? (generate ? undefined : drawable(standInKey(path.level3)) ?? drawable(standInKey(seg.label)));
      const draw = () => (list ? rng.pick(list) : generate ? generate(rng) : seg.placeholder);
      // Different entities get different values where the list allows: two people must not merge into one.
      value = draw();
      for (let tries = 0; used.has(`${path.level3}\u0000${value}`) && tries < 20; tries++) value = draw();
      values.set(key, value);
      used.add(`${path.level3}\u0000${value}`);
    }
    const following = doc.segments[i + 1];
    const written = typeof following === 'string' ? value.slice(0, value.length - repeatedKind(value, following, [seg.label, path.level3])) : value;
    spans.push({ start: text.length, end: text.length + written.length, ...path });
    text += written;
    // Where the kind was cut, the text goes on with the court's own kind, and its particle already agrees.
    pendingWord = written === value ? value : undefined;
  }
  return { id: `${doc.id}#${replica}`, author: doc.id, source: doc.id, replica, text, spans };
}

/**
 * The Thunder-DeID data generator: `replicas` filled copies of every document, with new surrogates for
 * each replica (`per-epoch`) or the same ones (`single`).
 */
export function* generateDocuments(docs: readonly AnnotatedDocument[], lists: ReplacementLists, resolver: LabelResolver, options: { replicas: number; seed: number; mode: ReplacementMode }): Generator<GeneratedDocument> {
  for (let r = 0; r < options.replicas; r++) {
    for (let d = 0; d < docs.length; d++) {
      const rng = new Rng(options.seed).fork(d * 7919 + (options.mode === 'per-epoch' ? r : 0));
      yield fillDocument(docs[d]!, lists, resolver, rng, r);
    }
  }
}
