/**
 * The quota settings of a Forgejo `app.ini` as overrides of a quota file's `enabled`,
 * `defaultGroups` and `defaultTotal`, each with where it came from. Used by
 * `quota-state evaluate --config` and `quota-api --config`, so both read app.ini alike.
 *
 * Precedence: a setting written in app.ini (where Forgejo reads it) wins; a setting app.ini
 * leaves out keeps the quota file's value. TOTAL is read as the given Forgejo version reads it:
 * a byte size such as `10G` from 12.0.4 on, a plain integer before (anything else is ignored and
 * the default -1 stays).
 */
import type { Diagnostic } from '../diagnostics';
import { type QuotaModel, DEFAULT_FORGEJO_PROFILE, type ForgejoProfile } from '../quota';
import { analyzeAppIni, type AppIniAnalysis, type SettingReading } from './appIni';

type OverridableSetting = 'enabled' | 'defaultGroups' | 'defaultTotal';

interface SettingOrigin<T> {
  value: T;
  /** e.g. `app.ini:4 [quota] DEFAULT_GROUPS`, or the quota file's name. */
  source: string;
}

export type EffectiveSettings = { [K in OverridableSetting]: SettingOrigin<QuotaModel[K]> };

export interface ServerConfig {
  analysis: AppIniAnalysis;
  /** Lines that stop Forgejo from loading the file: a server must refuse to start. */
  errors: Diagnostic[];
  overrides: Partial<{ [K in OverridableSetting]: SettingOrigin<QuotaModel[K]> }>;
}

export function readServerConfig(text: string, displayName: string, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): ServerConfig {
  const analysis = analyzeAppIni(text);
  const origin = <T>(reading: SettingReading<T> | undefined) =>
    reading
      ? {
          value: reading.value,
          source: `${displayName}:${analysis.lines.positionAt(reading.entry.keySpan.offset).line + 1} [${reading.entry.section}] ${reading.entry.key}`,
        }
      : undefined;
  const overrides: ServerConfig['overrides'] = {};
  const enabled = origin(analysis.settings.enabled);
  const defaultGroups = origin(analysis.settings.defaultGroups);
  const totalReading = analysis.settings.defaultTotal;
  const defaultTotal = origin(totalReading && profile.totalParsing === 'integer' ? { ...totalReading, value: totalReading.older } : totalReading);
  if (enabled) overrides.enabled = enabled;
  if (defaultGroups) overrides.defaultGroups = defaultGroups;
  if (defaultTotal) overrides.defaultTotal = defaultTotal;
  return { analysis, errors: analysis.diagnostics.filter((d) => d.code === 'ini-syntax'), overrides };
}

/** The three settings after app.ini's overrides, each with its source. */
export function effectiveSettings(model: QuotaModel, quotaFileName: string, config: ServerConfig | undefined): EffectiveSettings {
  const fromFile = <K extends OverridableSetting>(key: K): SettingOrigin<QuotaModel[K]> => ({ value: model[key], source: quotaFileName });
  return {
    enabled: config?.overrides.enabled ?? fromFile('enabled'),
    defaultGroups: config?.overrides.defaultGroups ?? fromFile('defaultGroups'),
    defaultTotal: config?.overrides.defaultTotal ?? fromFile('defaultTotal'),
  };
}
