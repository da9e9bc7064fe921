import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../io/index.js';
import type { EncoderConfig } from './config.js';
import { readProvenance, type Provenance } from './provenance.js';
import { describeVocabularyCheck } from './vocabularyCheck.js';

/** The first line of the body of every card ppmlm writes: how a later write knows the README is its own. */
const MARK = '<!-- written by ppmlm: rewritten on every save and audit; edit the front matter\'s license before publishing -->';

/**
 * The audit's headline figures as a model card shows them: numbers only, never a term or a name. Scores
 * are in [0, 1]; NaN where a figure could not be measured.
 */
export interface AuditHeadline {
  /** 1 − recovery of protected occurrences (all subwords top-1), with its bootstrap interval. */
  privacy: { all: number; ci: [number, number]; direct: number; indirect: number; occurrences: number };
  /**
   * Membership-inference AUC of the loss attack, and of the reference-calibrated one when run, per
   * individual (all of a person's documents pooled, with the bootstrap interval) or, when the audit could
   * not pool by individual, per document.
   */
  membership: { unit: 'individual' | 'document'; lossAuc: number; ci?: [number, number]; calibratedAuc?: number; members?: number; nonMembers?: number };
  /** Fill-mask top-1 accuracy on non-blacklisted tokens of held-out documents; downstream macro F1 when run. */
  utility: { accuracy: number; downstreamMacroF1?: number };
  /** Blacklisted terms the model predicted top-1 when masked. */
  regurgitatedTerms: number;
  auditedAt: string;
}

function pipelineTag(config: EncoderConfig): string {
  const arch = config.architectures?.[0] ?? '';
  if (arch.endsWith('ForTokenClassification')) return 'token-classification';
  if (arch.endsWith('ForSequenceClassification')) return 'text-classification';
  return 'fill-mask';
}

/** A base model the Hub can link: `owner/name`, not a local path or ppmlm's `random-init`. */
const hubId = (base: unknown): string | undefined => (typeof base === 'string' && /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(base) ? base : undefined);

/** Which library loads the folder: `transformers` (safetensors weights) or `transformers.js` (an ONNX export). */
export type CardLibrary = 'transformers' | 'transformers.js';

const AUTO_CLASS: Record<string, string> = { 'fill-mask': 'AutoModelForMaskedLM', 'token-classification': 'AutoModelForTokenClassification', 'text-classification': 'AutoModelForSequenceClassification' };

const yamlString = (s: string) => JSON.stringify(s);
const fixed = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(3));

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const isReview = (r: unknown): r is { sample: string; reviewed: number; missRate: number; interval: [number, number]; identifiers: number } =>
  typeof r === 'object' && r !== null && typeof (r as { missRate?: unknown }).missRate === 'number' && Array.isArray((r as { interval?: unknown }).interval);

/** The provenance rows a card shows; the blacklist appears only as its fingerprint and size (ppmlm.json holds no more). */
function provenanceRows(p: Provenance): [string, string][] {
  const rows: [string, string | undefined][] = [
    ['strategy', p.strategy],
    ['base', typeof p.base === 'string' ? p.base : undefined],
    ['epochs', p.epochs?.toString()],
    ['seed', p.seed?.toString()],
    ['mask probability', typeof p.maskProb === 'number' ? String(p.maskProb) : undefined],
    ['whole-word masking', typeof p.wholeWord === 'boolean' ? (p.wholeWord ? 'yes' : 'no') : undefined],
    ['input embeddings at protected positions', p.freezeProtectedEmbeddings === true ? 'no gradient (--freeze-protected-embeddings)' : undefined],
    ['protected positions as context', p.hideProtectedContext === true ? 'hidden as attention keys (--hide-protected-context, an ablation)' : undefined],
    ['MLM decoder', p.untiedDecoder === true ? 'untied from the word embeddings (--untie-decoder)' : undefined],
    ['blacklist', p.blacklistFingerprint && `fingerprint ${p.blacklistFingerprint}${typeof p.blacklistTerms === 'number' ? `, ${p.blacklistTerms} terms` : ''}`],
    // A review is a statistic of the reviewed corpus: never in a DP model's card.
    ['blacklist review', !p.dp && isReview(p.blacklistReview) ? `${p.blacklistReview.reviewed} passages reviewed, miss rate ${pct(p.blacklistReview.missRate)} [${pct(p.blacklistReview.interval[0])}, ${pct(p.blacklistReview.interval[1])}] of ${p.blacklistReview.identifiers} identifiers (sample ${p.blacklistReview.sample})` : undefined],
    ['targets on protected positions', typeof p.protectedTargets === 'number' ? `${p.protectedTargets} of ${String(p.targets ?? '?')}` : undefined],
    ['differential privacy', p.dp && `ε = ${p.dp.epsilon.toFixed(2)}, δ = ${p.dp.delta.toExponential(1)} per ${p.dp.unit} (${p.dp.individuals} units, ${p.dp.releases} releases; noise ${p.dp.noiseMultiplier.toFixed(2)}, clip ${p.dp.clip}, ${p.dp.accountant}${p.dp.secureNoise ? '' : ', insecure seeded noise'})${p.dp.privatePreprocessing ? `. **ε is not a guarantee**: the run used inputs derived from private data (${p.dp.privatePreprocessing.join('; ')})` : ''}`],
    ['vocabulary', describeVocabularyCheck(p.vocabularyCheck)],
    ['ppmlm', `${p.ppmlm}, ${p.createdAt}`],
  ];
  return rows.filter((r): r is [string, string] => r[1] !== undefined);
}

