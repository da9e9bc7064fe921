import { loadCorpus } from '../../corpus/index.js';
import { alignGold, downstreamF1, readGold, runAudit, writeReport, type AuditReport } from '../../audit/index.js';
import { selectBackend, type BackendRequest } from '../../engine/index.js';
import { readBlacklist } from '../../identifiers/index.js';
import { assertCardMayHold, assertSeqLenFits, disposeParams, loadMaskedLm, readProvenance, writeModelCard, type AuditHeadline } from '../../model/index.js';
import { PpmlmError, UsageError } from '../../errors.js';
import { assertCanWriteFile, assertOutputsApart, isWithin } from '../../io/index.js';
import { join } from 'node:path';
import { corpusReadOptions, type CorpusFlags } from '../corpusOptions.js';
import { parseIntFlag, parseRangedFlag } from '../parseFlags.js';
import { FINETUNE_RANGES } from '../../mlm/index.js';
import type { Reporter } from '../reporter.js';
import type { AnalyzerChoice, Language } from '../../text/index.js';
import { analyzerFor } from './blacklist.js';

export interface AuditCommandOptions extends Omit<CorpusFlags, 'corpus'> {
  model: string;
  reference?: string;
  references?: string[];
  gold?: string;
  pllSamples: string;
  members: string;
  nonMembers: string;
  blacklist: string;
  out: string;
  seqLen: string;
  maxOccurrences: string;
  maskProb: string;
  seed: string;
  showIdentifiers?: boolean;
  task?: string;
  taskLabelCol: string;
  taskEpochs: string;
  force?: boolean;
  json?: boolean;
  /** Write the headline into the audited model's card (`--update-card`): the folder is what gets shared. */
  updateCard?: boolean;
  lang: Language;
  analyzer: AnalyzerChoice;
  backend: BackendRequest;
}

/** The one-screen summary of an audit: the verdict figures and where the report is. */
export function auditSummary(report: AuditReport, html: string): string {
  const p = report.privacy;
  const m = report.membership;
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
  const ind = m.byIndividual.all;
  const interval = (ci: [number, number]) => `[${f(ci[0])}, ${f(ci[1])}]`;
  return [
    `privacy score   all ${f(p.all.score)} ${interval(p.all.ci)}  direct ${f(p.direct.score)}  indirect ${f(p.indirect.score)}  (per occurrence, ${p.all.occurrences} occurrences of ${p.all.individuals} individuals; per subword ${f(p.all.subword.score)} ${interval(p.all.subword.ci)})`,
    ...(report.gold ? [`gold            blacklist recall ${f(report.gold.recall)} ${interval(report.gold.ci)} of ${report.gold.occurrences} gold occurrences; privacy on the missed ${f(report.gold.missed.score)} ${interval(report.gold.missed.ci)}`] : []),
    `membership      loss attack AUC ${f(m.loss.auc)} ${interval(m.loss.ci.auc)}, TPR@1%FPR ${f(m.loss.tprAt1)} ${interval(m.loss.ci.tprAt1)}` + (m.calibrated ? `; calibrated AUC ${f(m.calibrated.auc)} ${interval(m.calibrated.ci.auc)}, TPR@1%FPR ${f(m.calibrated.tprAt1)} ${interval(m.calibrated.ci.tprAt1)}` : '') + ` (per document: ${m.loss.n.members} members, ${m.loss.n.nonMembers} non-members)`,
    ...(ind ? [`                per individual: loss AUC ${f(ind.loss.auc)} ${interval(ind.loss.ci.auc)}` + (ind.lira ? `; LiRA AUC ${f(ind.lira.auc)} ${interval(ind.lira.ci.auc)}, TPR@1%FPR ${f(ind.lira.tprAt1)} ${interval(ind.lira.ci.tprAt1)}` : ind.liraMissing ? `; LiRA not computed: ${ind.liraMissing}` : '') + (m.byIndividual.protected ? `; protected positions only: loss AUC ${f(m.byIndividual.protected.loss.auc)} ${interval(m.byIndividual.protected.loss.ci.auc)}` : '') + ` (${ind.members} member, ${ind.nonMembers} non-member individuals)`] : []),
    ...(report.canaries ? [`canaries        exposure minus control ${f(report.canaries.difference.value)} ± ${f(report.canaries.difference.se)} bits (${report.canaries.planted.n} planted secrets in ${report.canaries.planted.clusters} clusters, ${report.canaries.control.n} controls in ${report.canaries.control.clusters}; SE clustered by carrier)`] : []),
    `utility         fill-mask top-1 ${f(report.utility.accuracy)} on non-blacklisted tokens (unigram baseline ${f(report.utility.unigramBaseline)})` +
      (report.utility.downstream ? `; downstream macro F1 ${f(report.utility.downstream.macroF1)}, micro F1 ${f(report.utility.downstream.microF1)}` : ''),
    `regurgitation   ${report.regurgitation.top1Terms} terms recovered top-1`,
    `report          ${html}`,
  ].join('\n');
}

