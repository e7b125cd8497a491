/**
 * The quota model after loading: sizes already in bytes, names as written.
 * Produced by `analyzeQuotaConfig` (config.ts) and by the API server from its database.
 */
import type { LeafSubject } from './subjects';

export interface QuotaRule {
  name: string;
  /**
   * Bytes; -1 unlimited; other negatives never stand. A bigint where a number could not hold it
   * exactly (above 2^53, up to int64's maximum, as the API's database gives it).
   */
  limit: number | bigint;
  /** As written (aliases kept); evaluated by canonical meaning; unknown strings count nothing. */
  subjects: string[];
}

export interface QuotaGroup {
  name: string;
  /** Rule names; names of rules that do not exist are ignored by evaluation. */
  rules: string[];
}

export interface QuotaModel {
  enabled: boolean;
  defaultGroups: string[];
  /** Limit of the built-in `size:all` group used when an account has no group at all. */
  defaultTotal: number | bigint;
  rules: QuotaRule[];
  groups: QuotaGroup[];
  /** Account (user or org) → explicitly assigned group names. */
  assignments: Record<string, string[]>;
}

/** Bytes used per leaf subject; every aggregate subject sums the leaves under it. */
export type LeafUsage = Record<LeafSubject, number | bigint>;

interface InstanceAccount {
  name: string;
  type: 'user' | 'org';
  admin?: boolean;
  token?: string;
  owners?: string[];
  email?: string;
  fullName?: string;
}

interface InstanceRepo {
  owner: string;
  name: string;
  private?: boolean;
  gitSize: number;
  lfsSize: number;
}

interface InstanceAttachment {
  /** `owner/name` of the repository the attachment belongs to (the owner pays). */
  repo: string;
  name: string;
  size: number;
  issue?: number;
  comment?: number;
  release?: string;
  uploader?: string;
}

interface InstancePackage {
  owner: string;
  /** Linked repository `owner/name`; when present its owner pays, else the package owner. */
  repo?: string;
  type: string;
  name: string;
  version: string;
  size: number;
}

interface InstanceArtifact {
  repo: string;
  name: string;
  size: number;
  runId: number;
  expired?: boolean;
}

export interface InstanceContent {
  accounts: InstanceAccount[];
  repos: InstanceRepo[];
  attachments: InstanceAttachment[];
  packages: InstancePackage[];
  artifacts: InstanceArtifact[];
}

export function emptyInstanceContent(): InstanceContent {
  return { accounts: [], repos: [], attachments: [], packages: [], artifacts: [] };
}

export function defaultQuotaModel(): QuotaModel {
  return { enabled: true, defaultGroups: [], defaultTotal: -1, rules: [], groups: [], assignments: {} };
}
