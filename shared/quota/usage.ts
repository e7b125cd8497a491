/**
 * Usage per account computed from an instance's content; a repository's owner pays for it.
 * Everything is charged to the repository owner, never to the uploader.
 */
import type { InstanceContent, LeafUsage } from './model';
import { DEFAULT_FORGEJO_PROFILE, type ForgejoProfile } from './forgejoVersion';
import { CANONICAL_SUBJECTS, canonicalSubject, LEAF_SUBJECTS, subjectLeaves, type LeafSubject, type Subject } from './subjects';

export function zeroUsage(): LeafUsage {
  const usage = {} as LeafUsage;
  for (const leaf of LEAF_SUBJECTS) usage[leaf] = 0;
  return usage;
}

/** A number while it is exact, else the bigint: what the JSON writer and the engine take. */
export function narrowBytes(exact: bigint): number | bigint {
  const asNumber = Number(exact);
  return Number.isSafeInteger(asNumber) ? asNumber : exact;
}

/** A byte count as an exact integer; undefined for a number that is not one (a file's invalid limit reads as NaN). */
export function exactBytes(value: number | bigint): bigint | undefined {
  if (typeof value === 'bigint') return value;
  return Number.isInteger(value) ? BigInt(value) : undefined;
}

/**
 * Bytes used for any accepted subject spelling, exactly and wrapped like Go's int64;
 * `none`, the wiki and unknown strings are 0. Before Forgejo 12.0.4 `size:all` adds
 * `size:repos:all` to `size:git:all`, which already contains it (v11 `used.go` `UsedSize.All`).
 */
export function usageOfExact(subject: string, usage: Readonly<Record<LeafSubject, number | bigint>>, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): bigint {
  const canonical = canonicalSubject(subject);
  if (!canonical) return 0n;
  let sum = 0n;
  for (const leaf of subjectLeaves(canonical)) sum += exactBytes(usage[leaf]) ?? 0n;
  if (canonical === 'size:all' && profile.sizeAllCountsReposTwice) {
    for (const leaf of subjectLeaves('size:repos:all')) sum += exactBytes(usage[leaf]) ?? 0n;
  }
  return BigInt.asIntN(64, sum);
}

/** Bytes used for any accepted subject spelling; `none`, the wiki and unknown strings are 0. */
export function usageOf(subject: string, usage: LeafUsage, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): number {
  return Number(usageOfExact(subject, usage, profile));
}

/** Usage for every canonical subject, e.g. for hovers and `GET /user/quota`. */
export function usageBySubject(usage: LeafUsage, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): Record<Subject, number> {
  const result = {} as Record<Subject, number>;
  for (const subject of CANONICAL_SUBJECTS) {
    result[subject] = usageOf(subject, usage, profile);
  }
  return result;
}

function ownerOfRepo(fullName: string): string {
  const slash = fullName.indexOf('/');
  return slash === -1 ? fullName : fullName.slice(0, slash);
}

/**
 * Computes leaf usage for every account that owns something. Accounts that own nothing
 * do not appear (callers use `zeroUsage()` for them).
 * Repositories referenced by attachments/artifacts/packages are charged to the owner
 * named in `owner/name` even when the repository itself is not listed.
 */
export function computeUsage(content: InstanceContent): Map<string, LeafUsage> {
  const byAccount = new Map<string, LeafUsage>();
  const charge = (account: string, leaf: keyof LeafUsage, bytes: number) => {
    if (!Number.isFinite(bytes) || bytes <= 0) return;
    let usage = byAccount.get(account);
    if (!usage) byAccount.set(account, (usage = zeroUsage()));
    // Exact, and wrapped like Go's int64: many large rows must neither round nor fail.
    usage[leaf] = narrowBytes(BigInt.asIntN(64, (exactBytes(usage[leaf]) ?? 0n) + BigInt(Math.trunc(bytes))));
  };
  for (const repo of content.repos) {
    charge(repo.owner, repo.private ? 'size:repos:private' : 'size:repos:public', repo.gitSize);
    charge(repo.owner, 'size:git:lfs', repo.lfsSize);
  }
  for (const attachment of content.attachments) {
    const leaf = attachment.release !== undefined ? 'size:assets:attachments:releases' : 'size:assets:attachments:issues';
    charge(ownerOfRepo(attachment.repo), leaf, attachment.size);
  }
  for (const pkg of content.packages) {
    charge(pkg.repo ? ownerOfRepo(pkg.repo) : pkg.owner, 'size:assets:packages:all', pkg.size);
  }
  for (const artifact of content.artifacts) {
    if (artifact.expired) continue;
    charge(ownerOfRepo(artifact.repo), 'size:assets:artifacts', artifact.size);
  }
  return byAccount;
}