/** The figures of a report that the model card shows: numbers only, so a card never carries an identifier. */
export function auditHeadline(report: AuditReport): AuditHeadline {
  const p = report.privacy;
  const person = report.membership.byIndividual.all;
  // The unit of privacy is the person: the card shows the attack on individuals whenever the audit has it.
  const membership: AuditHeadline['membership'] = person
    ? { unit: 'individual', lossAuc: person.loss.auc, ci: person.loss.ci.auc, members: person.members, nonMembers: person.nonMembers, ...(person.calibrated && { calibratedAuc: person.calibrated.auc }) }
    : { unit: 'document', lossAuc: report.membership.loss.auc, ci: report.membership.loss.ci.auc, members: report.membership.members, nonMembers: report.membership.nonMembers, ...(report.membership.calibrated && { calibratedAuc: report.membership.calibrated.auc }) };
  return {
    privacy: { all: p.all.score, ci: p.all.ci, direct: p.direct.score, indirect: p.indirect.score, occurrences: p.all.occurrences },
    membership,
    utility: { accuracy: report.utility.accuracy, ...(report.utility.downstream && { downstreamMacroF1: report.utility.downstream.macroF1 }) },
    regurgitatedTerms: report.regurgitation.top1Terms,
    auditedAt: report.createdAt,
  };
}

