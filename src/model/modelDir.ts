import * as tf from '@tensorflow/tfjs-core';
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError, FormatError, UsageError } from '../errors.js';
import { decodeUtf8Strict, parseJson, readOptionalFile, writeDirAtomic } from '../io/index.js';
import { BpeTokenizer, bpeToTokenizerJson, loadTokenizer, toTokenizerJson, toVocabTxt, WordPieceTokenizer, type Tokenizer } from '../tokenizer/index.js';
import { validateConfig, type EncoderConfig } from './config.js';
import { basePrefix, disposeParams, initParams, isLinearWeight, parameterShapes, type Params } from './params.js';
import { parseSafetensors, writeSafetensors, type NamedTensor, type TensorSource } from './safetensors.js';
import { firstNonFinite } from './finite.js';
import { writeModelCard } from './modelCard.js';
import { readProvenance, writeProvenance, type Provenance } from './provenance.js';

export type Head = 'mlm' | { tokenClassification: number } | { sequenceClassification: number };

/** An encoder with its head, parameters held as tfjs variables. */
export interface EncoderModel {
  config: EncoderConfig;
  params: Params;
  head: Head;
}

/** The model's tensors as Hugging Face stores them (linear weights back to [out, in]), each read when asked for. */
export function exportTensorSources(model: EncoderModel): Map<string, TensorSource> {
  return new Map(
    [...model.params].map(([name, v]) => {
      const shape = isLinearWeight(name) ? [...v.shape].reverse() : v.shape;
      const read = async () => {
        if (!isLinearWeight(name)) return (await v.data()) as Float32Array;
        const t = tf.transpose(v);
        const data = (await t.data()) as Float32Array;
        t.dispose();
        return data;
      };
      return [name, { shape, read }];
    }),
  );
}

export interface SaveModelOptions {
  force?: boolean;
}

/**
 * Writes a Hugging Face model folder atomically: config.json, model.safetensors, tokenizer.json (+ vocab.txt
 * for WordPiece) and ppmlm.json. `transformers` loads it with AutoModelForMaskedLM.from_pretrained.
 */
export async function saveModelDir(dir: string, model: EncoderModel, tokenizer: Tokenizer, provenance: Provenance, options: SaveModelOptions = {}): Promise<void> {
  await writeDirAtomic(dir, (tmpDir) => writeModelFiles(tmpDir, model, tokenizer, provenance), options);
}

/**
 * Copies a model folder to `dir` atomically with a new ppmlm.json: a run's output can be the weights of
 * one of its saved epochs (load-best-model-at-end) while the provenance describes the whole run.
 */
export async function copyModelDir(from: string, dir: string, provenance: Provenance, options: { force?: boolean } = {}): Promise<void> {
  await writeDirAtomic(
    dir,
    async (tmpDir) => {
      await cp(from, tmpDir, { recursive: true });
      await writeProvenance(tmpDir, provenance);
      await refreshModelCard(tmpDir);
    },
    options,
  );
}

/** The files of a model folder, into an existing folder (checkpoints add their own files beside them). */
export async function writeModelFiles(dir: string, model: EncoderModel, tokenizer: Tokenizer, provenance: Provenance): Promise<void> {
  await writeConfigJson(dir, model);
  await writeSafetensors(join(dir, 'model.safetensors'), exportTensorSources(model));
  await writeTokenizerFiles(dir, tokenizer, model.config);
  await writeProvenance(dir, provenance);
  await refreshModelCard(dir);
}

/** The model card of a folder from its config.json and ppmlm.json, written after them so the three agree. */
const refreshModelCard = async (dir: string) => writeModelCard(dir, await readModelConfig(dir));

