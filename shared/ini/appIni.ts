/**
 * Forgejo's `app.ini`, quota part: the settings Forgejo reads from `[quota]` and `[quota.default]`
 * (as `modules/setting/quota.go` maps them) and the diagnostics for what it would silently ignore.
 * The rest of the file is left alone, except lines that stop Forgejo from loading the file at all.
 * Each diagnostic code is one rule of ./rules; this parses the file once and runs them all.
 */
import { compareDiagnostics, placeFinding } from '../diagnostics';
import { APP_INI_CODES } from './codes';
import type { AppIniOptions } from './quotaSettings';
import { buildAppIniContext, type AppIniAnalysis } from './rules/context';
import { APP_INI_RULES } from './rules';

export type { AppIniAnalysis } from './rules/context';
export type { AppIniOptions, GroupSource, SettingReading } from './quotaSettings';

export function analyzeAppIni(text: string, options: AppIniOptions = {}): AppIniAnalysis {
  const context = buildAppIniContext(text, options);
  const at = (span: { offset: number; length: number }) => context.lines.rangeOf(span);
  const diagnostics = APP_INI_RULES.flatMap((rule) => rule.check(context))
    .map((finding) => placeFinding(finding, APP_INI_CODES[finding.code].severity, at))
    .sort(compareDiagnostics);
  return { ...context, groupsUnchecked: context.groupSources.length === 0 && context.defaultGroupItems.length > 0, diagnostics };
}
