import { describe, expect, it } from 'vitest';
import * as ppmlm from '../src/index.js';

describe('public API', () => {
  it('exposes one namespace per module and the typed errors', () => {
    for (const ns of ['io', 'corpus', 'text', 'identifiers', 'tokenizer', 'engine', 'model', 'onnx', 'mlm', 'dataset', 'deid', 'audit', 'demo']) expect(ppmlm).toHaveProperty(ns);
    expect(typeof ppmlm.onnx.exportOnnx).toBe('function');
    expect(typeof ppmlm.identifiers.buildBlacklist).toBe('function');
    expect(typeof ppmlm.mlm.finetune).toBe('function');
    expect(typeof ppmlm.dataset.exportDataset).toBe('function');
    expect(new ppmlm.UsageError('x').code).toBe(2);
    expect(ppmlm.PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });
});
