import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAudit, writeReport, type AuditReport } from '../audit/index.js';
import { corpusFingerprinter, loadCorpus, type Document } from '../corpus/index.js';
import { selectBackend, type BackendRequest } from '../engine/index.js';
import { UsageError } from '../errors.js';
import { blacklistFingerprint, buildBlacklist, writeBlacklist } from '../identifiers/index.js';
import { finetune, type StrategyName } from '../mlm/index.js';
import { checkVocabulary, defaultConfig, disposeParams, initParams, loadModelDir, parameterShapes, saveModelDir, vocabularyProvenance } from '../model/index.js';
import { BlacklistedTerms, trainWordPiece } from '../tokenizer/index.js';
import { PACKAGE_VERSION } from '../version.js';

/** How much compute the demo spends; `small` is for tests and quick looks. */
export interface DemoBudget {
  hidden: number;
  layers: number;
  seqLen: number;
  pretrainEpochs: number;
  finetuneEpochs: number;
  /** Patients in each of the member and non-member halves. */
  patients: number;
  lr: number;
}

export const DEMO_BUDGETS: Record<'full' | 'small', DemoBudget> = {
  full: { hidden: 128, layers: 2, seqLen: 64, pretrainEpochs: 6, finetuneEpochs: 16, patients: 40, lr: 1e-3 },
  small: { hidden: 64, layers: 1, seqLen: 48, pretrainEpochs: 2, finetuneEpochs: 30, patients: 8, lr: 3e-3 },
};

export interface DemoOptions {
  out: string;
  force?: boolean;
  budget: DemoBudget;
  backend?: BackendRequest;
  /** The bundled corpora (examples/clinical-en). */
  examples?: string;
  log: (message: string) => void;
  progress?: (message: string) => void;
}

export interface DemoResult {
  reports: Record<string, { report: AuditReport; html: string }>;
  summary: string;
}

const EXAMPLES = fileURLToPath(new URL('../../examples/clinical-en/', import.meta.url));