/** config.json, with `architectures` naming the model's head as Hugging Face does. */
export async function writeConfigJson(dir: string, model: EncoderModel): Promise<void> {
  // The weights are written as float32 whatever the folder read held (float16): torch_dtype (dtype in newer transformers) says so.
  const config = { ...model.config, architectures: [architecture(model)], ...('torch_dtype' in model.config && { torch_dtype: 'float32' }), ...('dtype' in model.config && { dtype: 'float32' }) };
  await writeFile(join(dir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * tokenizer.json and tokenizer_config.json, with vocab.json + merges.txt (BPE) or vocab.txt (WordPiece)
 * for the Python tokenizers that read those; `model_max_length` from the config's positions.
 */
export async function writeTokenizerFiles(dir: string, tokenizer: Tokenizer, config: EncoderConfig): Promise<void> {
  if (tokenizer instanceof BpeTokenizer) {
    await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(bpeToTokenizerJson(tokenizer)));
    await writeFile(join(dir, 'vocab.json'), JSON.stringify(Object.fromEntries(tokenizer.vocab.map((t, i) => [t, i]))));
    await writeFile(join(dir, 'merges.txt'), `#version: 0.2\n${tokenizer.merges.map(([a, b]) => `${a} ${b}`).join('\n')}\n`);
    const s = tokenizer.specials;
    await writeFile(
      join(dir, 'tokenizer_config.json'),
      `${JSON.stringify({ tokenizer_class: 'RobertaTokenizer', add_prefix_space: tokenizer.options.addPrefixSpace, bos_token: s.cls, eos_token: s.sep, cls_token: s.cls, sep_token: s.sep, unk_token: s.unk, pad_token: s.pad, mask_token: s.mask, model_max_length: config.max_position_embeddings - 2 }, null, 2)}\n`,
    );
  } else if (tokenizer instanceof WordPieceTokenizer) {
    await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(toTokenizerJson(tokenizer)));
    await writeFile(join(dir, 'vocab.txt'), toVocabTxt(tokenizer));
    const s = tokenizer.specials;
    await writeFile(
      join(dir, 'tokenizer_config.json'),
      `${JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: tokenizer.options.lowercase, strip_accents: tokenizer.options.stripAccents, unk_token: s.unk, cls_token: s.cls, sep_token: s.sep, pad_token: s.pad, mask_token: s.mask, model_max_length: config.max_position_embeddings }, null, 2)}\n`,
    );
  }
}

function architecture(model: EncoderModel): string {
  const base = model.config.model_type === 'roberta' ? 'Roberta' : 'Bert';
  if (model.head === 'mlm') return `${base}ForMaskedLM`;
  return 'tokenClassification' in model.head ? `${base}ForTokenClassification` : `${base}ForSequenceClassification`;
}

export interface LoadedModel {
  model: EncoderModel;
  tokenizer: Tokenizer;
  provenance: Provenance | undefined;
  /** Head parameters that the folder lacked and were initialised randomly (e.g. a base model loaded for MLM). */
  initialized: string[];
}

async function readJson(path: string, what: string): Promise<{ value: unknown; text: string }> {
  const bytes = await readFile(path).catch(() => {
    throw new UsageError(`${path}: no such file; is this a model folder (config.json, model.safetensors, tokenizer.json)? ${what}`);
  });
  // A damaged file is fetched or saved again; `what` (make a new model) is for a folder that has none.
  const text = decodeUtf8Strict(bytes, path);
  return { value: parseJson(text, path, `a model's ${basename(path)} is one JSON object: download or save the model again`), text };
}

/** The validated config.json of a model folder, without loading its weights; `what` says how to make one where it has none. */
export async function readModelConfig(dir: string, what = 'Create one with "ppmlm model init".'): Promise<EncoderConfig> {
  const configPath = join(dir, 'config.json');
  await assertModelFolder(dir);
  const { value, text } = await readJson(configPath, what);
  return validateConfig(value, configPath, text);
}

/**
 * Refuses, with the path to give instead, what is often given for a model folder: a file in it (its
 * model.safetensors), or a Hugging Face cache entry (models--org--name), whose folder is snapshots/<hash>.
 */
async function assertModelFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info?.isFile()) throw new UsageError(`${dir} is a file; give the model folder that holds it (${dirname(dir)})`);
  if (info?.isDirectory() && !(await stat(join(dir, 'config.json')).catch(() => undefined))) {
    const snapshots = await readdir(join(dir, 'snapshots')).catch(() => [] as string[]);
    if (snapshots.length > 0) throw new UsageError(`${dir} is a Hugging Face cache entry; give its model folder, ${join(dir, 'snapshots', snapshots[0]!)}`);
  }
}

