/**
 * What quota config files and the quota API say that needs no engine: sizes, subjects, the model's
 * types, usage as the API carries it, Forgejo's versions, the codes and the file summary's wire form.
 * The client bundles this door, never index.ts's service (the engine runs in the language server);
 * everything else outside the kind goes through index.ts.
 */
export { QUOTA_CODES } from './codes';
export type { AccountExplanation, GroupExplanation, SubjectExplanation } from './explain';
export { quotaFileSummaryForWire, quotaFileSummaryFromWire, type QuotaFileSummary } from './fileSummary';
export {
  DEFAULT_FORGEJO_PROFILE,
  DEFAULT_FORGEJO_VERSION,
  describeResolvedProfile,
  forgejoProfile,
  parseForgejoVersion,
  reportedVersion,
  resolveForgejoProfile,
  rulesLabel,
  type ForgejoProfile,
  type ForgejoVersionSource,
  type ResolvedForgejoProfile,
} from './forgejoVersion';
export type { InstanceContent, LeafUsage, QuotaModel, QuotaRule } from './model';
export { leafUsageFromQuotaUsed, quotaUsedFromLeafUsage } from './quotaInfo';
export type { EvaluationReport } from './report';
export { describeSize, formatSize, formatSizeExact, parseSize } from './sizes';
export { ACCEPTED_SUBJECTS, CANONICAL_SUBJECTS, canonicalSubject, SUBJECT_DESCRIPTIONS, suggestSubjects } from './subjects';
export { exactBytes, narrowBytes, zeroUsage } from './usage';
