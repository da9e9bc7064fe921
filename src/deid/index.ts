export { TAXONOMY, LabelResolver, readDatasetLabels, labelAt } from './taxonomy.js';
export type { Taxonomy, TaxonomyCategory, LabelPath, LabelLevel, DatasetLabels, UnknownLabelPolicy } from './taxonomy.js';
export { parseAnnotated } from './annotated.js';
export type { AnnotatedDocument, Mention } from './annotated.js';
export { agreeParticle, GENERATED } from './surrogates.js';
export { readReplacementLists, readAnnotatedFolder, fillDocument, generateDocuments } from './generate.js';
export type { GeneratedDocument, LabelledSpan, ReplacementMode, ReplacementLists } from './generate.js';