/**
 * The whole pipeline on the bundled synthetic clinical corpus: blacklist the private notes, pretrain a
 * small encoder on public notes, fine-tune it on half of the private patients with standard and
 * constrained masking (same seed, same batches), and audit both against the other half.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const { budget, log } = options;
  const out = options.out;
  const exists = await stat(out).then(() => true, () => false);
  if (exists && !options.force) throw new UsageError(`${out} already exists (a previous demo run); pass --force to replace it or --out DIR`);
  await mkdir(out, { recursive: true });
  const backend = await selectBackend(options.backend ?? 'auto');
  log(`backend: ${backend.name}`);
  const examples = options.examples ?? EXAMPLES;
  const notes = await loadCorpus(join(examples, 'notes.csv'));
  const publicNotes = await loadCorpus(join(examples, 'public.csv'));
  const authors = [...new Set(notes.map((d) => d.author))].sort();
  const memberAuthors = new Set(authors.slice(0, budget.patients));
  const nonMemberAuthors = new Set(authors.slice(budget.patients, 2 * budget.patients));
  const members: Document[] = notes.filter((d) => memberAuthors.has(d.author));
  const nonMembers: Document[] = notes.filter((d) => nonMemberAuthors.has(d.author));
  const pretrainDocs = publicNotes.slice(0, Math.max(40, budget.patients * 15));
  log(`corpus: ${members.length} member notes (${memberAuthors.size} patients), ${nonMembers.length} non-member notes, ${pretrainDocs.length} public notes for pretraining`);

  log('1/5 blacklist: direct identifiers (recognisers) + indirect ones (terms used by fewer than 2 patients)');
  const built = await buildBlacklist(members, { k: 2 });
  await built.engine.close();
  const blacklist = built.blacklist;
  await writeBlacklist(join(out, 'blacklist.tsv'), blacklist, { force: true });
  log(`    ${built.stats.direct} direct + ${built.stats.indirect} indirect terms → ${join(out, 'blacklist.tsv')} (mode 0600)`);

  log('2/5 tokenizer and encoder, pretrained on the public notes');
  // The vocabulary ships with every model: it learns no token that spells a blacklisted term.
  const blacklisted = new BlacklistedTerms(blacklist.entries.map((e) => e.term));
  const tokenizer = await trainWordPiece(pretrainDocs.map((d) => d.text), { vocabSize: 2000, blacklisted });
  const fingerprint = corpusFingerprinter();
  for (const doc of pretrainDocs) fingerprint.add(doc);
  const origin = { corpus: fingerprint.digest(), publicCorpus: true, blacklist: blacklistFingerprint(blacklist) };
  const vocabulary = vocabularyProvenance(origin, checkVocabulary(tokenizer, origin));
  const config = defaultConfig({ vocab_size: tokenizer.vocabSize, hidden_size: budget.hidden, num_hidden_layers: budget.layers, num_attention_heads: 2, intermediate_size: budget.hidden * 4, max_position_embeddings: budget.seqLen, pad_token_id: tokenizer.idOf(tokenizer.specials.pad)! });
  const params = initParams(parameterShapes(config), config, 1);
  const initDir = join(out, 'init');
  await saveModelDir(initDir, { config, params, head: 'mlm' }, tokenizer, { ppmlm: PACKAGE_VERSION, createdAt: new Date().toISOString(), base: 'random-init', seed: 1, ...vocabulary }, { force: true });
  disposeParams(params);
  const step = (what: string) => (e: { epoch: number; step: number; loss: number; tokensPerSecond: number }, s: { totalSteps: number }) =>
    options.progress?.(`    ${what}: epoch ${e.epoch + 1}, step ${e.step}/${s.totalSteps}, loss ${e.loss.toFixed(3)}, ${Math.round(e.tokensPerSecond)} tokens/s`);
  const common = { seqLen: budget.seqLen, batchSize: 16, lr: budget.lr, seed: 42, force: true } as const;
  const pretrained = join(out, 'pretrained');
  const pre = await finetune({ ...common, model: initDir, docs: pretrainDocs, strategy: 'standard', out: pretrained, epochs: budget.pretrainEpochs, onLog: step('pretrain') });
  log(`    pretrained ${pre.state.epoch} epochs, loss ${pre.state.lastLoss.toFixed(3)}`);

  const reports: DemoResult['reports'] = {};
  const strategies: StrategyName[] = ['standard', 'constrained'];
  for (const [i, strategy] of strategies.entries()) {
    log(`${3 + i}/5 fine-tune with ${strategy} masking on the member notes`);
    const ft = await finetune({ ...common, model: pretrained, docs: members, strategy, blacklist, out: join(out, strategy), epochs: budget.finetuneEpochs, onLog: step(strategy) });
    log(`    loss ${ft.state.lastLoss.toFixed(3)}; ${ft.state.protectedTargets} of ${ft.state.targets} targets on blacklisted positions`);
  }
  log('5/5 audit both models against the non-member notes');
  const reference = await loadModelDir(pretrained, 'mlm');
  for (const strategy of strategies) {
    const target = await loadModelDir(join(out, strategy), 'mlm');
    const report = await runAudit({
      target: { name: strategy, model: target.model, tokenizer: target.tokenizer, provenance: target.provenance },
      reference: { name: 'pretrained', model: reference.model, tokenizer: reference.tokenizer },
      members,
      nonMembers,
      blacklist,
      seqLen: budget.seqLen,
      maxOccurrences: 1500,
    });
    const { html } = await writeReport(join(out, `audit-${strategy}`), report, { force: true });
    reports[strategy] = { report, html };
    disposeParams(target.model.params);
  }
  return { reports, summary: summaryTable(reports) };
}

/** Standard vs constrained, side by side. */
export function summaryTable(reports: DemoResult['reports']): string {
  const names = Object.keys(reports);
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
  const rows: [string, (r: AuditReport) => string][] = [
    ['privacy score (all identifiers), per occurrence', (r) => f(r.privacy.all.score)],
    ['privacy score (all identifiers), per subword', (r) => f(r.privacy.all.subword.score)],
    ['privacy score (direct), per subword', (r) => f(r.privacy.direct.subword.score)],
    ['privacy score (indirect), per subword', (r) => f(r.privacy.indirect.subword.score)],
    ['MIA loss attack AUC, per patient', (r) => f(r.membership.byIndividual.all?.loss.auc ?? NaN)],
    ['MIA loss attack AUC, per document', (r) => f(r.membership.loss.auc)],
    ['MIA TPR @ 1% FPR', (r) => f(r.membership.loss.tprAt1)],
    ['MIA calibrated TPR @ 1% FPR', (r) => f(r.membership.calibrated?.tprAt1 ?? NaN)],
    ['utility: fill-mask top-1 (non-members)', (r) => f(r.utility.accuracy)],
  ];
  const width = Math.max(...rows.map(([l]) => l.length));
  const header = `${''.padEnd(width)}  ${names.map((n) => n.padStart(12)).join('  ')}`;
  return [header, ...rows.map(([label, get]) => `${label.padEnd(width)}  ${names.map((n) => get(reports[n]!.report).padStart(12)).join('  ')}`)].join('\n');
}
