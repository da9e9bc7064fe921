import './engine/register.js';
/**
 * ppmlm's public API. Only what this file exports is supported; deep imports may change.
 */
export * from './errors.js';
export * as corpus from './corpus/index.js';
export * as engine from './engine/index.js';
export * as io from './io/index.js';
