/** Quota settings: `[quota] ENABLED`, `DEFAULT_GROUPS` and `[quota.default] TOTAL`, as stored and as overridden. */
import { parseJsonExact, stringifyJsonExact } from '../../shared/api/json';
import type { QuotaStore } from './quotaStore';
import type { QuotaSettings } from './rows';

const SETTING_KEYS = { enabled: 'quota.enabled', defaultGroups: 'quota.default_groups', defaultTotal: 'quota.default_total' };

/** Stores the settings; run inside the caller's transaction (seeding). */
export function writeSettings(store: QuotaStore, settings: QuotaSettings): void {
  const upsert = store.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  upsert.run(SETTING_KEYS.enabled, JSON.stringify(settings.enabled));
  upsert.run(SETTING_KEYS.defaultGroups, JSON.stringify(settings.defaultGroups));
  upsert.run(SETTING_KEYS.defaultTotal, stringifyJsonExact(settings.defaultTotal));
}

/**
 * The settings routes and evaluation follow: app.ini's overrides (`store.settingsOverrides`) over
 * the database's values, and Forgejo's defaults for what neither sets.
 */
export function settings(store: QuotaStore, generation = store.generation()): QuotaSettings {
  return { ...storedSettings(store, generation), ...store.settingsOverrides };
}

function storedSettings(store: QuotaStore, generation: number): QuotaSettings {
  if (store.settingsCache?.generation === generation) return store.settingsCache.settings;
  const read = (key: string): unknown => {
    const row = store.db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined;
    return row === undefined ? undefined : parseJsonExact(row);
  };
  const enabled = read(SETTING_KEYS.enabled);
  const defaultGroups = read(SETTING_KEYS.defaultGroups);
  const defaultTotal = read(SETTING_KEYS.defaultTotal);
  // An unseeded database serves an enabled quota engine: that is what the reference server is for.
  const stored: QuotaSettings = {
    enabled: typeof enabled === 'boolean' ? enabled : true,
    defaultGroups: Array.isArray(defaultGroups) ? (defaultGroups as string[]) : [],
    defaultTotal: typeof defaultTotal === 'number' || typeof defaultTotal === 'bigint' ? defaultTotal : -1,
  };
  store.settingsCache = { generation, settings: stored };
  return stored;
}
