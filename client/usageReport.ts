/** Pure text for people: an account's explanation as a per-subject usage table and rule figures, and the check answer in words. */
import { type AccountExplanation, formatSize, canonicalSubject, SUBJECT_DESCRIPTIONS } from '../shared/quota/vocabulary';
import * as l10n from '@vscode/l10n';

/** Markdown: usage per subject, then each group that applies with each rule's used/limit and whether it stands. */
export function formatMyQuota(explanation: AccountExplanation, server: string): string {
  const lines = [
    l10n.t('# Quota of {0} on {1}', explanation.account, server),
    '',
    l10n.t('{0} ({1}).', explanation.reason, explanation.forgejo.rules),
    '',
    l10n.t('| subject | used | what it counts |'),
    '|---|---:|---|',
  ];
  for (const subject of explanation.subjects) {
    const canonical = canonicalSubject(subject.subject);
    lines.push(`| \`${subject.subject}\` | ${formatSize(subject.used)} | ${canonical ? SUBJECT_DESCRIPTIONS[canonical] : ''} |`);
  }
  lines.push('');
  if (explanation.groupList !== 'unlisted') {
    lines.push(l10n.t('## Groups that apply to you'), '', l10n.t('You are within quota when any one group stands; a group stands when all its rules stand.'), '');
    for (const group of explanation.groups) {
      lines.push(group.stands ? l10n.t('### {0}: within quota', group.name) : l10n.t('### {0}: over quota', group.name), '');
      if (group.rules.length === 0) lines.push(l10n.t('No rules (an empty group always stands).'));
      for (const rule of group.rules) {
        const subjects = rule.subjects.length ? rule.subjects.map((s) => `\`${s}\``).join(' + ') : l10n.t('no subjects');
        const figures = [rule.name, subjects, formatSize(rule.used), formatSize(rule.limit)];
        lines.push(rule.stands ? l10n.t('- **{0}** {1}: {2} of {3} — within', ...figures) : l10n.t('- **{0}** {1}: {2} of {3} — over', ...figures));
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
  if (withinQuota) return why ? l10n.t('You are within quota for {0} on {1} ({2}).', subject, server, why) : l10n.t('You are within quota for {0} on {1}.', subject, server);
  return why
    ? l10n.t('You are over quota for {0} on {1} ({2}): actions that store more of it will be refused.', subject, server, why)
    : l10n.t('You are over quota for {0} on {1}: actions that store more of it will be refused.', subject, server);
}
