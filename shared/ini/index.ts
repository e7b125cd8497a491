/**
 * The front door of Forgejo's app.ini quota settings, as vscode-json-languageservice's
 * `getLanguageService` is to its services: `createAppIniService()` gives one object offering the
 * analysis, the editor's services and the lookup of the quota file beside an app.ini, through the
 * file access its caller injects (`LookupIo`: the server's documents or the disk). The server's mode and the CLI call it; nothing outside
 * `shared/ini/` imports an inner file (dependency-cruiser's `one-door-per-kind`).
 */
import { analyzeAppIni } from './appIni';
import { APP_INI_RULES } from './rules';
import { quotaFileGroups } from './quotaFileLookup';
import { effectiveSettings, readServerConfig } from './serverConfig';
import { appIniCodeActions, appIniCompletion, appIniHover } from './services';

export { APP_INI_CODES } from './codes';
export type { AppIniAnalysis, GroupSource } from './appIni';
export type { LookupIo } from './quotaFileLookup';
export type { EffectiveSettings, ServerConfig } from './serverConfig';

export function createAppIniService() {
  return {
    analyze: analyzeAppIni,
    rules: APP_INI_RULES,
    hover: appIniHover,
    completion: appIniCompletion,
    codeActions: appIniCodeActions,
    /** The group names of the quota file beside an app.ini (or the `configured` one), read through `io`. */
    quotaFileGroups,
    readServerConfig,
    effectiveSettings,
  };
}
