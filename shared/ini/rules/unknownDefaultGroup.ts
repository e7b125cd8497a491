/** `unknown-default-group`: a DEFAULT_GROUPS name that is no group in a known group source. */
import * as l10n from '@vscode/l10n';
import { orList } from '../../text/lists';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import { closest, suggestionFixes } from './suggestions';

/** Without a group source nothing is checked: the language status says "could not check" instead. */
function check(context: AppIniContext): AppIniFinding[] {
  const findings: AppIniFinding[] = [];
  for (const item of context.defaultGroupItems) {
    const missingFrom = context.groupSources.filter((source) => !source.names.includes(item.name));
    if (missingFrom.length === 0) continue;
    const candidates = [...new Set(missingFrom.flatMap((source) => source.names))];
    const suggestions = closest(item.name, candidates).slice(0, 3);
    const where = orList(missingFrom.map((source) => source.label));
    findings.push({
      code: 'unknown-default-group',
      at: item.span,
      message: suggestions.length
        ? l10n.t('No group "{0}" in {1}: Forgejo silently skips it. Did you mean "{2}"?', item.name, where, suggestions[0])
        : l10n.t('No group "{0}" in {1}: Forgejo silently skips it.', item.name, where),
      data: { name: item.name, suggestions },
    });
  }
  return findings;
}

export const unknownDefaultGroup: AppIniRule = {
  code: 'unknown-default-group',
  doc: "`DEFAULT_GROUPS` names a group missing from the nearest quota file or the signed-in server's groups (not checked when neither is available): Forgejo silently skips it.",
  check,
  fix: (_context, request) => suggestionFixes(request, (name) => l10n.t('Change to group "{0}"', name)),
};
