import { ConfigError, UsageError } from '../errors.js';

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

/** Checks what the encoder relies on; each problem names the field and the fix. */
export function validateConfig(config: Partial<EncoderConfig>, file = 'config.json'): EncoderConfig {
  const need = ['vocab_size', 'hidden_size', 'num_hidden_layers', 'num_attention_heads', 'intermediate_size', 'max_position_embeddings'] as const;
  for (const key of need) {
    const v = config[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ConfigError(`"${key}" must be a positive integer, got ${JSON.stringify(v)}`, { file });
  }
  if (config.model_type !== 'bert' && config.model_type !== 'roberta') throw new ConfigError(`model_type "${String(config.model_type)}" is not supported; ppmlm runs BERT and RoBERTa encoders`, { file });
  if (config.hidden_size! % config.num_attention_heads! !== 0) throw new ConfigError(`hidden_size ${config.hidden_size} is not a multiple of num_attention_heads ${config.num_attention_heads}`, { file });
  const act = config.hidden_act ?? 'gelu';
  if (act !== 'gelu' && act !== 'gelu_new' && act !== 'relu') throw new ConfigError(`hidden_act "${act}" is not supported (gelu, gelu_new, relu)`, { file });
  return defaultConfig({ ...config, hidden_act: act } as EncoderConfig);
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
