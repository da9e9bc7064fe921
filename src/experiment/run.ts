import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { alignGold, readGold, runAudit, writeReport, type AuditModel, type AuditOptions, type AuditReport, type GoldSpan } from '../audit/index.js';
import { DEFAULT_COLUMNS, loadCorpus, withoutAuthors, type CorpusReadOptions, type Document } from '../corpus/index.js';
import { BlacklistMatcher, blacklistFingerprint, buildBlacklist, occurrenceTokens, protectedMask, readBlacklist, type Blacklist } from '../identifiers/index.js';
import { checkpointDirFor, contentFingerprint, hasCheckpoint } from '../engine/index.js';
import { ConfigError, UsageError } from '../errors.js';
import { DEFAULT_SEQ_LEN, finetune, parseAxes, privateInputsOf } from '../mlm/index.js';
import { checkVocabulary, disposeParams, loadMaskedLm, loadModelDir, usablePositions, type LoadedModel } from '../model/index.js';
import { assertCanWrite, PRIVATE_FILE_MODE, writeFileAtomic } from '../io/index.js';
import { checkPrivateInputs } from '../privacy/index.js';
import { analyzerForLanguage, type MorphAnalyzer } from '../text/index.js';
import { BlacklistedTerms, morphemesFor, tokenizeAtMorphemes, type Tokenizer } from '../tokenizer/index.js';
import { assertCanariesProtected, canaryCounts, plantCanaries, protectedCanaryOccurrences, type PlantedCanaries, type PlantedSpan } from './canaries.js';
import type { ExperimentConfig } from './config.js';
import { assertSameExperiment, documentsFingerprint, sharedSettings, weightsFingerprint } from './settings.js';
import { resultsCsv, resultsMarkdown, resultsSvg, type ResultRow } from './results.js';

export interface ExperimentOptions {
  config: ExperimentConfig;
  out: string;
  log: (message: string) => void;
  /** The config's file, named by the errors about its settings that only the run can find. */
  configFile?: string;
}

const exists = (p: string) => stat(p).then(() => true, () => false);

/** One row of the results table from a cell's audit report. */
function resultRow(strategy: string, epochs: number, seed: number, report: AuditReport): ResultRow {
  return {
    strategy,
    epochs,
    seed,
    privacyAll: report.privacy.all.score,
    privacyDirect: report.privacy.direct.score,
    privacyIndirect: report.privacy.indirect.score,
    miaAuc: report.membership.loss.auc,
    miaTpr1: report.membership.loss.tprAt1,
    calibratedTpr1: report.membership.calibrated?.tprAt1 ?? NaN,
    calibratedAuc: report.membership.calibrated?.auc ?? NaN,
    utility: report.utility.accuracy,
    utilityBase: report.utility.reference ?? NaN,
    utilityBaseline: report.utility.unigramBaseline,
    privacyCanary: report.privacy.byCategory?.CANARY?.score ?? NaN,
    canaryExposure: report.exposure?.mean ?? NaN,
    canaryControl: report.canaries?.control.mean ?? NaN,
    canaryExcess: report.canaries?.difference.value ?? NaN,
    canaryExcessSe: report.canaries?.difference.se ?? NaN,
    miaIndividualAuc: report.membership.byIndividual?.all?.loss.auc ?? NaN,
    miaProtectedAuc: report.membership.byIndividual?.protected?.loss.auc ?? NaN,
    liraAuc: report.membership.byIndividual?.all?.lira?.auc ?? NaN,
    privacySubword: report.privacy.all.subword?.score ?? NaN,
    goldRecall: report.gold?.recall ?? NaN,
    privacyGoldMissed: report.gold?.missed.score ?? NaN,
    epsilon: report.target.provenance?.dp?.epsilon ?? NaN,
    epsilonUnit: report.target.provenance?.dp?.unit ?? '',
  };
}

