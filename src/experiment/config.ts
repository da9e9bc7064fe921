import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { isJsonObject, jsonRepeatedKey, jsonValueLine, readJsonFileText } from '../io/index.js';
import { FINETUNE_RANGES, axesName, inRange, parseAxes, rangeText } from '../mlm/index.js';
import { ACCOUNTANT_NAMES, DP_UNITS, type AccountantName, type DpUnit } from '../privacy/index.js';
import { ANALYZER_CHOICES, LANGUAGES, type AnalyzerChoice, type Language } from '../text/index.js';
import { CANARY_LANGUAGES, CANARY_PROTECTIONS, type CanaryConfig } from './canaries.js';

/** `ppmlm experiment --config FILE.json`: one comparison of strategies over epochs and seeds. */
export interface ExperimentConfig {
  /** The model every cell starts from (Hugging Face folder). */
  model: string;
  /** Training documents (members) and held-out documents of the same distribution (non-members). */
  members: string;
  nonMembers: string;
  /** Column names when the corpora are CSV/TSV/JSONL with other names. */
  columns?: { text?: string; author?: string; id?: string; label?: string };
  /**
   * A blacklist used as is; without it, one is built from the members only (the paper's setting: the
   * individuals whose data trains the model), with the pattern recognisers and k = 2.
   */
  blacklist?: string;
  /** Gold identifier spans of the members (span JSONL or PhysioNet), for the audit's gold figures. */
  gold?: string;
  /**
   * Offline LiRA: `references` reference models per strategy and seed, fine-tuned like the target on
   * disjoint splits (by individual) of `corpus` (public documents), or of the non-members when no corpus is
   * given (a non-member is then never scored against the reference that trained on it).
   */
  lira?: { references: number; corpus?: string };
  /**
   * The cells' fine-tuning runs: a preset (`standard`, `constrained`, `pseudonymized`, `dp`) or `+`-joined
   * axis values such as `constrained+dp` (masking constrained, privacy dp); see mlm/strategy.ts parseAxes.
   */
  strategies: string[];
  /** Epoch counts to audit: each (strategy, seed) trains once to the largest and is audited after each listed epoch. */
  epochs: number[];
  seeds: number[];
  /**
   * Fine-tuning settings of every cell. The dp* keys, `targetEpsilon`, `delta` and `accountant` apply to the
   * cells whose strategy has privacy dp, as the CLI's --dp-* flags of the same names (dpUnit default author).
   */
  finetune?: { seqLen?: number; batchSize?: number; lr?: number; maskProb?: number; dpNoise?: number; targetEpsilon?: number; dpClip?: number; dpUnit?: DpUnit; dpMaxWindows?: number; delta?: number; accountant?: AccountantName; allowVocabularyIdentifiers?: boolean; freezeProtectedEmbeddings?: boolean; untieDecoder?: boolean; hideProtectedContext?: boolean; dropout?: number; dpAllowPrivatePreprocessing?: boolean };
  audit?: { seqLen?: number; maxOccurrences?: number };
  /** Positive controls planted in the members (Secret Sharer): see plantCanaries. */
  canaries?: CanaryConfig;
  /**
   * The text's language, as the CLI's --lang: `auto` (default) and `ko` cut Korean words to their content
   * morphemes when matching blacklist terms (홍길동이 → 홍길동), `en` never does.
   */
  lang?: Language;
  /** The Korean analyser (default auto: mecab when found, else the rule analyser). */
  analyzer?: AnalyzerChoice;
}

type FinetuneSettings = NonNullable<ExperimentConfig['finetune']>;

/** Every key a config may hold, by object: a typo such as `dpMaxWindow` must not pass silently as a default. */
const KNOWN_KEYS: Record<string, Record<string, true>> = {
  '': { model: true, members: true, nonMembers: true, columns: true, blacklist: true, gold: true, lira: true, strategies: true, epochs: true, seeds: true, finetune: true, audit: true, canaries: true, lang: true, analyzer: true } satisfies Record<keyof ExperimentConfig, true>,
  columns: { text: true, author: true, id: true, label: true } satisfies Record<keyof NonNullable<ExperimentConfig['columns']>, true>,
  lira: { references: true, corpus: true } satisfies Record<keyof NonNullable<ExperimentConfig['lira']>, true>,
  finetune: { seqLen: true, batchSize: true, lr: true, maskProb: true, dpNoise: true, targetEpsilon: true, dpClip: true, dpUnit: true, dpMaxWindows: true, delta: true, accountant: true, allowVocabularyIdentifiers: true, freezeProtectedEmbeddings: true, untieDecoder: true, hideProtectedContext: true, dropout: true, dpAllowPrivatePreprocessing: true } satisfies Record<keyof FinetuneSettings, true>,
  audit: { seqLen: true, maxOccurrences: true } satisfies Record<keyof NonNullable<ExperimentConfig['audit']>, true>,
  canaries: { count: true, repeats: true, candidates: true, seed: true, language: true, protect: true } satisfies Record<keyof CanaryConfig, true>,
};

