/** The language server's evaluation report as a readable Markdown table (pure). */
import type { EvaluationReport } from '../shared/quota/report';
import { formatSize } from '../shared/quota/sizes';

export function formatEvaluationReport(report: EvaluationReport, fileName: string): string {
  const lines = [`# Quota evaluation of ${fileName}`, '', `${report.forgejo.rules}: the verdicts are what Forgejo ${report.forgejo.version} decides.`, ''];
  if (report.enabled === false) lines.push('> Quota is disabled in this file: the verdicts show what the rules would decide.', '');
  if (report.accounts.length === 0) lines.push('No account to evaluate: add `usage` scenarios or instance `accounts`.');
  for (const account of report.accounts) {
    const source = account.live ? ` (live usage from ${account.live.server})` : '';
    lines.push(`## ${account.name}${source}: ${account.stands ? 'within quota' : 'over quota'}`, '');
    lines.push('| group | rule | used | limit | rule | group |', '|---|---|---:|---:|---|---|');
    for (const group of account.groups) {
      const groupVerdict = group.stands ? 'stands' : 'fails';
      if (group.rules.length === 0) lines.push(`| ${group.name} | (no rules) | | | | ${groupVerdict} |`);
      group.rules.forEach((rule, index) => {
        lines.push(
          `| ${index === 0 ? group.name : ''} | ${rule.name} | ${formatSize(rule.used)} | ${formatSize(rule.limit)} | ${rule.stands ? 'stands' : '**fails**'} | ${index === 0 ? groupVerdict : ''} |`,
        );
      });
    }
    const checks = Object.entries(account.checks);
    if (checks.length) {
      lines.push('', '| subject | verdict |', '|---|---|');
      for (const [subject, allowed] of checks) lines.push(`| \`${subject}\` | ${allowed ? 'within quota' : '**over quota**'} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