/** `ppmlm audit`: privacy score, regurgitation, membership inference and utility → report.json + report.html (0600). */
export async function auditCommand(options: AuditCommandOptions, out: Reporter): Promise<void> {
  const seqLen = parseRangedFlag(options.seqLen, '--seq-len', FINETUNE_RANGES.seqLen);
  const maxOccurrences = parseIntFlag(options.maxOccurrences, '--max-occurrences', { min: 1 });
  const maskProb = parseRangedFlag(options.maskProb, '--mask-prob', FINETUNE_RANGES.maskProb);
  const seed = parseIntFlag(options.seed, '--seed');
  const pllSamples = parseIntFlag(options.pllSamples, '--pll-samples', { min: 0 });
  const taskEpochs = parseIntFlag(options.taskEpochs, '--task-epochs', { min: 1 });
  // A report names the blacklisted terms a model regurgitates: never in a model folder, which is shared.
  for (const dir of [options.model, options.reference, ...(options.references ?? [])]) {
    if (dir !== undefined && isWithin(options.out, dir)) throw new UsageError(`--out ${options.out} is inside the model folder ${dir}, which is shared; reports hold personal data: write them elsewhere`);
  }
  // The folder is only added to: its two reports are the outputs, and inputs kept beside them stay.
  const reports = ['report.json', 'report.html'];
  const referencePaths = Object.fromEntries((options.references ?? []).map((dir, i) => [`--references (${i + 1})`, dir]));
  await assertOutputsApart({ '--model': options.model, '--reference': options.reference, ...referencePaths, '--gold': options.gold, '--members': options.members, '--non-members': options.nonMembers, '--blacklist': options.blacklist, '--task': options.task }, Object.fromEntries(reports.map((f) => [`--out (${f})`, join(options.out, f)])));
  for (const f of reports) await assertCanWriteFile(join(options.out, f), options.force);
  // Before the long work: a DP model's card never takes the figures.
  if (options.updateCard) assertCardMayHold(await readProvenance(options.model), true, options.model);
  const blacklist = await readBlacklist(options.blacklist);
  const backend = await selectBackend(options.backend, { runsOnWebgpu: true });
  out.info(`backend: ${backend.name}`);
  const target = await loadMaskedLm(options.model);
  const reference = options.reference ? await loadMaskedLm(options.reference) : undefined;
  assertSeqLenFits(target.model.config, seqLen, '--seq-len', options.model);
  if (reference) assertSeqLenFits(reference.model.config, seqLen, '--seq-len', options.reference!);
  const members = await loadCorpus(options.members, corpusReadOptions({ ...options, corpus: options.members }));
  const nonMembers = await loadCorpus(options.nonMembers, corpusReadOptions({ ...options, corpus: options.nonMembers }));
  const gold = options.gold ? alignGold(await readGold(options.gold), members, options.gold) : undefined;
  // Read before the audit, which takes minutes: a bad --task would fail only after it.
  // Only --task-label-col chooses a column of --task: the others are --members' flags.
  const taskDocs = options.task === undefined ? undefined : await loadCorpus(options.task, { ...corpusReadOptions({ corpus: options.task, labelCol: options.taskLabelCol, skipBadRows: options.skipBadRows }), choices: { label: '--task-label-col' } });
  const references = [];
  for (const dir of options.references ?? []) {
    const loaded = await loadMaskedLm(dir);
    assertSeqLenFits(loaded.model.config, seqLen, '--seq-len', dir);
    references.push({ name: dir, model: loaded.model, tokenizer: loaded.tokenizer });
  }
  const analyzer = analyzerFor(options.lang, options.analyzer, out);
  try {
    const report = await runAudit({
      target: { name: options.model, model: target.model, tokenizer: target.tokenizer, provenance: target.provenance },
      reference: reference && { name: options.reference!, model: reference.model, tokenizer: reference.tokenizer },
      references,
      ...(gold && { gold }),
      pllSamples,
      members,
      nonMembers,
      blacklist,
      seqLen,
      maxOccurrences,
      maskProb,
      seed,
      showIdentifiers: options.showIdentifiers === true,
      analyzer,
      onProgress: (stage) => out.progress(`audit: ${stage}`, true),
      onWarn: (m) => out.warnOnce(m),
    });
    // The downstream task loads each model again to train a head: the audited copies must not stay in the heap beside them.
    disposeParams(target.model.params);
    if (reference) disposeParams(reference.model.params);
    for (const r of references) disposeParams(r.model.params);
    if (taskDocs !== undefined) {
      const taskOptions = { epochs: taskEpochs, seqLen, seed, analyzer, onWarn: (m: string) => out.warnOnce(m) };
      out.progress('audit: downstream classification', true);
      const target = await downstreamF1(options.model, taskDocs, taskOptions);
      const ref = options.reference ? await downstreamF1(options.reference, taskDocs, taskOptions) : undefined;
      report.utility.downstream = { macroF1: target.macroF1, microF1: target.microF1, train: target.train, test: target.test, ...(ref && { reference: { macroF1: ref.macroF1, microF1: ref.microF1 } }) };
    }
    out.progressDone();
    const { html } = await writeReport(options.out, report, { force: options.force });
    if (options.updateCard) await updateCard(options.model, target.model.config, auditHeadline(report), out);
    out.summary(options.json, { ...report, report: html }, () => auditSummary(report, html));
  } finally {
    await analyzer?.close();
  }
}

/** Puts the headline into the model's card; a folder that cannot be written costs a warning, not the audit. */
async function updateCard(dir: string, config: Parameters<typeof writeModelCard>[1], headline: AuditHeadline, out: Reporter): Promise<void> {
  try {
    if ((await writeModelCard(dir, config, headline)) === 'kept-foreign-readme') out.warn(`${join(dir, 'README.md')} was not written by ppmlm; left as it is (the headline figures are in the report)`);
    else out.info(`model card ${join(dir, 'README.md')} updated with the headline figures`);
  } catch (err) {
    if (!(err instanceof PpmlmError)) throw err;
    out.warn(`model card not updated: ${err.located}`);
  }
}
