export * from './blacklist/index.js';
export * from './direct/index.js';
export * from './indirect/index.js';
export { buildBlacklist, blacklistFingerprint, blacklistProvenanceProblem, ngramAnchor } from './build.js';
export type { BuildBlacklistOptions, BuildBlacklistResult, CommonWordRule } from './build.js';
export { corpusReference, englishReference, ownTextBlacklists, ownTextEntries, readCorpusReference } from './ownText.js';
export type { OwnTextOptions, PublicReference } from './ownText.js';
export { silverLabels } from './silver.js';
export type { FoundDetection, FoundDetections } from './foundDetections.js';
