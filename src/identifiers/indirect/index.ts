export type { AuthorTermEngine, EngineName, EngineStats, RareTermVisitor, TermUsage } from './engine.js';
export { CountingEngine } from './countingEngine.js';
export { GraphEngine } from './graphEngine.js';
export { DuckdbEngine, RARE_TERMS_SQL } from './duckdbEngine.js';
export { writeGraph, toGexf } from './graphExport.js';
