/** `misspelt-section`: a section header close to [quota] or [quota.default], whose keys Forgejo ignores. */
import * as l10n from '@vscode/l10n';
import { isQuotaSection, QUOTA_DEFAULT_SECTION, QUOTA_SECTION } from '../quotaSettings';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import { closest, suggestionFixes } from './suggestions';

function check(context: AppIniContext): AppIniFinding[] {
  const findings: AppIniFinding[] = [];
  for (const header of context.document.headers) {
    if (isQuotaSection(header.name)) continue;
    const name = header.name.trim();
    // A name that starts like the quota sections may be further off than a stray one.
    const suggestions = closest(name, [QUOTA_SECTION, QUOTA_DEFAULT_SECTION], name.toLowerCase().startsWith('quota') ? 2 : 1);
    if (suggestions.length === 0) continue;
    findings.push({
      code: 'misspelt-section',
      at: header.nameSpan,
      message: l10n.t('[{0}] is not a section Forgejo reads; did you mean [{1}]? Section names are case-sensitive and not trimmed, so its keys are ignored.', header.name, suggestions[0]),
      data: { suggestions },
    });
  }
  return findings;
}

export const misspeltSection: AppIniRule = {
  code: 'misspelt-section',
  doc: 'A section such as `[Quota]` or `[quota.defaults]`, close to `[quota]` or `[quota.default]`: Forgejo ignores it and all its keys (section names are case-sensitive and not trimmed).',
  check,
  fix: (_context, request) => suggestionFixes(request, (name) => l10n.t('Rename the section to [{0}]', name)),
};