/** Where a config's error points: the file, and the line of the value at `path` (keys, indexes) where it has one. */
type At = (...path: (string | number)[]) => { file: string; line?: number };

/** Refuses a key the config's object does not know, naming the known ones. */
function checkKeys(raw: Record<string, unknown>, at: At): void {
  for (const [where, known] of Object.entries(KNOWN_KEYS)) {
    const value = where === '' ? raw : raw[where];
    if (value === undefined) continue;
    if (!isJsonObject(value)) throw new ConfigError(`"${where}" must be a JSON object`, at(where));
    const unknown = Object.keys(value).find((k) => !Object.hasOwn(known, k));
    if (unknown !== undefined) throw new ConfigError(`unknown key "${where ? `${where}.` : ''}${unknown}"; the known keys${where ? ` of "${where}"` : ''} are ${Object.keys(known).join(', ')}`, at(...(where ? [where, unknown] : [unknown])));
  }
}

/** Reads and checks an experiment config; relative paths are relative to the config file. */
export async function readExperimentConfig(path: string): Promise<ExperimentConfig> {
  const { value: parsed, text } = await readJsonFileText(path, { fix: 'an experiment config is one JSON object (see bench/experiments/*/config.json)', hint: 'check --config' });
  const at: At = (...keys) => {
    const line = keys.length === 0 ? undefined : jsonValueLine(text, keys);
    return { file: path, ...(line !== undefined && { line }) };
  };
  // JSON.parse keeps a repeated key's last value: which one the writer meant is not known.
  const repeated = jsonRepeatedKey(text);
  if (repeated !== undefined) throw new ConfigError(`"${repeated.path.join('.')}" is given twice; keep one`, { file: path, line: repeated.line });
  if (!isJsonObject(parsed)) throw new ConfigError('an experiment config is one JSON object (see bench/experiments/*/config.json)', at());
  checkKeys(parsed, at);
  const raw = parsed as Partial<ExperimentConfig>;
  const need = (key: keyof ExperimentConfig) => {
    if (raw[key] === undefined) throw new ConfigError(`missing "${key}"`, at());
  };
  (['model', 'members', 'nonMembers', 'strategies', 'epochs'] as const).forEach(need);
  if (!Array.isArray(raw.strategies) || !raw.strategies.every((s) => typeof s === 'string')) throw new ConfigError('"strategies" must be an array of strategy names, e.g. ["standard", "constrained"]', at('strategies'));
  if (!Array.isArray(raw.epochs)) throw new ConfigError('"epochs" must be an array of positive integers, e.g. [1, 3]', at('epochs'));
  if (raw.seeds !== undefined && !(Array.isArray(raw.seeds) && raw.seeds.length > 0 && raw.seeds.every((s) => Number.isInteger(s) && s >= 0))) throw new ConfigError('"seeds" must be an array of non-negative integers, e.g. [1, 2, 3]', at('seeds'));
  const maxOccurrences = raw.audit?.maxOccurrences;
  if (maxOccurrences !== undefined && !(Number.isInteger(maxOccurrences) && maxOccurrences >= 1)) throw new ConfigError('"audit.maxOccurrences" must be a positive integer', at('audit', 'maxOccurrences'));
  const axes = raw.strategies!.map((s, i) => {
    try {
      return parseAxes(s, 'strategy');
    } catch (err) {
      throw new ConfigError(`"strategies": ${(err as Error).message}`, at('strategies', i));
    }
  });
  // Two names of one training (dp+constrained, constrained+dp) would train and audit it twice.
  const trainings = axes.map(axesName);
  const again = trainings.findIndex((t, i) => trainings.indexOf(t) !== i);
  if (again >= 0) {
    const [first, second] = [raw.strategies![trainings.indexOf(trainings[again]!)]!, raw.strategies![again]!];
    throw new ConfigError(`"strategies" lists ${JSON.stringify(first)}${first === second ? ' twice' : ` and ${JSON.stringify(second)}, one training`}; keep one`, at('strategies', again));
  }
  const badEpoch = raw.epochs!.findIndex((e) => !(Number.isInteger(e) && e > 0));
  if (badEpoch >= 0) throw new ConfigError('"epochs" must be positive integers', at('epochs', badEpoch));
  if (raw.strategies!.length > 0 && raw.epochs!.length === 0) throw new ConfigError('"epochs" is empty: list the epoch counts to audit each strategy at, e.g. [1, 3]', at('epochs'));
  // A list that names one cell twice would write its row twice, and every aggregate over rows would count it twice.
  for (const key of ['epochs', 'seeds'] as const) {
    const list = (raw[key] ?? []) as unknown[];
    const twice = list.findIndex((v, i) => list.indexOf(v) !== i);
    if (twice >= 0) throw new ConfigError(`"${key}" lists ${JSON.stringify(list[twice])} twice; keep one`, at(key, twice));
  }
  for (const [key, name] of Object.entries(raw.columns ?? {})) {
    if (typeof name !== 'string' || name === '') throw new ConfigError(`"columns.${key}" must be a column name (a string)`, at('columns', key));
  }
  if (axes.some((a) => a.privacy === 'dp') && raw.finetune?.dpNoise === undefined && raw.finetune?.targetEpsilon === undefined) {
    throw new ConfigError('a strategy with dp needs finetune.dpNoise or finetune.targetEpsilon', at('strategies'));
  }
  const f = raw.finetune;
  if (f?.dpUnit !== undefined && !DP_UNITS.includes(f.dpUnit)) throw new ConfigError(`unknown finetune.dpUnit "${f.dpUnit}"; use ${DP_UNITS.join(' or ')}`, at('finetune', 'dpUnit'));
  for (const key of ['allowVocabularyIdentifiers', 'freezeProtectedEmbeddings', 'untieDecoder', 'hideProtectedContext', 'dpAllowPrivatePreprocessing'] as const) {
    if (f?.[key] !== undefined && typeof f[key] !== 'boolean') throw new ConfigError(`"finetune.${key}" must be true or false`, at('finetune', key));
  }
  // The ranges finetune's flags take: a value the command line refuses is no less wrong in a config.
  for (const [key, range] of Object.entries(FINETUNE_RANGES)) {
    const value = (f as Record<string, unknown> | undefined)?.[key];
    if (value !== undefined && !inRange(value, range)) throw new ConfigError(`"finetune.${key}" must be ${rangeText(range)}, got ${JSON.stringify(value)}`, at('finetune', key));
  }
  const auditSeqLen = raw.audit?.seqLen;
  if (auditSeqLen !== undefined && !inRange(auditSeqLen, FINETUNE_RANGES.seqLen)) throw new ConfigError(`"audit.seqLen" must be ${rangeText(FINETUNE_RANGES.seqLen)}, got ${JSON.stringify(auditSeqLen)}`, at('audit', 'seqLen'));
  if (f?.accountant !== undefined && !ACCOUNTANT_NAMES.includes(f.accountant)) throw new ConfigError(`unknown finetune.accountant "${f.accountant}"; use ${ACCOUNTANT_NAMES.join(' or ')}`, at('finetune', 'accountant'));
  if (raw.lang !== undefined && !LANGUAGES.includes(raw.lang)) throw new ConfigError(`unknown lang "${raw.lang}"; use ${LANGUAGES.join(', ')}`, at('lang'));
  if (raw.analyzer !== undefined && !ANALYZER_CHOICES.includes(raw.analyzer)) throw new ConfigError(`unknown analyzer "${raw.analyzer}"; use ${ANALYZER_CHOICES.join(', ')}`, at('analyzer'));
  const language = raw.canaries?.language;
  if (language !== undefined && !CANARY_LANGUAGES.includes(language)) throw new ConfigError(`unknown canaries.language "${language}"; use ${CANARY_LANGUAGES.join(' or ')}`, at('canaries', 'language'));
  const protect = raw.canaries?.protect;
  if (protect !== undefined && !CANARY_PROTECTIONS.includes(protect)) throw new ConfigError(`unknown canaries.protect "${protect}"; use ${CANARY_PROTECTIONS.join(' or ')}`, at('canaries', 'protect'));
  const { lira, canaries } = raw;
  if (lira !== undefined && !(Number.isInteger(lira.references) && lira.references >= 2)) throw new ConfigError('"lira.references" must be an integer of at least 2 (LiRA fits a Gaussian to the reference models)', at('lira', 'references'));
  for (const key of ['count', 'repeats'] as const) {
    const v = canaries?.[key];
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) throw new ConfigError(`"canaries.${key}" must be a positive integer`, at('canaries', key));
  }
  const base = dirname(resolve(path));
  const rel = (p: string) => resolve(base, p);
  // Said now, naming the key, rather than by the first command that reads the path, after work.
  const paths = { model: raw.model, members: raw.members, nonMembers: raw.nonMembers, blacklist: raw.blacklist, gold: raw.gold, 'lira.corpus': lira?.corpus };
  const pathAt = (key: string) => at(...key.split('.'));
  for (const [key, p] of Object.entries(paths)) {
    if (p === undefined) continue;
    if (typeof p !== 'string') throw new ConfigError(`"${key}" must be a path (a string)`, pathAt(key));
    await stat(rel(p)).catch((err: NodeJS.ErrnoException) => {
      const why = err.code === 'ENOENT' ? 'does not exist' : `cannot be read (${err.code ?? 'error'})`;
      throw new ConfigError(`"${key}": ${rel(p)} ${why}; paths are relative to the config file's folder`, pathAt(key));
    });
  }
  return { ...(raw as ExperimentConfig), model: rel(raw.model!), members: rel(raw.members!), nonMembers: rel(raw.nonMembers!), ...(raw.blacklist !== undefined && { blacklist: rel(raw.blacklist) }), ...(raw.gold !== undefined && { gold: rel(raw.gold) }), ...(lira?.corpus !== undefined && { lira: { ...lira, corpus: rel(lira.corpus) } }), seeds: raw.seeds ?? [42], epochs: [...raw.epochs!].sort((a, b) => a - b) };
}
