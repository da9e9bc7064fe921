import { readFile } from 'node:fs/promises';
import { openSpanJsonlWriter, readCorpus, type SpanJsonlWriter } from '../../corpus/index.js';
import { UsageError } from '../../errors.js';
import { decodeUtf8Strict, assertCanWriteFile, fileSystemError, recordPublicDocuments, assertOutputsApart } from '../../io/index.js';
import {
  BlacklistMatcher,
  CountingEngine,
  DuckdbEngine,
  GazetteerRecognizer,
  GraphEngine,
  buildBlacklist,
  canonicalTerm,
  categoryForList,
  closeRecognizers,
  mergeSpans,
  defaultRecognizers,
  type BuildBlacklistOptions,
  type CommonWordRule,
  readBlacklist,
  readGazetteer,
  silverLabels,
  writeBlacklist,
  writeGraph,
  type EngineName,
  type Recognizer,
} from '../../identifiers/index.js';
import { readProvenance } from '../../model/index.js';
import { analyzerForLanguage, isHangulWord, type AnalyzerChoice, type Language, type MorphAnalyzer } from '../../text/index.js';
import { corpusReadOptions, type CorpusFlags } from '../corpusOptions.js';
import { parseIntFlag, parseNumberFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';

/** The flags that decide a blacklist's terms (`blacklist build`, and `blacklist eval` when it builds one). */
export interface BlacklistRuleFlags {
  k: string;
  ngrams: string;
  allNgrams?: boolean;
  commonWords: CommonWordRule;
  minOccurrences: string;
  lang: Language;
  analyzer: AnalyzerChoice;
  recognizers: string;
  gazetteer?: string[];
  deidModel?: string[];
  deidThreshold?: string;
  modelAgreement: string;
  stopList?: string;
  keepNumbers?: boolean;
  backend: import('../../engine/index.js').BackendRequest;
}

export interface BlacklistBuildOptions extends CorpusFlags, BlacklistRuleFlags {
  out: string;
  publicCorpus?: boolean;
  engine: 'auto' | EngineName;
  graphOut?: string;
  exportPairs?: string;
  silverOut?: string;
  force?: boolean;
  json?: boolean;
}

/** Parses `--ngrams 1-3` (or `2`). */
export function parseNgrams(value: string): [number, number] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  const lo = Number(m?.[1]);
  const hi = Number(m?.[2] ?? m?.[1]);
  if (m === null || lo < 1 || hi < lo || hi > 8) throw new UsageError(`--ngrams must look like 1-3 (1 <= min <= max <= 8), got "${value}"`);
  return [lo, hi];
}

/** The Korean analyser a command needs: none for --lang en, else mecab or the rule-based fallback. */
export function analyzerFor(lang: Language, choice: AnalyzerChoice, out: Reporter): MorphAnalyzer | undefined {
  const analyzer = analyzerForLanguage(lang, choice, (why) => out.warn(why));
  if (analyzer) out.debug(`Korean analyser: ${analyzer.name}`);
  return analyzer;
}

