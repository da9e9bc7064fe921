/**
 * ppmlm's public API. Only what this file exports is supported; deep imports may change.
 *
 * @example
 * import { engine, identifiers, corpus, mlm } from 'ppmlm';
 * await engine.selectBackend('auto');
 * const { blacklist } = await identifiers.buildBlacklist(corpus.readCorpus('notes.csv'), { k: 2 });
 * await mlm.finetune({ model: './bert', docs: await corpus.loadCorpus('notes.csv'), strategy: 'constrained', blacklist, out: './bert-ppmlm' });
 */
import './engine/register.js';

export * from './errors.js';
export { PACKAGE_VERSION } from './version.js';
export * as io from './io/index.js';
export * as corpus from './corpus/index.js';
export * as text from './text/index.js';
export * as identifiers from './identifiers/index.js';
export * as tokenizer from './tokenizer/index.js';
export * as engine from './engine/index.js';
export * as model from './model/index.js';
export * as onnx from './onnx/index.js';
export * as privacy from './privacy/index.js';
export * as mlm from './mlm/index.js';
export * as dataset from './dataset/index.js';
export * as deid from './deid/index.js';
export * as audit from './audit/index.js';
export * as experiment from './experiment/index.js';
export * as demo from './demo/index.js';
