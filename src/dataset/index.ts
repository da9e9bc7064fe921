export type { DatasetExample, DatasetSplit, DatasetManifest } from './types.js';
export { MANIFEST_FILE, shardName } from './types.js';
export { writeDataset } from './write.js';
export type { WriteDatasetOptions } from './write.js';
export { readDatasetManifest, readDatasetSplit } from './read.js';
export { exportDataset, collatorExample, premaskedEpoch } from './export.js';
export type { ExportDatasetOptions, PremaskOptions } from './export.js';