/** What every cell is audited against: the corpora, the blacklist and where it came from, canaries, gold. */
interface Setting {
  members: Document[];
  nonMembers: Document[];
  blacklist: Blacklist;
  scope: 'members' | 'given';
  canaries?: PlantedCanaries;
  gold?: GoldSpan[];
  /** LiRA's reference pool split by individual, and whether it is the non-members (then excluded per reference). */
  liraSplits: Document[][];
  liraOnNonMembers: boolean;
  analyzer: MorphAnalyzer | undefined;
  /** The model of the config, audited as row `base` and as every audit's reference. */
  base: LoadedModel;
}

/** The audit's window: its own, else fine-tuning's, else the default. */
const auditSeqLen = (config: ExperimentConfig) => config.audit?.seqLen ?? config.finetune?.seqLen ?? DEFAULT_SEQ_LEN;

/**
 * Runs the comparison: for each seed, audit the base model (row `base`, 0 epochs); for each strategy,
 * fine-tune from it to the largest epoch count (saving every epoch), audit each listed epoch against the
 * same members and non-members, and write the table (CSV + Markdown) and plots. A cell whose report
 * exists is not recomputed, so a killed experiment resumes.
 */
export async function runExperiment(options: ExperimentOptions): Promise<ResultRow[]> {
  const { config, log } = options;
  // Every cell writes under out: a file there, or a parent that cannot be written, fails now, not after the base audit.
  if ((await stat(options.out).catch(() => undefined))?.isFile()) throw new UsageError(`${options.out}: a file, not a folder; give experiment --out a folder (its runs, cells and results go there)`);
  await assertCanWrite(options.out, true);
  // The base row and every audit's reference read the masked-LM head: a bare encoder's would be random.
  const base = await loadMaskedLm(config.model, 'set "model" in the config to a …ForMaskedLM folder, as the base row and every audit\'s reference read its predictions (fine-tuning alone may start from a bare encoder: ppmlm finetune)');
  const read: CorpusReadOptions = { columns: config.columns ?? {}, choices: Object.fromEntries(Object.keys(DEFAULT_COLUMNS).map((key) => [key, `"columns.${key}" in the config`])) };
  let analyzer: MorphAnalyzer | undefined;
  try {
    // Before any corpus is read: a window longer than the model's positions would fail only at its first fine-tuning.
    const positions = usablePositions(base.model.config);
    // Without a strategy nothing is fine-tuned (only the base model is audited), and no LiRA reference either.
    const windows: [string, number, string][] = [
      ...(config.strategies.length > 0 ? [['finetune.seqLen', config.finetune?.seqLen ?? DEFAULT_SEQ_LEN, config.finetune?.seqLen === undefined ? ' (the default)' : ''] as [string, number, string]] : []),
      ['audit.seqLen', auditSeqLen(config), config.audit?.seqLen !== undefined ? '' : config.finetune?.seqLen !== undefined ? ' (finetune.seqLen\'s)' : ' (the default)'],
    ];
    for (const [key, seqLen, whence] of windows) {
      if (seqLen > positions) throw new ConfigError(`"${key}" is ${seqLen}${whence}, beyond the ${positions} positions of ${config.model} (config.json max_position_embeddings); set "${key}" to ${positions} or less in the config`, { file: options.configFile });
    }
    const original = await loadCorpus(config.members, read);
    const nonMembers = await loadCorpus(config.nonMembers, read);
    analyzer = analyzerForLanguage(config.lang ?? 'auto', config.analyzer, log);
    // Without a blacklist, it comes from the members alone: what a data holder can build from the data it shares.
    const blacklist = config.blacklist ? await readBlacklist(config.blacklist) : (await buildBlacklist(original, { ...(analyzer && { analyzer }) })).blacklist;
    log(config.blacklist ? `blacklist ${config.blacklist}, used as is` : `blacklist built from the ${original.length} member documents only: ${blacklist.entries.length} terms`);
    // Gold spans are placed on the members as read: canaries are appended after the text, so offsets hold.
    const gold = config.gold ? alignGold(await readGold(config.gold), original, config.gold) : undefined;
    const pool = config.lira?.corpus ? await loadCorpus(config.lira.corpus, read) : nonMembers;
    // Before any cell is reused: a finished cell counts only under the settings and data it was computed with.
    await assertSameExperiment(
      options.out,
      sharedSettings(config, {
        'members (read)': documentsFingerprint(original),
        'nonMembers (read)': documentsFingerprint(nonMembers),
        'blacklist (used)': blacklistFingerprint(blacklist),
        ...(gold && { 'gold (read)': contentFingerprint([JSON.stringify(gold)]) }),
        ...(config.lira?.corpus && { 'lira.corpus (read)': documentsFingerprint(pool) }),
        'model config.json': contentFingerprint([JSON.stringify(base.model.config)]),
        'model weights': weightsFingerprint(base.model.params),
      }),
      config.epochs,
    );
    let canaries: PlantedCanaries | undefined;
    if (config.canaries) {
      canaries = plantCanaries(original, config.canaries);
      blacklist.entries.push(...canaries.entries);
      const { count, repeats } = canaryCounts(config.canaries);
      log(`planted ${count} canaries ${repeats} times each, with ${count} never-planted controls`);
    }
    const setting: Setting = {
      members: canaries?.docs ?? original,
      nonMembers,
      blacklist,
      scope: config.blacklist ? 'given' : 'members',
      ...(canaries && { canaries }),
      ...(gold && { gold }),
      liraSplits: config.lira ? splitByIndividual(pool, config.lira.references, options.configFile) : [],
      liraOnNonMembers: config.lira !== undefined && !config.lira.corpus,
      analyzer,
      base,
    };
    return await runCells(options, setting);
  } finally {
    disposeParams(base.model.params);
    await analyzer?.close();
  }
}

