/** `invalid-boolean`: an ENABLED that go-ini does not read as a boolean, so quota stays off. */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import { parseGoIniBool } from '../goValues';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import type { SuggestionData } from './suggestions';

function check(context: AppIniContext): AppIniFinding[] {
  const entry = context.settings.enabled?.entry;
  if (!entry || parseGoIniBool(entry.value) !== undefined) return [];
  // The value that looks like a yes gets "true" first.
  const suggestions = /^(?:y|t|on|1|enable)/i.test(entry.value.trim()) ? ['true', 'false'] : ['false', 'true'];
  const message = l10n.t(
    'ENABLED = {0} is not a boolean go-ini reads (true/false, yes/no, on/off, 1/0 and their capitalised forms): Forgejo keeps quota disabled, so every quota route answers 404.',
    JSON.stringify(entry.value),
  );
  return [{ code: 'invalid-boolean', at: entry.valueSpan.length ? entry.valueSpan : entry.keySpan, message, data: { suggestions } }];
}

/** Writes each suggested boolean in place of the value (after the `=` when it is empty). */
function fix(context: AppIniContext, request: FixRequest): Fix[] {
  const entry = context.settings.enabled?.entry;
  if (!entry) return [];
  const { suggestions } = request.data as SuggestionData;
  return (suggestions ?? []).map((word, i) => ({ title: l10n.t('Change to {0}', word), edits: [{ ...entry.valueSpan, newText: word }], preferred: i === 0 }));
}

export const invalidBoolean: AppIniRule = {
  code: 'invalid-boolean',
  doc: '`ENABLED` is not one of the booleans go-ini accepts (`true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0` and their capitalised forms): Forgejo keeps quota disabled.',
  check,
  fix,
};