/**
 * Refuses audit figures in the card of a DP model: they are statistics of its members (membership AUC,
 * privacy score and regurgitation computed on their documents) that the guarantee does not cover, and the
 * card ships with the model. The audit report keeps them, mode 0600.
 */
export function assertCardMayHold(provenance: Provenance | undefined, withAudit: boolean, dir: string): void {
  if (withAudit && provenance?.dp !== undefined) {
    throw new UsageError(`${dir} was trained with differential privacy: its model card never carries audit figures, which are statistics of its members outside the guarantee; the report has them (drop --update-card)`);
  }
}

/**
 * A Hugging Face Hub model card (README.md): YAML front matter (license, tags, base_model, library_name,
 * pipeline_tag), how the model was made (from ppmlm.json) and, after an audit, its headline figures.
 * Built from numbers and settings only: a card never holds an identifier.
 *
 * @example
 * modelCard(config, provenance, headline)
 */
export function modelCard(config: EncoderConfig, provenance: Provenance | undefined, audit?: AuditHeadline, library: CardLibrary = 'transformers'): string {
  const strategy = typeof provenance?.strategy === 'string' ? provenance.strategy : undefined;
  const tags = ['ppmlm', 'privacy', config.model_type, ...(library === 'transformers.js' ? ['onnx'] : []), ...(strategy ? [`ppmlm-${strategy}`] : []), ...(provenance?.dp ? ['differential-privacy'] : [])];
  const base = hubId(provenance?.base);
  const front = [
    '---',
    'license: unknown',
    `library_name: ${library}`,
    `pipeline_tag: ${pipelineTag(config)}`,
    ...(base ? [`base_model: ${yamlString(base)}`] : []),
    'tags:',
    ...tags.map((t) => `- ${yamlString(t)}`),
    '---',
  ];
  const arch = config.architectures?.[0] ?? config.model_type;
  const body = [
    MARK,
    '',
    `# ${arch}${strategy ? ` fine-tuned with ppmlm (${strategy})` : ''}`,
    '',
    `A ${arch} (${config.num_hidden_layers} layers, hidden size ${config.hidden_size}, vocabulary ${config.vocab_size}) in the Hugging Face layout, written by ppmlm (privacy-preserving masked-LM fine-tuning).`,
    library === 'transformers'
      ? `It loads with \`transformers\` (\`${AUTO_CLASS[pipelineTag(config)]}.from_pretrained\`) and with ppmlm.`
      : `An ONNX export (\`onnx/model.onnx\`): it loads with transformers.js (\`pipeline('${pipelineTag(config)}', …)\`) and onnxruntime.`,
    '',
    '## How it was made',
    '',
    ...(provenance ? ['| setting | value |', '|---|---|', ...provenanceRows(provenance).map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`)] : ['No ppmlm.json: this folder was not written by ppmlm, so its training is unknown here.']),
    '',
    '## Privacy audit',
    '',
    ...(audit ? auditRows(audit) : ['Not audited yet: run `ppmlm audit --model <this folder> ...`; its headline figures then appear here.']),
    '',
  ];
  return `${front.join('\n')}\n${body.join('\n')}`;
}

function auditRows(a: AuditHeadline): string[] {
  return [
    `From \`ppmlm audit\` on ${a.auditedAt} (the full report stays with whoever ran it: it is private).`,
    '',
    '| measurement | value |',
    '|---|---|',
    `| privacy score, all protected occurrences (1 − top-1 recovery) | ${fixed(a.privacy.all)} [${fixed(a.privacy.ci[0])}, ${fixed(a.privacy.ci[1])}] over ${a.privacy.occurrences} occurrences |`,
    `| privacy score, direct / indirect identifiers | ${fixed(a.privacy.direct)} / ${fixed(a.privacy.indirect)} |`,
    `| membership inference AUC per ${a.membership.unit} (loss attack${a.membership.calibratedAuc === undefined ? '' : ' / calibrated'}; 0.5 is chance) | ${fixed(a.membership.lossAuc)}${a.membership.ci ? ` [${fixed(a.membership.ci[0])}, ${fixed(a.membership.ci[1])}]` : ''}${a.membership.calibratedAuc === undefined ? '' : ` / ${fixed(a.membership.calibratedAuc)}`}${a.membership.members === undefined ? '' : `, ${a.membership.members} members against ${a.membership.nonMembers} non-members`} |`,
    `| fill-mask top-1 accuracy on non-blacklisted tokens | ${fixed(a.utility.accuracy)} |`,
    ...(a.utility.downstreamMacroF1 === undefined ? [] : [`| downstream classification macro F1 | ${fixed(a.utility.downstreamMacroF1)} |`]),
    `| blacklisted terms predicted top-1 when masked | ${a.regurgitatedTerms} |`,
  ];
}

/** Whether `text` is a card ppmlm wrote (so it may be replaced) rather than someone's own README. */
export const isPpmlmCard = (text: string): boolean => text.includes(MARK);

export type CardUpdate = 'written' | 'kept-foreign-readme';

/**
 * Writes README.md of a model folder from its config.json and ppmlm.json (and an audit's headline), atomically.
 * A README that ppmlm did not write is left alone: it is someone's own card.
 */
export async function writeModelCard(dir: string, config: EncoderConfig, audit?: AuditHeadline, library: CardLibrary = 'transformers'): Promise<CardUpdate> {
  const path = join(dir, 'README.md');
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing !== undefined && !isPpmlmCard(existing)) return 'kept-foreign-readme';
  const provenance = await readProvenance(dir);
  assertCardMayHold(provenance, audit !== undefined, dir);
  await writeFileAtomic(path, modelCard(config, provenance, audit, library), { force: true });
  return 'written';
}
