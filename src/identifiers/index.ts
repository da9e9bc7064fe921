export * from './blacklist/index.js';
export * from './direct/index.js';
export * from './indirect/index.js';
export { buildBlacklist, blacklistFingerprint, blacklistProvenanceProblem, ngramAnchor } from './build.js';
export type { BuildBlacklistOptions, BuildBlacklistResult } from './build.js';
