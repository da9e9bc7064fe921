import { ConfigError, FormatError, UsageError } from '../errors.js';
import { isJsonObject, jsonRepeatedKey, jsonValueLine } from '../io/index.js';

/** The fields of a Hugging Face BERT/RoBERTa config.json that the encoder uses. */
export interface EncoderConfig {
  model_type: 'bert' | 'roberta';
  architectures?: string[];
  vocab_size: number;
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  intermediate_size: number;
  hidden_act: 'gelu' | 'gelu_new' | 'relu';
  max_position_embeddings: number;
  type_vocab_size: number;
  layer_norm_eps: number;
  pad_token_id: number;
  initializer_range: number;
  hidden_dropout_prob?: number;
  attention_probs_dropout_prob?: number;
  /** Hugging Face's flag (default true): false gives the MLM head a decoder matrix of its own. */
  tie_word_embeddings?: boolean;
  /** Token classification: label names by id. */
  id2label?: Record<string, string>;
  label2id?: Record<string, number>;
  [key: string]: unknown;
}

export function defaultConfig(overrides: Partial<EncoderConfig> & Pick<EncoderConfig, 'vocab_size'>): EncoderConfig {
  return {
    model_type: 'bert',
    architectures: ['BertForMaskedLM'],
    hidden_size: 128,
    num_hidden_layers: 2,
    num_attention_heads: 2,
    intermediate_size: 512,
    hidden_act: 'gelu',
    max_position_embeddings: 512,
    type_vocab_size: 2,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
    initializer_range: 0.02,
    hidden_dropout_prob: 0.1,
    attention_probs_dropout_prob: 0.1,
    ...overrides,
  };
}

/** Upper bounds on sizes, far above any BERT/RoBERTa: a larger value is a corrupt file, not a model to allocate. */
const MAX_SIZE = 1 << 20;
const MAX_PARAMETERS = 2e9;

/**
 * Checks what the encoder relies on; each problem names the field and the fix. A value of the wrong type
 * or out of range is a FormatError (the file is malformed); a well-formed but unsupported model is a ConfigError.
 */
