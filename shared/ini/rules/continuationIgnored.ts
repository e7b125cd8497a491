/** `continuation-ignored`: a quota value ending in a backslash, which Forgejo does not join with the next line. */
import * as l10n from '@vscode/l10n';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';

function check(context: AppIniContext): AppIniFinding[] {
  return context.quotaEntries
    .filter((entry) => !entry.quote && entry.value.endsWith('\\'))
    .map((entry) => ({
      code: 'continuation-ignored',
      at: { offset: entry.valueSpan.offset + entry.valueSpan.length - 1, length: 1 },
      message: l10n.t('Forgejo does not join lines ending in a backslash: the "\\" is part of {0}\'s value and the next line is read on its own.', entry.key),
    }));
}

export const continuationIgnored: AppIniRule = {
  code: 'continuation-ignored',
  doc: 'A quota value ending in `\\`: Forgejo does not join it with the next line; the backslash stays in the value and the next line is read on its own.',
  check,
};
