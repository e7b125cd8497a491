/** The language server's evaluation report as a readable Markdown table (pure). */
import { type EvaluationReport, formatSize } from '../shared/quota/vocabulary';
import * as l10n from '@vscode/l10n';

export function formatEvaluationReport(report: EvaluationReport, fileName: string): string {
  const lines = [l10n.t('# Quota evaluation of {0}', fileName), '', l10n.t('{0}: the verdicts are what Forgejo {1} decides.', report.forgejo.rules, report.forgejo.version), ''];
  if (report.enabled === false) lines.push(l10n.t('> Quota is disabled in this file: the verdicts show what the rules would decide.'), '');
  if (report.accounts.length === 0) lines.push(l10n.t('No account to evaluate: add `usage` scenarios or instance `accounts`.'));
  for (const account of report.accounts) {
    const who = account.live ? l10n.t('{0} (live usage from {1})', account.name, account.live.server) : account.name;
    lines.push(account.stands ? l10n.t('## {0}: within quota', who) : l10n.t('## {0}: over quota', who), '');
    lines.push(l10n.t('| group | rule | used | limit | rule | group |'), '|---|---|---:|---:|---|---|');
    for (const group of account.groups) {
      const groupVerdict = group.stands ? l10n.t('stands') : l10n.t('fails');
      if (group.rules.length === 0) lines.push(`| ${group.name} | ${l10n.t('(no rules)')} | | | | ${groupVerdict} |`);
      group.rules.forEach((rule, index) => {
        lines.push(
          `| ${index === 0 ? group.name : ''} | ${rule.name} | ${formatSize(rule.used)} | ${formatSize(rule.limit)} | ${rule.stands ? l10n.t('stands') : l10n.t('**fails**')} | ${index === 0 ? groupVerdict : ''} |`,
        );
      });
    }
    const checks = Object.entries(account.checks);
    if (checks.length) {
      lines.push('', l10n.t('| subject | verdict |'), '|---|---|');
      for (const [subject, allowed] of checks) lines.push(`| \`${subject}\` | ${allowed ? l10n.t('within quota') : l10n.t('**over quota**')} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
