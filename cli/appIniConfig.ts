/** app.ini support of `quota-state`: the group sources of `check` and the `--config` overrides of `evaluate`. */
import { kindFromFileName } from '../shared/documentKind';
import { type GroupSource, type EffectiveSettings, createAppIniService } from '../shared/ini';
import { type ForgejoProfile, type QuotaAnalysis, formatSize } from '../shared/quota';
import { diskLookupIo } from '../shared/node/diskLookup';

const { quotaFileGroups, effectiveSettings, readServerConfig } = createAppIniService();

interface Io {
  readFile: (path: string) => string;
}

/** For an app.ini, its nearest quota file's groups (none: names are not checked, as in the editor). */
export function appIniGroupSources(file: string, io: Io): GroupSource[] | undefined {
  if (kindFromFileName(file) !== 'appIni') return undefined;
  const source = quotaFileGroups(file, diskLookupIo(io.readFile));
  return source ? [source] : [];
}

/** Applies `--config app.ini` to a quota analysis; `errors` are located lines that stop Forgejo from loading the file. */
export function withServerConfig(
  analysis: QuotaAnalysis,
  quotaFileName: string,
  config: { text: string; displayName: string } | undefined,
  profile?: ForgejoProfile,
): { analysis: QuotaAnalysis; settings: EffectiveSettings; errors: string[] } {
  const serverConfig = config ? readServerConfig(config.text, config.displayName, profile) : undefined;
  const settings = effectiveSettings(analysis.model, quotaFileName, serverConfig);
  const errors = (serverConfig?.errors ?? []).map((d) => `${config!.displayName}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`);
  const model = { ...analysis.model, enabled: settings.enabled.value, defaultGroups: settings.defaultGroups.value, defaultTotal: settings.defaultTotal.value };
  return { analysis: { ...analysis, model }, settings, errors };
}

export function settingsText(settings: EffectiveSettings): string[] {
  return [
    'Settings:',
    `  enabled        ${settings.enabled.value}   (from ${settings.enabled.source})`,
    `  defaultGroups  ${settings.defaultGroups.value.join(', ') || '(none)'}   (from ${settings.defaultGroups.source})`,
    `  defaultTotal   ${formatSize(settings.defaultTotal.value)}   (from ${settings.defaultTotal.source})`,
  ];
}
