/**
 * The records the store returns and the rows it reads them from, with the conversions between
 * them. Plain types and pure functions: every resource module of the store imports these.
 */
import type { Bytes } from '../../shared/api/types';
import { type QuotaRule, narrowBytes } from '../../shared/quota';
import { conflict } from '../errors';

export interface Account {
  id: number;
  name: string;
  type: 'user' | 'org';
  isAdmin: boolean;
  email: string;
  fullName: string;
}

export interface QuotaSettings {
  enabled: boolean;
  defaultGroups: string[];
  defaultTotal: number | bigint;
}

export interface StoredGroup {
  name: string;
  rules: QuotaRule[];
}

/** A rule given inline when creating a group; `limit` undefined means 0 (Forgejo). */
export interface InlineRule {
  name: string;
  limit?: Bytes;
  subjects: string[];
}

export interface Page<T> {
  total: number;
  items: T[];
}

export interface AttachmentRow {
  id: number;
  repo: string;
  name: string;
  size: number;
  issue: number | null;
  comment: number | null;
  release: string | null;
  /** The release's id when `release` (its tag) is set. */
  releaseId: number | null;
}

export interface PackageRow {
  id: number;
  owner: string;
  type: string;
  name: string;
  version: string;
  size: number;
}

export interface ArtifactRow {
  id: number;
  repo: string;
  name: string;
  size: number;
  runId: number;
}

export interface RepoRow {
  id: number;
  owner: string;
  name: string;
  is_private: number;
  git_size: number;
  lfs_size: number;
}

/** A rule as the store's statements read it, `limit_bytes` with safeIntegers: exact, as a bigint. */
export interface RuleRow {
  name: string;
  limit_bytes: bigint;
  subjects: string;
}

/** The columns of a rule; ids are left out so that only the limit comes back as a bigint. */
export const RULE_COLUMNS = 'name, limit_bytes, subjects';

export interface AccountRow {
  id: number;
  name: string;
  type: 'user' | 'org';
  is_admin: number;
  email: string;
  full_name: string;
}

export function toRule(row: RuleRow): QuotaRule {
  return { name: row.name, limit: narrowBytes(row.limit_bytes), subjects: JSON.parse(row.subjects) as string[] };
}

export function toAccount(row: AccountRow): Account {
  return { id: row.id, name: row.name, type: row.type, isAdmin: row.is_admin === 1, email: row.email, fullName: row.full_name };
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Runs an insert; a row that already exists becomes a 409 with `conflictMessage`. */
export function insertUnique<T>(insert: () => T, conflictMessage: () => string): T {
  try {
    return insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(conflictMessage());
    throw error;
  }
}

/** `owner/name` → owner: whoever owns the repository pays. */
export function repoOwner(fullName: string): string {
  const slash = fullName.indexOf('/');
  return slash === -1 ? fullName : fullName.slice(0, slash);
}
