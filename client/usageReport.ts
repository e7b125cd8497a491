/** Pure text for people: a quota answer from the API as a per-subject usage table and rule figures. */
import type { QuotaInfo } from '../shared/api/types';
import type { LeafUsage } from '../shared/quota/model';
import { formatSize } from '../shared/quota/sizes';
import { CANONICAL_SUBJECTS, SUBJECT_DESCRIPTIONS } from '../shared/quota/subjects';
import { usageBySubject, usageOf } from '../shared/quota/usage';
import { limitStands } from '../shared/quota/evaluate';
import { leafUsageFromQuotaUsed } from '../shared/quota/quotaInfo';

/** The API's usage answer as the engine's leaf usage. */
export function leafUsageOf(quota: QuotaInfo): LeafUsage {
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

/** The check endpoint's boolean, in words. */
export function describeCheck(subject: string, withinQuota: boolean, server: string): string {
  return withinQuota
    ? `You are within quota for ${subject} on ${server}.`
    : `You are over quota for ${subject} on ${server}: actions that store more of it will be refused.`;
}
