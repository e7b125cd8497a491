/** `quota-disabled`: quota is off, explicitly or because ENABLED is not set. */
import * as l10n from '@vscode/l10n';
import type { Fix } from '../../edits';
import { parseGoIniBool } from '../goValues';
import { QUOTA_DEFAULT_SECTION, QUOTA_SECTION } from '../quotaSettings';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';

function check(context: AppIniContext): AppIniFinding[] {
  const enabled = context.settings.enabled;
  if (enabled) {
    // An ENABLED that is no boolean is invalid-boolean's.
    if (parseGoIniBool(enabled.entry.value) !== false) return [];
    const message = l10n.t('Quota is disabled: every quota API route answers 404 and no limit is enforced, whatever the other quota settings say.');
    return [{ code: 'quota-disabled', at: enabled.entry.valueSpan, message }];
  }
  const index = context.firstHeaders.get(QUOTA_SECTION) ?? context.firstHeaders.get(QUOTA_DEFAULT_SECTION);
  if (index === undefined) return [];
  const message = l10n.t('Quota is disabled: ENABLED is not set and defaults to false, so every quota API route answers 404 and no limit is enforced.');
  return [{ code: 'quota-disabled', at: context.document.headers[index].span, message }];
}

/** Without ENABLED, adds `ENABLED = true` under the first [quota] header (none when only [quota.default] exists). */
function fix(context: AppIniContext): Fix[] {
  const index = context.firstHeaders.get(QUOTA_SECTION);
  if (context.settings.enabled || index === undefined) return [];
  const { span } = context.document.headers[index];
  return [{ title: l10n.t('Add {0}', 'ENABLED = true'), edits: [{ offset: span.offset + span.length, length: 0, newText: '\nENABLED = true' }], preferred: true }];
}

export const quotaDisabled: AppIniRule = {
  code: 'quota-disabled',
  doc: 'Quota is disabled, explicitly or because `ENABLED` is not set (it defaults to `false`): every quota API route answers 404 and no limit is enforced.',
  check,
  fix,
};
