/** Pure text for people: an account's explanation as a per-subject usage table and rule figures, and the check answer in words. */
import type { AccountExplanation } from '../shared/quota/explain';
import { formatSize } from '../shared/quota/sizes';
import { canonicalSubject, SUBJECT_DESCRIPTIONS } from '../shared/quota/subjects';

/** Markdown: usage per subject, then each group that applies with each rule's used/limit and whether it stands. */
export function formatMyQuota(explanation: AccountExplanation, server: string): string {
  const lines = [`# Quota of ${explanation.account} on ${server}`, '', `${explanation.reason} (${explanation.forgejo.rules}).`, '', '| subject | used | what it counts |', '|---|---:|---|'];
  for (const subject of explanation.subjects) {
    const canonical = canonicalSubject(subject.subject);
    lines.push(`| \`${subject.subject}\` | ${formatSize(subject.used)} | ${canonical ? SUBJECT_DESCRIPTIONS[canonical] : ''} |`);
  }
  lines.push('');
  if (explanation.groupList !== 'unlisted') {
    lines.push('## Groups that apply to you', '', 'You are within quota when any one group stands; a group stands when all its rules stand.', '');
    for (const group of explanation.groups) {
      lines.push(`### ${group.name}: ${group.stands ? 'within quota' : 'over quota'}`, '');
      if (group.rules.length === 0) lines.push('No rules (an empty group always stands).');
      for (const rule of group.rules) {
        const subjects = rule.subjects.length ? rule.subjects.map((s) => `\`${s}\``).join(' + ') : 'no subjects';
        lines.push(`- **${rule.name}** ${subjects}: ${formatSize(rule.used)} of ${formatSize(rule.limit)} — ${rule.stands ? 'within' : 'over'}`);
      }
      lines.push('');
    }
  }
  return lines.join('\n');
}

/**
 * The reason behind the server's check answer, from the account's explanation; undefined when
 * the explanation does not agree with the server (then the server's answer stands alone).
 */
export function explainCheck(explanation: AccountExplanation, subject: string, withinQuota: boolean): string | undefined {
  const explained = explanation.subjects.find((s) => s.subject === subject);
  return explained && explained.allowed === withinQuota ? explained.reason : undefined;
}

/** The check endpoint's boolean, in words, with the reason when known. */
export function describeCheck(subject: string, withinQuota: boolean, server: string, why?: string): string {
  const reason = why ? ` (${why})` : '';
  return withinQuota ? `You are within quota for ${subject} on ${server}${reason}.` : `You are over quota for ${subject} on ${server}${reason}: actions that store more of it will be refused.`;
}
