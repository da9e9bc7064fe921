import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/model/index.js';
import { commonWindowLength, inferenceSeqLen, parseSplit, splitDocuments, splitRecord, recordedPart } from '../../src/deid/index.js';


describe('the windows a model reads', () => {
  it('are those 99 training windows in 100 fit in, however long the rare longest', () => {
    expect(commonWindowLength([...Array.from({ length: 100 }, () => 30), 128])).toBe(30);
    expect(commonWindowLength(Array.from({ length: 100 }, (_, i) => i + 1))).toBe(99);
  });

  it('follow ppmlm.json, at most 128 and the position embeddings; older models read 128', () => {
    const config = defaultConfig({ vocab_size: 100, max_position_embeddings: 512 });
    expect(inferenceSeqLen(config, { ppmlm: '0', createdAt: '', windowTokens: 59 })).toBe(59);
    expect(inferenceSeqLen(config, { ppmlm: '0', createdAt: '' })).toBe(128);
    expect(inferenceSeqLen(defaultConfig({ vocab_size: 100, max_position_embeddings: 64 }), undefined)).toBe(64);
    // RoBERTa's positions start after its padding index.
    expect(inferenceSeqLen(defaultConfig({ vocab_size: 100, model_type: 'roberta', max_position_embeddings: 66, pad_token_id: 1 }), undefined)).toBe(64);
  });
});

describe('splitDocuments', () => {
  it('splits by the shares, deterministically per seed, with every document in exactly one part', () => {
    const docs = Array.from({ length: 50 }, (_, i) => ({ id: `d${i}` }));
    const a = splitDocuments(docs, parseSplit('80/10/10'), 3);
    expect([a.train.length, a.dev.length, a.test.length]).toEqual([40, 5, 5]);
    expect(new Set([...a.train, ...a.dev, ...a.test].map((d) => d.id)).size).toBe(50);
    expect(splitDocuments(docs, parseSplit('80/10/10'), 3)).toEqual(a);
    expect(splitDocuments(docs, parseSplit('80/10/10'), 4).test).not.toEqual(a.test);
  });
});

describe('splitRecord / recordedPart', () => {
  const docs = Array.from({ length: 30 }, (_, i) => ({ id: `2021고단${1000 + i}` }));

  it('records seed, shares, counts and fingerprints, never an id, and draws the same parts again', () => {
    const split = splitDocuments(docs, [80, 10, 10], 7);
    const record = splitRecord(split, [80, 10, 10], 7);
    expect(JSON.stringify(record)).not.toMatch(/고단/);
    expect(record.documents).toEqual({ train: 24, dev: 3, test: 3 });
    expect(recordedPart([...docs].reverse(), record, 'test')).toEqual(split.test);
    expect(recordedPart(docs, record, 'dev')).toEqual(split.dev);
  });

  it('refuses documents the split was not drawn from', () => {
    const record = splitRecord(splitDocuments(docs, [80, 10, 10], 7), [80, 10, 10], 7);
    expect(recordedPart(docs.slice(1), record, 'test')).toBeUndefined();
    expect(recordedPart(docs, { ...record, seed: 8 }, 'test')).toBeUndefined();
  });
});
