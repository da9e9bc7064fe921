import { describe, expect, it } from 'vitest';
import { assertSeqLenFits, defaultConfig, usablePositions } from '../../src/model/index.js';
import { UsageError } from '../../src/errors.js';

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
