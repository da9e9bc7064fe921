export { readExperimentConfig } from './config.js';
export type { ExperimentConfig } from './config.js';
export { checkCanaries, runExperiment } from './run.js';
export { EXPERIMENT_OUTPUTS } from './settings.js';
export type { CanaryReading, ExperimentOptions } from './run.js';
export { resultsCsv, resultsMarkdown, resultsSvg } from './results.js';
export type { ResultRow } from './results.js';
export { CANARY_SECRET_KINDS, plantCanaries, protectedCanaryOccurrences, secretKindOf } from './canaries.js';
export type { CanaryConfig, CanaryLanguage, CanaryProtection, CanarySecretKind, PlantedCanaries, PlantedSpan } from './canaries.js';
