/** `misplaced-key`: a quota key written in the other quota section. */
import * as l10n from '@vscode/l10n';
import { QUOTA_DEFAULT_SECTION, QUOTA_KEYS, QUOTA_SECTION } from '../quotaSettings';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';

function messageFor(key: string): string {
  return key === 'TOTAL'
    ? l10n.t(
        'TOTAL belongs in [{0}]. Forgejo reads it from [{1}] only through section inheritance, when [{0}] sets no TOTAL itself (and older servers only when a [{0}] section exists).',
        QUOTA_DEFAULT_SECTION,
        QUOTA_SECTION,
      )
    : l10n.t('{0} belongs in [{1}]: Forgejo does not read it in [{2}].', key, QUOTA_SECTION, QUOTA_DEFAULT_SECTION);
}

function check(context: AppIniContext): AppIniFinding[] {
  const findings: AppIniFinding[] = [];
  for (const entry of context.quotaEntries) {
    if (QUOTA_KEYS[entry.section][entry.key] !== undefined) continue;
    const otherSection = entry.section === QUOTA_SECTION ? QUOTA_DEFAULT_SECTION : QUOTA_SECTION;
    if (QUOTA_KEYS[otherSection][entry.key] === undefined) continue;
    findings.push({ code: 'misplaced-key', at: entry.keySpan, message: messageFor(entry.key), data: { key: entry.key, section: otherSection } });
  }
  return findings;
}

export const misplacedKey: AppIniRule = {
  code: 'misplaced-key',
  doc: '`ENABLED` or `DEFAULT_GROUPS` in `[quota.default]`, or `TOTAL` in `[quota]`: Forgejo does not read the key there (`TOTAL` only by section inheritance, when `[quota.default]` sets none).',
  check,
};