/** The build options and recognisers the rule flags ask for; the caller calls `close` once it is done with them. */
export async function blacklistRules(options: BlacklistRuleFlags, out: Reporter, publicCorpus = false): Promise<{ build: BuildBlacklistOptions; recognizers: Recognizer[]; analyzer: MorphAnalyzer | undefined; close: () => Promise<void> }> {
  const k = parseIntFlag(options.k, '--k', { min: 1 });
  const ngrams = parseNgrams(options.ngrams);
  const minOccurrences = parseIntFlag(options.minOccurrences, '--min-occurrences', { min: 1 });
  const modelAgreement = parseNumberFlag(options.modelAgreement, '--model-agreement', { min: 0, max: 1 });
  const analyzer = analyzerFor(options.lang, options.analyzer, out);
  const recognizers: Recognizer[] = [];
  // A model's weights and mecab's process: freed by the caller once the build is done; until this returns, by a failure here.
  const close = async () => {
    try {
      await closeRecognizers(recognizers);
    } finally {
      await analyzer?.close();
    }
  };
  try {
    recognizers.push(...defaultRecognizers(options.recognizers, analyzer));
    const deidDocuments: string[] = [];
    for (const path of options.gazetteer ?? []) {
      const terms = await readGazetteer(path);
      recognizers.push(new GazetteerRecognizer(terms, { category: categoryForList(path), source: `list:${path.split('/').pop()}`, analyzer }));
      out.info(`gazetteer ${path}: ${terms.length} terms`);
    }
    const deidModels = options.deidModel ?? [];
    if (deidModels.some((m) => m.trim() === '')) throw new UsageError('--deid-model is empty; give a model folder or public-ner-en');
    if (deidModels.length === 0 && options.deidThreshold !== undefined) throw new UsageError('--deid-threshold sets the threshold of a --deid-model; add one, or drop --deid-threshold');
    if (deidModels.length > 0) {
      const [{ DeidModelRecognizer, resolveModelDir }, { selectBackend }] = await Promise.all([import('../../deid/index.js'), import('../../engine/index.js')]);
      const modelDirs = deidModels.map((m) => resolveModelDir(m));
      for (const [i, modelDir] of modelDirs.entries()) {
        // A recogniser trained on private text carries it into a blacklist declared public.
        const provenance = publicCorpus ? await readProvenance(modelDir) : undefined;
        if (publicCorpus && provenance?.publicCorpus !== true) {
          throw new UsageError(`--public-corpus: the de-identification model ${deidModels[i]} was not trained on documents declared public (deid train --public-corpus), so a blacklist it helps build depends on them; drop --deid-model or --public-corpus`);
        }
        if (publicCorpus && typeof provenance?.publicDocuments !== 'string') {
          throw new UsageError(`--public-corpus: ${deidModels[i]}/ppmlm.json records no publicDocuments (it was trained before ppmlm recorded a public model's documents), so a DP run could not rule out that they overlap its training documents; retrain it with deid train --public-corpus, or drop --deid-model`);
        }
        if (typeof provenance?.publicDocuments === 'string') deidDocuments.push(provenance.publicDocuments);
      }
      await selectBackend(options.backend);
      const piiThreshold = options.deidThreshold === undefined ? undefined : parseNumberFlag(options.deidThreshold, '--deid-threshold', { min: 0, max: 1 });
      const recognizer = await DeidModelRecognizer.load(modelDirs, analyzer, { piiThreshold, onWarn: (why) => out.warn(`--deid-model ${deidModels.join(', ')}: ${why}`) });
      recognizers.push(recognizer);
      const threshold = recognizer.piiThreshold === undefined ? 'each token its likeliest label' : `PII threshold ${recognizer.piiThreshold.toFixed(3)}`;
      out.info(deidModels.length === 1 ? `de-identification model ${deidModels[0]} added as a recogniser (${threshold})` : `${deidModels.length} de-identification models added as one recogniser, their label probabilities averaged (${threshold})`);
    }
    const stopList = new Set<string>();
    if (options.stopList) {
      const text = decodeUtf8Strict(await readFile(options.stopList).catch((err: unknown) => {
        throw fileSystemError(err, options.stopList!, 'check --stop-list');
      }), options.stopList);
      for (const line of text.split('\n')) if (line.trim() && !line.startsWith('#')) stopList.add(canonicalTerm(line));
    }
    return {
      build: { k, ngrams, allNgrams: options.allNgrams === true, commonWords: options.commonWords, minOccurrences, modelAgreement, ignoreNumbers: !options.keepNumbers, stopList, recognizers, analyzer, publicCorpus, ...(deidDocuments.length > 0 && { recognizerDocuments: deidDocuments }) },
      recognizers,
      analyzer,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The files and model folders the rules read (`--gazetteer`, `--stop-list`, `--deid-model`), by flag: inputs no output may replace. */
export function ruleInputs(options: BlacklistRuleFlags): Record<string, string | undefined> {
  const numbered = (flag: string, paths: readonly string[] | undefined) => Object.fromEntries((paths ?? []).map((path, i) => [`${flag} (${i + 1})`, path]));
  return { '--stop-list': options.stopList, ...numbered('--gazetteer', options.gazetteer), ...numbered('--deid-model', options.deidModel) };
}

/** `ppmlm blacklist build`: direct (recognisers) + indirect (author–term graph) identifiers → blacklist TSV. */
export async function blacklistBuild(options: BlacklistBuildOptions, out: Reporter): Promise<void> {
  await assertOutputsApart({ '--corpus': options.corpus, ...ruleInputs(options) }, { '--out': options.out, '--graph-out': options.graphOut, '--export-pairs': options.exportPairs, '--silver-out': options.silverOut });
  await assertCanWriteFile(options.out, options.force);
  if (options.graphOut) await assertCanWriteFile(options.graphOut, options.force);
  if (options.exportPairs) await assertCanWriteFile(options.exportPairs, options.force);
  if (options.silverOut) await assertCanWriteFile(options.silverOut, options.force);
  if (options.graphOut && !/\.(gexf|json)$/.test(options.graphOut)) throw new UsageError(`--graph-out ${options.graphOut}: use a .gexf or .json file name`);
  if (options.graphOut && options.engine !== 'auto' && options.engine !== 'graph') throw new UsageError(`--graph-out needs the graph engine; drop --engine ${options.engine}`);
  let skipped = 0;
  const readOptions = corpusReadOptions(options, (err) => {
    skipped++;
    out.warn(`skipped ${err.located}`);
  });
  // The bad rows were reported on the first reading.
  const rereadOptions = corpusReadOptions(options, () => {});
  // From here mecab's process and a model's weights are held: every failure goes through close().
  const { build, close } = await blacklistRules(options, out, options.publicCorpus === true);
  // Korean read as English keeps every particle on its word (홍길동이): said once, since it is allowed.
  let koreanAsEnglish = false;
  const docs = (async function* () {
    for await (const doc of readCorpus(options.corpus, readOptions)) {
      if (options.lang === 'en' && !koreanAsEnglish && isHangulWord(doc.text)) {
        koreanAsEnglish = true;
        out.warn('the corpus holds Korean text, read with --lang en: its words keep their particles (a name and its 이, 은, 에게 are other terms), so a term is protected only as written; use --lang ko or auto');
      }
      yield doc;
    }
  })();
  const reread = () => readCorpus(options.corpus, rereadOptions);
  const t0 = Date.now();
  let silver: SpanJsonlWriter | undefined;
  try {
    // Silver labels for `deid train --spans`: the detections the built blacklist kept, the corpus read again.
    silver = options.silverOut ? await openSpanJsonlWriter(options.silverOut, { force: options.force }) : undefined;
    const result = await buildBlacklist(docs, {
      ...build,
      reread,
      keepDetections: silver !== undefined,
      engine: options.graphOut ? 'graph' : options.engine,
      onProgress: (p) =>
        out.progress(
          p.agreement === undefined
            ? `blacklist: ${p.documents} documents, ${p.tokens} words (${Math.round(p.tokens / Math.max(0.001, (Date.now() - t0) / 1000))} words/s, engine ${p.engine})`
            : `blacklist: weighing the model's terms, ${p.agreement} of ${p.documents} documents read again`,
        ),
    });
    out.progressDone();
    try {
      await writeBlacklist(options.out, result.blacklist, { force: options.force });
      // Kept with the key, never beside the blacklist: a DP run refuses it if its training documents overlap.
      if (result.documentKeys) out.debug(`public documents recorded in ${await recordPublicDocuments(result.blacklist.header.corpus!, result.documentKeys)}`);
      if (options.graphOut) {
        await writeGraph(options.graphOut, result.engine as GraphEngine, { force: options.force });
      }
      if (options.exportPairs) {
        const engine = result.engine instanceof DuckdbEngine ? result.engine : await moveToDuckdb(result.engine as GraphEngine | CountingEngine);
        await engine.exportPairs(options.exportPairs, { force: options.force });
        if (engine !== result.engine) await engine.close();
      }
    } finally {
      await result.engine.close();
    }
    // After the engine is closed: the corpus is read again for its text, the detections kept from the first reading.
    if (silver) {
      let labelled = 0;
      for await (const doc of silverLabels(reread(), result.found!, result.blacklist)) {
        await silver.write(doc);
        if (++labelled % 500 === 0) out.progress(`blacklist: silver labels of ${labelled} documents`);
      }
      out.progressDone();
      await silver.commit();
    }
    const summary = { out: options.out, ...result.stats, engine: result.engine.name, skipped, seconds: (Date.now() - t0) / 1000 };
    out.summary(
      options.json,
      summary,
      (s) =>
        `wrote ${s.out}: ${s.direct} direct + ${s.indirect} indirect terms (${s.documents} documents, ${s.authors} authors, ${s.terms} distinct terms, engine ${s.engine})` +
        (s.modelDropped ? `; ${s.modelDropped} terms the model marked at too few of their occurrences left to the indirect rule (--model-agreement)` : '') +
        (s.modelCommonNouns ? `; ${s.modelCommonNouns} terms only the model found that mecab reads as common nouns left to the indirect rule` : '') +
        (s.modelCommonWords ? `; ${s.modelCommonWords} terms only the model found made of English words no name or place list holds left to the indirect rule` : '') +
        (s.skipped ? `; skipped ${s.skipped} bad rows` : ''),
    );
  } catch (err) {
    await silver?.abort();
    throw err;
  } finally {
    await close();
  }
}

async function moveToDuckdb(source: GraphEngine | CountingEngine): Promise<DuckdbEngine> {
  const engine = await DuckdbEngine.create();
  await engine.addRows(source.rows());
  return engine;
}

/** `ppmlm blacklist stats FILE`: counts by kind, category and source (no terms printed). */
export async function blacklistStats(options: { file: string; json?: boolean }, out: Reporter): Promise<void> {
  const { file } = options;
  const list = await readBlacklist(file);
  const count = (key: (e: (typeof list.entries)[number]) => readonly string[]) => {
    const m: Record<string, number> = {};
    for (const e of list.entries) for (const v of key(e)) m[v] = (m[v] ?? 0) + 1;
    return Object.fromEntries(Object.entries(m).sort((a, b) => b[1] - a[1]));
  };
  const stats = {
    terms: list.entries.length,
    header: { k: list.header.k, ngrams: list.header.ngrams, corpus: list.header.corpus, created: list.header.created },
    byKind: count((e) => [e.kind]),
    byCategory: count((e) => [e.category]),
    bySource: count((e) => e.sources),
  };
  if (options.json) return out.json(stats);
  const table = (title: string, m: Record<string, number>) => [title, ...Object.entries(m).map(([k, v]) => `  ${k.padEnd(16)} ${String(v).padStart(8)}`)];
  out.result([`${file}: ${stats.terms} terms (k=${stats.header.k ?? '-'}, n-grams ${stats.header.ngrams?.join('-') ?? '-'})`, ...table('by kind:', stats.byKind), ...table('by category:', stats.byCategory), ...table('by source:', stats.bySource)].join('\n'));
}

export interface BlacklistShowOptions {
  blacklist: string;
  text: string;
  json?: boolean;
  lang: Language;
  analyzer: AnalyzerChoice;
}

/** The text with each span marked ⟦like this⟧. */
function markSpans(text: string, spans: readonly [number, number][]): string {
  let result = '';
  let at = 0;
  for (const [s, e] of spans) {
    result += `${text.slice(at, s)}⟦${text.slice(s, e)}⟧`;
    at = e;
  }
  return result + text.slice(at);
}

/** `ppmlm blacklist show`: the text with protected spans marked ⟦like this⟧, to check what the matcher covers. */
export async function blacklistShow(options: BlacklistShowOptions, out: Reporter): Promise<void> {
  const list = await readBlacklist(options.blacklist);
  const text = decodeUtf8Strict(await readFile(options.text).catch((err: unknown) => {
    throw fileSystemError(err, options.text, 'check --text');
  }), options.text);
  const analyzer = analyzerFor(options.lang, options.analyzer, out);
  try {
    const spans = mergeSpans(await new BlacklistMatcher(list.entries).match(text, analyzer));
    // The text is the user's own file, printed back on request as without --json: offsets in UTF-16 code units, end exclusive.
    out.summary(options.json, { spans: spans.map(([start, end]) => ({ start, end, text: text.slice(start, end) })), marked: markSpans(text, spans) }, (s) => s.marked);
    out.info(`${spans.length} protected spans`);
  } finally {
    await analyzer?.close();
  }
}
