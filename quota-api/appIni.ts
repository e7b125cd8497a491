/**
 * `quota-api --config app.ini`: the quota settings of a Forgejo `app.ini`, read at start as
 * Forgejo reads them (same reader as the language server and `quota-state`).
 *
 * Precedence: the seed instance file fills an empty database once (rules, groups, accounts and
 * its `enabled` / `defaultGroups` / `defaultTotal`); app.ini is configuration, read at every
 * start: each of `[quota] ENABLED`, `[quota] DEFAULT_GROUPS` and `[quota.default] TOTAL` that it
 * sets replaces the database's value while this process runs (it is never written back), and a
 * setting it leaves out keeps the database's value.
 */
import * as fs from 'node:fs';
import { type ServerConfig, createAppIniService } from '../shared/ini';
import type { ForgejoProfile } from '../shared/quota';
import type { QuotaStore } from './store/quotaStore';
import type { QuotaSettings } from './store/rows';

const { readServerConfig } = createAppIniService();

export class ServerConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerConfigError';
  }
}

/** Reads app.ini; a file Forgejo could not load is refused with located messages, as Forgejo refuses to start. */
export function loadServerConfig(file: string, profile?: ForgejoProfile): ServerConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ServerConfigError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  const config = readServerConfig(text, file, profile);
  if (config.errors.length) {
    const located = config.errors.map((d) => `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: error ${d.code}: ${d.message}`);
    throw new ServerConfigError(`the config file has errors:\n${located.join('\n')}`);
  }
  return config;
}

/** Makes the store answer app.ini's settings over the database's, in memory only. Returns one line per overridden setting. */
export function applyServerConfig(store: QuotaStore, config: ServerConfig): string[] {
  const overrides: Partial<QuotaSettings> = {};
  const described: string[] = [];
  for (const [key, origin] of Object.entries(config.overrides) as Array<[keyof QuotaSettings, { value: never; source: string }]>) {
    overrides[key] = origin.value;
    described.push(`${key} = ${JSON.stringify(origin.value)} from ${origin.source}`);
  }
  // Every reader of the settings (routes and evaluation) goes through store/settings.ts, which applies these.
  store.settingsOverrides = overrides;
  return described;
}