export function validateConfig(raw: unknown, file = 'config.json', text?: string): EncoderConfig {
  if (!isJsonObject(raw)) throw new FormatError('config.json must be a JSON object', { file });
  const config = raw as Partial<EncoderConfig>;
  // With the file's text at hand, an error names the line of the value it is about.
  const at = (key: string) => ({ file, line: text === undefined ? undefined : jsonValueLine(text, [key]) });
  const repeated = text === undefined ? undefined : jsonRepeatedKey(text);
  if (repeated !== undefined) throw new FormatError(`"${repeated.path.join('.')}" is given twice; keep the one the model was saved with`, { file, line: repeated.line });
  const bad = (key: string, what: string) => new FormatError(`"${key}" must be ${what}, got ${JSON.stringify(config[key])}`, at(key));
  const integer = (key: string, min: number, max: number, required = false) => {
    const v = config[key];
    if ((required || v !== undefined) && (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)) throw bad(key, `an integer from ${min} to ${max}`);
  };
  for (const key of ['vocab_size', 'hidden_size', 'num_hidden_layers', 'num_attention_heads', 'intermediate_size', 'max_position_embeddings']) integer(key, 1, MAX_SIZE, true);
  const number = (key: string, min: number, max: number, what: string) => {
    const v = config[key];
    if (v !== undefined && (typeof v !== 'number' || !(v >= min && v <= max))) throw bad(key, what);
  };
  integer('type_vocab_size', 1, MAX_SIZE);
  integer('pad_token_id', 0, config.vocab_size! - 1);
  number('layer_norm_eps', Number.MIN_VALUE, 1, 'a positive number at most 1');
  number('initializer_range', 0, 10, 'a number from 0 to 10');
  number('hidden_dropout_prob', 0, 0.999, 'a probability below 1');
  number('attention_probs_dropout_prob', 0, 0.999, 'a probability below 1');
  if (config.tie_word_embeddings !== undefined && typeof config.tie_word_embeddings !== 'boolean') throw bad('tie_word_embeddings', 'true or false');
  if (config.architectures !== undefined && (!Array.isArray(config.architectures) || !config.architectures.every((a) => typeof a === 'string'))) throw bad('architectures', 'an array of strings');
  if (config.id2label !== undefined && (!isJsonObject(config.id2label) || !Object.entries(config.id2label).every(([k, v]) => /^\d+$/.test(k) && typeof v === 'string'))) {
    throw bad('id2label', 'an object mapping label ids to names');
  }
  const { vocab_size: v, hidden_size: h, num_hidden_layers: l, intermediate_size: i, max_position_embeddings: p } = config as EncoderConfig;
  const parameters = (v + p) * h + l * (4 * h * h + 2 * h * i);
  if (parameters > MAX_PARAMETERS) throw new ConfigError(`the sizes describe a model of ${parameters.toExponential(1)} parameters, more than ppmlm can hold (${MAX_PARAMETERS.toExponential(0)}); check the sizes`, at('vocab_size'));
  if (config.model_type === undefined) throw new ConfigError('"model_type" is missing; set it to "bert" or "roberta", as the model was trained (ppmlm runs BERT and RoBERTa encoders)', { file });
  if (config.model_type !== 'bert' && config.model_type !== 'roberta') throw new ConfigError(`model_type "${String(config.model_type)}" is not supported; ppmlm runs BERT and RoBERTa encoders`, at('model_type'));
  // Read as absolute positions and an encoder, such a model would run as another one, silently.
  const positions = (config as { position_embedding_type?: unknown }).position_embedding_type;
  if (positions !== undefined && positions !== 'absolute') throw new ConfigError(`position_embedding_type ${JSON.stringify(positions)} is not supported: ppmlm's encoder has absolute position embeddings only; give a model trained with "absolute"`, at('position_embedding_type'));
  for (const key of ['is_decoder', 'add_cross_attention'] as const) {
    if ((config as Record<string, unknown>)[key] === true) throw new ConfigError(`"${key}": true describes a decoder, which ppmlm does not run; give an encoder (BERT or RoBERTa) saved without it`, at(key));
  }
  if (config.hidden_size! % config.num_attention_heads! !== 0) throw new ConfigError(`hidden_size ${config.hidden_size} is not a multiple of num_attention_heads ${config.num_attention_heads}; each head takes an equal share: set num_attention_heads to a divisor of it`, at('num_attention_heads'));
  // gelu_python is Hugging Face's own implementation of the same exact (erf) GELU.
  const act = config.hidden_act === undefined || (config.hidden_act as string) === 'gelu_python' ? 'gelu' : config.hidden_act;
  if (act !== 'gelu' && act !== 'gelu_new' && act !== 'relu') throw new ConfigError(`hidden_act "${String(act)}" is not supported (gelu, gelu_python, gelu_new, relu); ppmlm cannot run this model's activation`, at('hidden_act'));
  // Hugging Face's RobertaConfig pads with id 1 when config.json does not say: the position ids start after it.
  const pad = config.pad_token_id ?? (config.model_type === 'roberta' ? 1 : 0);
  return defaultConfig({ ...config, hidden_act: act, pad_token_id: pad } as EncoderConfig);
}

/**
 * Tokens per sequence the model has positions for, [CLS] and [SEP] included. RoBERTa numbers positions
 * from `pad_token_id + 1` (Hugging Face's create_position_ids_from_input_ids), so it has
 * `max_position_embeddings - pad_token_id - 1` (512 of 514 for roberta-base).
 */
export function usablePositions(config: EncoderConfig): number {
  return config.model_type === 'roberta' ? config.max_position_embeddings - config.pad_token_id - 1 : config.max_position_embeddings;
}

/**
 * Throws a UsageError when windows of `seqLen` tokens would index past the model's position embeddings,
 * before any work (otherwise a gather fails mid-run with an index error).
 *
 * @example
 * assertSeqLenFits(model.config, 128, '--seq-len', 'models/tiny');
 */
export function assertSeqLenFits(config: EncoderConfig, seqLen: number, flag: string, model: string): void {
  const limit = usablePositions(config);
  if (seqLen > limit) throw new UsageError(`${flag} ${seqLen} exceeds the ${limit} positions of ${model} (config.json max_position_embeddings); pass ${flag} ${limit} or less`);
}
