import { describe, expect, it } from 'vitest';
import { assertSeqLenFits, defaultConfig, usablePositions, validateConfig } from '../../src/model/index.js';
import { ConfigError, FormatError, UsageError } from '../../src/errors.js';
import { thrown } from '../helpers/errors.js';

const GOOD = { model_type: 'bert', vocab_size: 100, hidden_size: 16, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 64 };

const located = (config: unknown) => thrown(() => validateConfig(config, 'm/config.json'));

describe('validateConfig', () => {
  it('accepts a BERT config and fills the defaults', () => {
    expect(validateConfig(GOOD)).toMatchObject({ ...GOOD, hidden_act: 'gelu', type_vocab_size: 2 });
  });

  it('refuses what would run as another model: relative positions, a decoder, no model_type; reads what is the same model', () => {
    const refused: [object, string][] = [
      [{ position_embedding_type: 'relative_key' }, 'position_embedding_type "relative_key" is not supported: ppmlm\'s encoder has absolute position embeddings only; give a model trained with "absolute"'],
      [{ is_decoder: true }, '"is_decoder": true describes a decoder, which ppmlm does not run; give an encoder (BERT or RoBERTa) saved without it'],
      [{ model_type: undefined }, '"model_type" is missing; set it to "bert" or "roberta", as the model was trained (ppmlm runs BERT and RoBERTa encoders)'],
    ];
    for (const [patch, message] of refused) {
      const err = located({ ...GOOD, ...patch });
      expect(err, message).toBeInstanceOf(ConfigError);
      expect(err.located).toBe(`m/config.json: ${message}`);
    }
    expect(validateConfig({ ...GOOD, position_embedding_type: 'absolute', is_decoder: false, hidden_act: 'gelu_python' })).toMatchObject({ hidden_act: 'gelu' });
    // Hugging Face's RobertaConfig pads with id 1 when the file does not say; BERT's with 0.
    expect(validateConfig({ ...GOOD, model_type: 'roberta' }).pad_token_id).toBe(1);
    expect(validateConfig(GOOD).pad_token_id).toBe(0);
  });

  it('refuses a config that is not an object', () => {
    for (const value of [null, [], 'bert', 3]) {
      const err = located(value);
      expect(err).toBeInstanceOf(FormatError);
      expect(err.located).toBe('m/config.json: config.json must be a JSON object');
    }
  });

  it('names the field of a wrong type or out-of-range value', () => {
    const cases: [object, string][] = [
      [{ hidden_size: '16' }, '"hidden_size" must be an integer from 1 to 1048576, got "16"'],
      [{ vocab_size: null }, '"vocab_size" must be an integer from 1 to 1048576, got null'],
      [{ num_hidden_layers: 1.5 }, '"num_hidden_layers" must be an integer from 1 to 1048576, got 1.5'],
      [{ max_position_embeddings: 1e9 }, '"max_position_embeddings" must be an integer from 1 to 1048576, got 1000000000'],
      [{ pad_token_id: 100 }, '"pad_token_id" must be an integer from 0 to 99, got 100'],
      [{ pad_token_id: -1 }, '"pad_token_id" must be an integer from 0 to 99, got -1'],
      [{ layer_norm_eps: 0 }, '"layer_norm_eps" must be a positive number at most 1, got 0'],
      [{ hidden_dropout_prob: 1 }, '"hidden_dropout_prob" must be a probability below 1, got 1'],
      [{ type_vocab_size: 'two' }, '"type_vocab_size" must be an integer from 1 to 1048576, got "two"'],
      [{ architectures: 'BertForMaskedLM' }, '"architectures" must be an array of strings, got "BertForMaskedLM"'],
      [{ id2label: { '0': 'O', '1': 5 } }, '"id2label" must be an object mapping label ids to names, got {"0":"O","1":5}'],
    ];
    for (const [patch, message] of cases) {
      const err = located({ ...GOOD, ...patch });
      expect(err, message).toBeInstanceOf(FormatError);
      expect(err.located).toBe(`m/config.json: ${message}`);
      // With the file's text, the line of the value too.
      const text = JSON.stringify({ ...GOOD, ...patch }, null, 2);
      const key = Object.keys(patch)[0]!;
      const line = text.split('\n').findIndex((l) => l.startsWith(`  "${key}":`)) + 1;
      expect(thrown(() => validateConfig(JSON.parse(text), 'm/config.json', text)).located).toBe(`m/config.json:${line}: ${message}`);
    }
    // A size written twice: the weights were saved for one of the two.
    const twice = '{\n  "hidden_size": 16,\n  "hidden_size": 64\n}';
    expect(thrown(() => validateConfig(JSON.parse(twice), 'm/config.json', twice)).located).toBe('m/config.json:3: "hidden_size" is given twice; keep the one the model was saved with');
  });

  it('refuses sizes that describe a model too large to hold', () => {
    const err = located({ ...GOOD, vocab_size: 1_000_000, hidden_size: 65_536, num_attention_heads: 1 });
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/a model of 8\.3e\+10 parameters, more than ppmlm can hold/);
  });
});


describe('usablePositions', () => {
  it('is max_position_embeddings for BERT and max_position_embeddings - pad_token_id - 1 for RoBERTa', () => {
    expect(usablePositions(defaultConfig({ vocab_size: 10, max_position_embeddings: 64 }))).toBe(64);
    expect(usablePositions(defaultConfig({ vocab_size: 10, model_type: 'roberta', max_position_embeddings: 514, pad_token_id: 1 }))).toBe(512);
  });
});

describe('assertSeqLenFits', () => {
  it('refuses a sequence length beyond the positions with a UsageError naming the flag and the limit', () => {
    const config = defaultConfig({ vocab_size: 10, model_type: 'roberta', max_position_embeddings: 66, pad_token_id: 1 });
    expect(() => assertSeqLenFits(config, 64, '--seq-len', 'm')).not.toThrow();
    expect(() => assertSeqLenFits(config, 65, '--seq-len', 'm')).toThrow(UsageError);
    expect(() => assertSeqLenFits(config, 128, '--seq-len', 'models/tiny')).toThrow('--seq-len 128 exceeds the 64 positions of models/tiny (config.json max_position_embeddings); pass --seq-len 64 or less');
  });
});