/** Names Hugging Face saves the same tensor under: the masked-LM head's bias is also its decoder's (tied). */
const TENSOR_ALIASES: Record<string, string> = { 'cls.predictions.bias': 'cls.predictions.decoder.bias', 'lm_head.bias': 'lm_head.decoder.bias' };

/** Refuses a model folder without model.safetensors, with the fix that fits what it has instead. */
async function missingWeights(dir: string, weightsPath: string): Promise<never> {
  const index = join(dir, 'model.safetensors.index.json');
  if (await stat(index).then(() => true, () => false)) throw new UsageError(`${index}: the weights are in shards; ppmlm reads one model.safetensors: save the model in one file (save_pretrained(DIR, max_shard_size="100GB"))`);
  throw new UsageError(`${weightsPath}: no such file; ppmlm reads safetensors weights (convert pytorch_model.bin with transformers' save_pretrained(safe_serialization=True))`);
}

/**
 * Loads a model folder: ppmlm's own or one downloaded from the Hugging Face Hub (BERT/RoBERTa, safetensors,
 * with or without the `bert.` prefix, tied decoder present or not). Unknown tensors (pooler, NSP head) are
 * ignored; missing head tensors are initialised; a missing or misshapen encoder tensor is an error.
 */
export async function loadModelDir(dir: string, head: Head = 'mlm', seed = 0, options: { freshHead?: boolean } = {}): Promise<LoadedModel> {
  const configPath = join(dir, 'config.json');
  const config = await readModelConfig(dir);
  const weightsPath = join(dir, 'model.safetensors');
  const bytes = (await readOptionalFile(weightsPath)) ?? (await missingWeights(dir, weightsPath));
  const { tensors } = parseSafetensors(bytes, weightsPath);
  const prefix = basePrefix(config);
  const named = (name: string): NamedTensor | undefined => tensors.get(name) ?? (name.startsWith(`${prefix}.`) ? tensors.get(name.slice(prefix.length + 1)) : undefined);
  // freshHead: a classifier for other labels than the file's, initialised as Hugging Face's ignore_mismatched_sizes does.
  const lookup = (name: string): NamedTensor | undefined => (options.freshHead && name.startsWith('classifier.') ? undefined : (named(name) ?? named(TENSOR_ALIASES[name] ?? name)));
  const shapes = parameterShapes(config, head);
  // Only the tensors the file lacks (a new head) are initialised: drawing and uploading 110M random values
  // to overwrite them doubled the heap's high-water mark, which it never gives back.
  const missing = new Map([...shapes].filter(([name]) => lookup(name) === undefined));
  for (const name of missing.keys()) {
    if (name.startsWith(`${prefix}.`) && !name.includes('pooler')) throw new FormatError(`missing tensor ${name}; the weights do not match config.json`, { file: weightsPath });
  }
  const fresh = initParams(missing, config, seed);
  const params: Params = new Map();
  for (const [name, shape] of shapes) {
    const t = lookup(name);
    if (t === undefined) {
      params.set(name, fresh.get(name)!);
      continue;
    }
    const hfShape = isLinearWeight(name) ? [shape[1]!, shape[0]!] : shape;
    if (t.shape.join('x') !== hfShape.join('x')) throw new FormatError(`tensor ${name} has shape [${t.shape}] but config.json implies [${hfShape}]; the weights and config.json come from different models: download or save the model again`, { file: weightsPath });
    // A NaN weight would train on at loss NaN and hang every metric that sorts scores.
    const bad = firstNonFinite(t.data);
    if (bad >= 0) throw new FormatError(`tensor ${name} holds ${t.data[bad]} at element ${bad}; the weights are corrupt (a NaN from training, or a bad value in the file)`, { file: weightsPath });
    const value = tf.tidy(() => {
      const loaded = tf.tensor(t.data, t.shape);
      return isLinearWeight(name) ? tf.transpose(loaded) : loaded;
    });
    params.set(name, tf.variable(value, true));
    value.dispose();
  }
  const initialized = [...missing.keys()];
  const tokenizer = await loadTokenizer(dir);
  if (tokenizer.vocabSize > config.vocab_size) {
    disposeParams(params);
    throw new ConfigError(`the tokenizer has ${tokenizer.vocabSize} tokens but vocab_size is ${config.vocab_size}: its last ids have no embedding; give the tokenizer saved with this model, or resize the model to it (model.resize_token_embeddings(len(tokenizer)), then save_pretrained)`, { file: configPath });
  }
  return { model: { config, params, head }, tokenizer, provenance: await readProvenance(dir), initialized };
}

