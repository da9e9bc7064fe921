export { runAudit } from './audit.js';
export type { AuditOptions, AuditReport, AuditModel, PrivacyScore, RegurgitationRow, MembershipResult } from './audit.js';
export { roc, bootstrapMean, f1Scores } from './metrics.js';
export type { RocResult } from './metrics.js';
export { predictMasked } from './inference.js';
export type { MaskedQuery, PositionPrediction } from './inference.js';
export { writeReport, reportHtml, rocSvg, regurgitationSvg } from './report.js';
export { downstreamF1 } from './downstream.js';
export type { DownstreamOptions, DownstreamResult } from './downstream.js';