/** Disjoint splits of a corpus by individual (round robin over the sorted authors). */
function splitByIndividual(docs: readonly Document[], parts: number, configFile?: string): Document[][] {
  const authors = [...new Set(docs.map((d) => d.author))].sort();
  if (authors.length < parts) throw new ConfigError(`"lira.references" is ${parts}, but its corpus has ${authors.length} individuals to split between them; lower it or give "lira.corpus"`, { file: configFile });
  const part = new Map(authors.map((a, i) => [a, i % parts]));
  return Array.from({ length: parts }, (_, r) => docs.filter((d) => part.get(d.author) === r));
}

/** How the experiment reads its members: the blacklist matched with `analyzer`, tokens cut at `morphemes` for a vocabulary learnt on them. */
export interface CanaryReading {
  blacklist: Blacklist;
  tokenizer: Tokenizer;
  analyzer?: MorphAnalyzer;
  morphemes?: MorphAnalyzer;
}

/**
 * Stops the experiment unless every planted canary occurrence is matched by the blacklist and all its
 * tokens are protected; `expected` is how many the config plants to be protected.
 */
export async function checkCanaries(canaries: PlantedCanaries, docs: readonly Document[], expected: number, { blacklist, tokenizer, analyzer, morphemes }: CanaryReading): Promise<void> {
  const matcher = new BlacklistMatcher(blacklist.entries);
  const ok = new Set<PlantedSpan>();
  for (const d of new Set(canaries.spans.map((s) => s.doc))) {
    const text = docs[d]!.text;
    const body = await tokenizeAtMorphemes(tokenizer, text, morphemes);
    const matches = await matcher.match(text, analyzer);
    const mask = protectedMask(body.offsets, matches, body.special);
    for (const s of canaries.spans.filter((x) => x.doc === d)) {
      const tokens = occurrenceTokens(body.offsets, s, body.special);
      const matched = matches.some((m) => m.start <= s.start && m.end >= s.end);
      if (matched && tokens.length > 0 && tokens.every((t) => mask[t] === 1)) ok.add(s);
    }
  }
  assertCanariesProtected(canaries.spans, expected, (s) => ok.has(s));
}

