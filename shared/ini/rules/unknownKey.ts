/** `unknown-key`: a key in a quota section that Forgejo does not read anywhere in the quota sections. */
import * as l10n from '@vscode/l10n';
import { andList } from '../../text/lists';
import { QUOTA_DEFAULT_SECTION, QUOTA_KEYS, QUOTA_SECTION } from '../quotaSettings';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import { closest, suggestionFixes } from './suggestions';

function check(context: AppIniContext): AppIniFinding[] {
  const findings: AppIniFinding[] = [];
  for (const entry of context.quotaEntries) {
    const known = QUOTA_KEYS[entry.section];
    const otherSection = entry.section === QUOTA_SECTION ? QUOTA_DEFAULT_SECTION : QUOTA_SECTION;
    // A key of the other quota section is misplaced-key's.
    if (known[entry.key] !== undefined || QUOTA_KEYS[otherSection][entry.key] !== undefined) continue;
    const suggestions = closest(entry.key, Object.keys(known));
    findings.push({
      code: 'unknown-key',
      at: entry.keySpan,
      message: suggestions.length
        ? l10n.t('Forgejo does not read {0} in [{1}]; did you mean {2}? Key names are case-sensitive.', entry.key, entry.section, suggestions[0])
        : l10n.t('Forgejo does not read {0} in [{1}]; it reads only {2} there.', entry.key, entry.section, andList(Object.keys(known))),
      ...(suggestions.length ? { data: { suggestions } } : {}),
    });
  }
  return findings;
}

export const unknownKey: AppIniRule = {
  code: 'unknown-key',
  doc: 'A key in `[quota]` or `[quota.default]` that Forgejo does not read (key names are case-sensitive, so `enabled` is not `ENABLED`): it is silently ignored.',
  check,
  fix: (_context, request) => suggestionFixes(request, (key) => l10n.t('Rename to {0}', key)),
};