/**
 * Loads a model folder whose masked-LM head is read, not trained: what `fill-mask` predicts and what an
 * audit measures would come from random weights if the head were initialised, so a folder without it (a
 * bare encoder, BertModel) is an error, `fix` saying where to give another. Fine-tuning from such a folder
 * is fine: use {@link loadModelDir}.
 */
export async function loadMaskedLm(dir: string, fix = 'give a …ForMaskedLM folder, e.g. one that ppmlm finetune wrote'): Promise<LoadedModel> {
  return loadWithHead(dir, 'mlm', `the masked-LM head, whose predictions this reads; ${fix}`);
}

/**
 * {@link loadModelDir} for a use that runs `head` as trained: weights that lack it are an error (`lacks`
 * says what is missing and the fix), their loaded tensors freed, never a randomly initialised head.
 */
async function loadWithHead(dir: string, head: Head, lacks: string): Promise<LoadedModel> {
  const loaded = await loadModelDir(dir, head);
  if (loaded.initialized.length === 0) return loaded;
  disposeParams(loaded.model.params);
  throw new FormatError(`lacks the tensors ${loaded.initialized.join(', ')}: ${lacks}`, { file: join(dir, 'model.safetensors') });
}

/** Loads a token-classification model folder; its labels come from config.json's id2label. */
export async function loadTokenClassifier(dir: string): Promise<LoadedModel & { labels: string[] }> {
  const configPath = join(dir, 'config.json');
  const id2label = (await readModelConfig(dir, 'Train one with "ppmlm deid train".')).id2label;
  if (!id2label || Object.keys(id2label).length === 0) throw new ConfigError('config.json has no id2label: this is not a token-classification model (train one with "ppmlm deid train")', { file: configPath });
  const labels = Object.entries(id2label).sort((a, b) => Number(a[0]) - Number(b[0])).map(([, l]) => l);
  const loaded = await loadWithHead(dir, { tokenClassification: labels.length }, 'the classifier; give a model from "ppmlm deid train" or a token-classification model');
  return { ...loaded, labels };
}

/**
 * The head that config.json's `architectures` names: …ForMaskedLM or BertForPreTraining, or …ForTokenClassification /
 * …ForSequenceClassification with as many labels as id2label has; undefined for a bare encoder or any
 * other head.
 */
export function savedHead(config: EncoderConfig): Head | undefined {
  const name = config.architectures?.[0] ?? '';
  const labels = Object.keys(config.id2label ?? {}).length;
  // A pretraining checkpoint (BertForPreTraining, as Google's BERT releases convert) holds the masked-LM head
  // beside next-sentence prediction's, which nothing in ppmlm runs. (ElectraForPreTraining is a discriminator.)
  if (name.endsWith('ForMaskedLM') || name === 'BertForPreTraining') return 'mlm';
  if (labels === 0) return undefined;
  if (name.endsWith('ForTokenClassification')) return { tokenClassification: labels };
  if (name.endsWith('ForSequenceClassification')) return { sequenceClassification: labels };
  return undefined;
}

/**
 * Loads a model folder with the head it was saved with (see {@link savedHead}), for uses that must not
 * run a randomly initialised head: a head the weights lack is an error, not initialised.
 */
export async function loadSavedModel(dir: string): Promise<LoadedModel> {
  const configPath = join(dir, 'config.json');
  const config = await readModelConfig(dir);
  const head = savedHead(config);
  if (head === undefined) {
    throw new ConfigError(`"architectures" ${JSON.stringify(config.architectures ?? null)} names no head ppmlm runs; a model needs BertForMaskedLM/RobertaForMaskedLM (or BertForPreTraining, whose masked-LM head is read), or …ForTokenClassification or …ForSequenceClassification with id2label`, { file: configPath });
  }
  return loadWithHead(dir, head, 'the head config.json names; use a folder saved with its head, e.g. one that ppmlm finetune or deid train wrote');
}