async function runCells(options: ExperimentOptions, setting: Setting): Promise<ResultRow[]> {
  const { config, out, log } = options;
  const { members, nonMembers, blacklist, analyzer } = setting;
  const maxEpochs = config.epochs.at(-1)!;
  const rows: ResultRow[] = [];
  const reference = setting.base;
  // Every cell's fine-tuning checks the vocabulary by its provenance; checked once here, so that a refusal
  // comes before the base model's audit and names the config key, not the CLI flag.
  if (config.strategies.length) {
    checkVocabulary(reference.tokenizer, reference.provenance?.vocabulary, {
      blacklisted: new BlacklistedTerms(blacklist.entries.map((e) => e.term)),
      allowIdentifiers: config.finetune?.allowVocabularyIdentifiers,
      override: 'set "finetune": { "allowVocabularyIdentifiers": true } in the config',
    }, log);
  }
  // The DP cells' refusals, here before any audit, naming the config keys.
  if (config.strategies.some((s) => parseAxes(s).privacy === 'dp')) {
    if ((config.finetune?.dpUnit ?? 'author') === 'author' && withoutAuthors(members)) {
      throw new ConfigError(`"finetune.dpUnit" author${config.finetune?.dpUnit === undefined ? ' (the default)' : ''} needs the members' author column: each of their ${members.length} documents is its own author; set "columns.author" in the config (or "finetune": { "dpUnit": "window" }, a guarantee per window, not per person)`, { file: options.configFile });
    }
    checkPrivateInputs(
      await privateInputsOf(
        { blacklist, vocabulary: reference.provenance?.vocabulary },
        { blacklist: config.blacklist ? `the blacklist ${config.blacklist}` : 'the blacklist built from the members', vocabulary: `the tokenizer of ${config.model}` },
        members.map((d) => d.text),
      ),
      config.finetune?.dpAllowPrivatePreprocessing,
      'set "finetune": { "dpAllowPrivatePreprocessing": true } in the config',
    );
  }
  if (setting.canaries) {
    // Tokenised as fine-tuning will (a vocabulary learnt on Korean morphemes reads text cut so).
    const { morphemes, warning } = morphemesFor(reference.provenance?.vocabulary?.morphemes, analyzer, members.map((d) => d.text));
    if (warning) log(warning);
    await checkCanaries(setting.canaries, members, protectedCanaryOccurrences(config.canaries!), { blacklist, tokenizer: reference.tokenizer, analyzer, morphemes });
  }
  const cellDir = (strategy: string, epochs: number, seed: number) => join(out, 'cells', `${strategy}-e${epochs}-s${seed}`);
  /** A cell's stored report, or a fresh audit of the model `load` gives (then stored). */
  const cellReport = async (strategy: string, epochs: number, seed: number, load: () => Promise<LoadedModel>, references: () => Promise<AuditOptions['references']> = async () => []): Promise<AuditReport> => {
    const dir = cellDir(strategy, epochs, seed);
    if (await exists(join(dir, 'report.json'))) return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as AuditReport;
    log(`audit ${strategy} after ${epochs} epochs, seed ${seed}`);
    const target = await load();
    const refs = (await references()) ?? [];
    const report = await runAudit({
      target: { name: `${strategy} e${epochs} s${seed}`, model: target.model, tokenizer: target.tokenizer, provenance: target.provenance },
      reference: { name: 'base', model: reference.model, tokenizer: reference.tokenizer },
      references: refs,
      members,
      nonMembers,
      blacklist,
      blacklistScope: setting.scope,
      seqLen: auditSeqLen(config),
      maxOccurrences: config.audit?.maxOccurrences ?? 2000,
      seed,
      analyzer,
      onWarn: log,
      ...(setting.gold && { gold: setting.gold }),
      ...(setting.canaries && { reportCategories: ['CANARY'], exposure: setting.canaries.probes, controlExposure: setting.canaries.controls, excludeFromMembership: setting.canaries.carriers }),
    });
    if (target !== reference) disposeParams(target.model.params);
    for (const r of refs) disposeParams(r.model.params);
    await writeReport(dir, report, { force: true });
    return report;
  };
  /** Fine-tunes `docs` with `strategy` to the largest epoch count, saving every epoch, unless its snapshots exist. */
  const train = async (strategy: string, docs: Document[], runDir: string, seed: number, what = '') => {
    if (await exists(`${runDir}.epoch-${maxEpochs}`)) return;
    log(`fine-tune ${strategy}, seed ${seed}, ${maxEpochs} epochs${what}`);
    const f = config.finetune ?? {};
    const axes = parseAxes(strategy);
    // Switches of constrained masking apply to the constrained cells only; the others train as before.
    const constrained = axes.masking === 'constrained';
    await finetune({
      model: config.model,
      docs,
      strategy,
      blacklist,
      out: runDir,
      epochs: maxEpochs,
      seed,
      saveEveryEpoch: true,
      // A killed run continues; a new one replaces whatever a run that never checkpointed left.
      resume: await hasCheckpoint(checkpointDirFor(runDir)),
      force: true,
      analyzer,
      onWarn: log,
      ...(f.seqLen && { seqLen: f.seqLen }),
      ...(f.batchSize && { batchSize: f.batchSize }),
      ...(f.lr && { lr: f.lr }),
      ...(f.maskProb && { maskProb: f.maskProb }),
      ...(f.dropout !== undefined && { dropout: f.dropout }),
      ...(f.allowVocabularyIdentifiers && { allowVocabularyIdentifiers: true }),
      ...(f.freezeProtectedEmbeddings && constrained && { freezeProtectedEmbeddings: true }),
      ...(f.hideProtectedContext && constrained && { hideProtectedContext: true }),
      ...(f.untieDecoder && { untieDecoder: true }),
      ...(axes.privacy === 'dp' && {
        dp: { noiseMultiplier: f.dpNoise, targetEpsilon: f.targetEpsilon, clip: f.dpClip, unit: f.dpUnit, maxWindows: f.dpMaxWindows, delta: f.delta, accountant: f.accountant, allowPrivatePreprocessing: f.dpAllowPrivatePreprocessing },
      }),
    });
  };
  for (const seed of config.seeds) {
    // The base model audited like the fine-tuned ones: what it predicts before any fine-tuning (public
    // knowledge such as common names or date formats) is the floor every strategy starts from.
    rows.push(resultRow('base', 0, seed, await cellReport('base', 0, seed, async () => reference)));
    for (const strategy of config.strategies) {
      const runDir = join(out, 'runs', `${strategy}-s${seed}`);
      const snapshot = (dir: string, e: number) => `${dir}.epoch-${e}`;
      const liraDirs = setting.liraSplits.map((_, r) => join(out, 'runs', `lira-${strategy}-s${seed}-r${r}`));
      const done = await Promise.all(config.epochs.map((e) => exists(join(cellDir(strategy, e, seed), 'report.json'))));
      if (done.includes(false)) {
        await train(strategy, members, runDir, seed);
        // LiRA's reference models: the target's recipe on disjoint splits that hold no member.
        for (const [r, split] of setting.liraSplits.entries()) await train(strategy, split, liraDirs[r]!, seed + 1000 * (r + 1), ` (LiRA reference ${r + 1} of ${liraDirs.length})`);
      }
      const references = (e: number) => async () =>
        Promise.all(liraDirs.map(async (dir, r): Promise<AuditModel & { trainedOn?: ReadonlySet<string> }> => {
          const loaded = await loadModelDir(snapshot(dir, e), 'mlm');
          return { name: `LiRA reference ${r + 1}`, model: loaded.model, tokenizer: loaded.tokenizer, ...(setting.liraOnNonMembers && { trainedOn: new Set(setting.liraSplits[r]!.map((d) => d.id)) }) };
        }));
      for (const e of config.epochs) rows.push(resultRow(strategy, e, seed, await cellReport(strategy, e, seed, () => loadModelDir(snapshot(runDir, e), 'mlm'), references(e))));
    }
  }
  // The table names no identifiers, but it describes private data: private like the reports.
  await writeFileAtomic(join(out, 'results.csv'), resultsCsv(rows), { force: true, mode: PRIVATE_FILE_MODE });
  await writeFileAtomic(join(out, 'results.md'), resultsMarkdown(rows), { force: true, mode: PRIVATE_FILE_MODE });
  await writeFileAtomic(join(out, 'plots.html'), resultsSvg(rows), { force: true, mode: PRIVATE_FILE_MODE });
  return rows;
}
