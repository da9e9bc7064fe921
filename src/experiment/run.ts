import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runAudit, writeReport, type AuditReport, type ExposureProbe } from '../audit/index.js';
import { loadCorpus, type CorpusReadOptions, type Document } from '../corpus/index.js';
import { readBlacklist, type Blacklist } from '../identifiers/index.js';
import { checkpointDirFor, hasCheckpoint } from '../engine/index.js';
import { finetune, parseAxes } from '../mlm/index.js';
import { disposeParams, loadModelDir, type LoadedModel } from '../model/index.js';
import { PRIVATE_FILE_MODE, writeFileAtomic } from '../io/index.js';
import { analyzerForLanguage, type MorphAnalyzer } from '../text/index.js';
import { plantCanaries } from './canaries.js';
import type { ExperimentConfig } from './config.js';
import { resultsCsv, resultsMarkdown, resultsSvg, type ResultRow } from './results.js';

export interface ExperimentOptions {
  config: ExperimentConfig;
  out: string;
  log: (message: string) => void;
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
    epsilon: report.target.provenance?.dp?.epsilon ?? NaN,
    epsilonUnit: report.target.provenance?.dp?.unit ?? '',
  };
}

/**
 * Runs the comparison: for each seed, audit the base model (row `base`, 0 epochs); for each strategy,
 * fine-tune from it to the largest epoch count (saving every epoch), audit each listed epoch against the
 * same members and non-members, and write the table (CSV + Markdown) and plots. A cell whose report
 * exists is not recomputed, so a killed experiment resumes.
 */
export async function runExperiment(options: ExperimentOptions): Promise<ResultRow[]> {
  const { config, out, log } = options;
  const read: CorpusReadOptions = { columns: config.columns ?? {} };
  let members = await loadCorpus(config.members, read);
  let probes: ExposureProbe[] = [];
  const nonMembers = await loadCorpus(config.nonMembers, read);
  const blacklist = await readBlacklist(config.blacklist);
  if (config.canaries) {
    const planted = plantCanaries(members, config.canaries);
    members = planted.docs;
    probes = planted.probes;
    blacklist.entries.push(...planted.entries);
    log(`planted ${config.canaries.count} canaries ${config.canaries.repeats} times each`);
  }
  const analyzer = analyzerForLanguage(config.lang ?? 'auto', config.analyzer, log);
  try {
    return await runCells(options, members, nonMembers, blacklist, probes, analyzer);
  } finally {
    await analyzer?.close();
  }
}

async function runCells(options: ExperimentOptions, members: Document[], nonMembers: Document[], blacklist: Blacklist, probes: ExposureProbe[], analyzer: MorphAnalyzer | undefined): Promise<ResultRow[]> {
  const { config, out, log } = options;
  const maxEpochs = config.epochs.at(-1)!;
  const rows: ResultRow[] = [];
  const reference = await loadModelDir(config.model, 'mlm');
  const cellDir = (strategy: string, epochs: number, seed: number) => join(out, 'cells', `${strategy}-e${epochs}-s${seed}`);
  /** A cell's stored report, or a fresh audit of the model `load` gives (then stored). */
  const cellReport = async (strategy: string, epochs: number, seed: number, load: () => Promise<LoadedModel>): Promise<AuditReport> => {
    const dir = cellDir(strategy, epochs, seed);
    if (await exists(join(dir, 'report.json'))) return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as AuditReport;
    log(`audit ${strategy} after ${epochs} epochs, seed ${seed}`);
    const target = await load();
    const report = await runAudit({
      target: { name: `${strategy} e${epochs} s${seed}`, model: target.model, tokenizer: target.tokenizer, provenance: target.provenance },
      reference: { name: 'base', model: reference.model, tokenizer: reference.tokenizer },
      members,
      nonMembers,
      blacklist,
      seqLen: config.audit?.seqLen ?? config.finetune?.seqLen ?? 128,
      maxOccurrences: config.audit?.maxOccurrences ?? 2000,
      seed,
      analyzer,
      ...(config.canaries && { reportCategories: ['CANARY'], exposure: probes }),
    });
    if (target !== reference) disposeParams(target.model.params);
    await writeReport(dir, report, { force: true });
    return report;
  };
  for (const seed of config.seeds) {
    // The base model audited like the fine-tuned ones: what it predicts before any fine-tuning (public
    // knowledge such as common names or date formats) is the floor every strategy starts from.
    rows.push(resultRow('base', 0, seed, await cellReport('base', 0, seed, async () => reference)));
    for (const strategy of config.strategies) {
      const runDir = join(out, 'runs', `${strategy}-s${seed}`);
      const snapshot = (e: number) => `${runDir}.epoch-${e}`;
      const done = await Promise.all(config.epochs.map((e) => exists(join(cellDir(strategy, e, seed), 'report.json'))));
      if (done.includes(false) && !(await exists(snapshot(maxEpochs)))) {
        log(`fine-tune ${strategy}, seed ${seed}, ${maxEpochs} epochs`);
        const f = config.finetune ?? {};
        await finetune({
          model: config.model,
          docs: members,
          strategy,
          blacklist,
          out: runDir,
          epochs: maxEpochs,
          seed,
          saveEveryEpoch: true,
          // A killed run continues; a new one replaces whatever a run that never checkpointed left.
          resume: await hasCheckpoint(checkpointDirFor(runDir)),
          force: true,
          noRandomBlacklisted: true,
          analyzer,
          ...(f.seqLen && { seqLen: f.seqLen }),
          ...(f.batchSize && { batchSize: f.batchSize }),
          ...(f.lr && { lr: f.lr }),
          ...(f.maskProb && { maskProb: f.maskProb }),
          ...(parseAxes(strategy).privacy === 'dp' && {
            dp: { noiseMultiplier: f.dpNoise, targetEpsilon: f.targetEpsilon, clip: f.dpClip, unit: f.dpUnit, maxWindows: f.dpMaxWindows, delta: f.delta, accountant: f.accountant },
          }),
        });
      }
      for (const e of config.epochs) rows.push(resultRow(strategy, e, seed, await cellReport(strategy, e, seed, () => loadModelDir(snapshot(e), 'mlm'))));
    }
  }
  disposeParams(reference.model.params);
  // The table names no identifiers, but it describes private data: private like the reports.
  await writeFileAtomic(join(out, 'results.csv'), resultsCsv(rows), { force: true, mode: PRIVATE_FILE_MODE });
  await writeFileAtomic(join(out, 'results.md'), resultsMarkdown(rows), { force: true, mode: PRIVATE_FILE_MODE });
  await writeFileAtomic(join(out, 'plots.html'), resultsSvg(rows), { force: true, mode: PRIVATE_FILE_MODE });
  return rows;
}
