/** Pure text for people: a quota answer from the API as a per-subject usage table and rule figures. */
import type { QuotaInfo } from '../shared/api/types';
import type { LeafUsage } from '../shared/quota/model';
import { formatSize } from '../shared/quota/sizes';
import { CANONICAL_SUBJECTS, SUBJECT_DESCRIPTIONS } from '../shared/quota/subjects';
import { usageBySubject, usageOf } from '../shared/quota/usage';
import { limitStands, QuotaIndex } from '../shared/quota/evaluate';
import { explainSubject } from '../shared/quota/report';
import { modelFromQuotaInfo } from './dashboard/model';
import { leafUsageFromQuotaUsed } from '../shared/quota/quotaInfo';

/** The API's usage answer as the engine's leaf usage. */
function leafUsageOf(quota: QuotaInfo): LeafUsage {
  return leafUsageFromQuotaUsed(quota.used);
}

/** Markdown: usage per subject, then each group that applies with each rule's used/limit and whether it stands. */
export function formatMyQuota(quota: QuotaInfo, account: string | undefined, server: string): string {
  const usage = leafUsageOf(quota);
  const bySubject = usageBySubject(usage);
  const lines = [`# Quota of ${account ?? 'your account'} on ${server}`, '', '| subject | used | what it counts |', '|---|---:|---|'];
  for (const subject of CANONICAL_SUBJECTS) {
    if (subject === 'none') continue;
    lines.push(`| \`${subject}\` | ${formatSize(bySubject[subject])} | ${SUBJECT_DESCRIPTIONS[subject]} |`);
  }
  lines.push('');
  if (quota.groups.length === 0) {
    lines.push('No quota group applies to you: the server-wide default limit (if any) is used.');
  } else {
    lines.push('## Groups that apply to you', '', 'You are within quota when any one group stands; a group stands when all its rules stand.', '');
    quota.groups.forEach((group, index) => {
      const verdicts = group.rules.map((rule) => {
        const used = (rule.subjects ?? []).reduce((sum, subject) => sum + usageOf(subject, usage), 0);
        return { rule, used, stands: limitStands(rule.limit, used) };
      });
      const stands = verdicts.every((v) => v.stands);
      lines.push(`### ${group.name ?? `Group ${index + 1}`}: ${stands ? 'within quota' : 'over quota'}`, '');
      if (verdicts.length === 0) lines.push('No rules (an empty group always stands).');
      for (const { rule, used, stands: ruleStands } of verdicts) {
        const subjects = rule.subjects?.length ? rule.subjects.map((s) => `\`${s}\``).join(' + ') : 'no subjects';
        lines.push(`- ${rule.name ? `**${rule.name}** ` : ''}${subjects}: ${formatSize(used)} of ${formatSize(rule.limit)} — ${ruleStands ? 'within' : 'over'}`);
      }
      lines.push('');
    });
  }
  return lines.join('\n');
}

/**
 * The reason behind the server's check answer, computed from the account's groups and usage with
 * the same engine; undefined when it cannot be told (no group listed, or the engine disagrees).
 */
export function explainCheck(account: string, quota: QuotaInfo, subject: string, withinQuota: boolean): string | undefined {
  if (quota.groups.length === 0) return undefined;
  const model = modelFromQuotaInfo(account, quota);
  const explained = explainSubject(new QuotaIndex(model), account, subject, leafUsageOf(quota));
  return explained.allowed === withinQuota ? explained.sentence : undefined;
}

/** The check endpoint's boolean, in words, with the reason when known. */
export function describeCheck(subject: string, withinQuota: boolean, server: string, why?: string): string {
  const reason = why ? ` (${why})` : '';
  return withinQuota ? `You are within quota for ${subject} on ${server}${reason}.` : `You are over quota for ${subject} on ${server}${reason}: actions that store more of it will be refused.`;
}
