export type { Blacklist, BlacklistEntry, BlacklistHeader, IdentifierKind } from './types.js';
export { BLACKLIST_COLUMNS, BLACKLIST_FORMAT_VERSION } from './types.js';
export { readBlacklist, parseBlacklist, canonicalTerm } from './read.js';
export { writeBlacklist, formatBlacklist } from './write.js';
export { BlacklistMatcher, mergeSpans, termWords } from './matcher.js';
export type { TermMatch } from './matcher.js';
export { occurrenceTokens, overlaps, protectedMask } from './protectedPositions.js';
export type { TokenOffsets } from './protectedPositions.js';
export { assertSameAnalyzer } from './analyzerCheck.js';
