/**
 * The project configuration file `.quota-state.json`, read by both the language server and the
 * `quota-state` CLI so that a repository gives the editor and CI the same severities and globs.
 * Found by walking up from each checked file; the nearest one applies to the files below it.
 * Parsing and validation are pure; finding the file takes an injected reader (shared/ does no I/O).
 */
import * as l10n from '@vscode/l10n';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Severity, SeverityOverrides } from './diagnostics';
import { DEFAULT_FILE_PATTERNS, matchesAny, type DocumentKind, type FilePatterns } from './documentKind';
import { editDistance } from './text/editDistance';
import { LineIndex } from './text/lineIndex';
import { orList } from './text/lists';
import { allDiagnosticCodes } from './fileKinds';
import { isStateSchemaMode, STATE_SCHEMA_MODES, stateSchemaModeOf, type StateSchemaMode } from './state';

export const PROJECT_CONFIG_FILE = '.quota-state.json';

export interface ProjectConfig {
  /** Absolute path of the configuration file. */
  path: string;
  /** Folder of the configuration file: its globs are relative to it. */
  folder: string;
  severity: SeverityOverrides;
  /** Globs (relative to `folder`) that replace the default file patterns of a kind. */
  files: Partial<FilePatterns>;
  /** Which schema state files are read by: `pulumi` or `seed-v3`. */
  stateSchema?: StateSchemaMode;
}

/** A problem in the configuration file, at 1-based line and column. */
export class ProjectConfigError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${path}:${line}:${column}: ${reason}`);
  }
}

const LEVELS: readonly (Severity | 'off')[] = ['error', 'warning', 'information', 'hint', 'off'];

/** Every code of every file kind's registry: a severity override naming another code is a typo. */
export const knownCodes = allDiagnosticCodes;

export function closestCode(code: string, codes: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(code.length / 3)) + 1;
  for (const candidate of codes) {
    const distance = editDistance(code, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

export function parseProjectConfig(path: string, text: string): ProjectConfig {
  const lines = new LineIndex(text);
  const fail = (offset: number, reason: string): never => {
    const { line, character } = lines.positionAt(offset);
    throw new ProjectConfigError(path, line + 1, character + 1, reason);
  };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) fail(errors[0].offset, l10n.t('not valid JSON ({0})', printParseErrorCode(errors[0].error)));
  if (!root || root.type !== 'object') fail(root?.offset ?? 0, l10n.t('the configuration must be a JSON object'));
  const folder = path.replace(/[\\/][^\\/]*$/, '') || '/';
  const config: ProjectConfig = { path, folder, severity: {}, files: {} };
  const codes = knownCodes();
  for (const member of root!.children ?? []) {
    const [keyNode, value] = member.children as [Node, Node];
    const key = keyNode.value as string;
    if (key === 'severity') {
      if (value.type !== 'object') fail(value.offset, l10n.t('{0} must be an object of code → level', '"severity"'));
      for (const entry of value.children ?? []) {
        const [codeNode, levelNode] = entry.children as [Node, Node];
        const code = codeNode.value as string;
        if (!codes.includes(code)) {
          const near = closestCode(code, codes);
          fail(codeNode.offset, near ? l10n.t('unknown diagnostic code "{0}"; did you mean "{1}"?', code, near) : l10n.t('unknown diagnostic code "{0}"', code));
        }
        if (!LEVELS.includes(levelNode.value)) fail(levelNode.offset, l10n.t('the level of "{0}" must be one of {1}', code, LEVELS.join(', ')));
        config.severity[code] = levelNode.value;
      }
    } else if (key === 'files') {
      if (value.type !== 'object') fail(value.offset, l10n.t('{0} must be an object with {1} and/or {2} glob lists', '"files"', '"state"', '"quota"'));
      for (const entry of value.children ?? []) {
        const [kindNode, globs] = entry.children as [Node, Node];
        const kind = kindNode.value as string;
        if (kind !== 'state' && kind !== 'quota') fail(kindNode.offset, l10n.t('unknown file kind "{0}"; use {1} or {2}', kind, '"state"', '"quota"'));
        if (globs.type !== 'array' || (globs.children ?? []).some((g) => g.type !== 'string' || g.value === '')) {
          fail(globs.offset, l10n.t('{0} must be a list of non-empty glob strings', `"files.${kind}"`));
        }
        config.files[kind as DocumentKind] = (globs.children ?? []).map((g) => g.value as string);
      }
    } else if (key === 'stateSchema') {
      if (!isStateSchemaMode(value.value)) fail(value.offset, l10n.t('{0} must be {1}', '"stateSchema"', orList(STATE_SCHEMA_MODES.map((m) => `"${m}"`))));
      config.stateSchema = value.value as StateSchemaMode;
    } else if (key !== '$schema') {
      fail(keyNode.offset, l10n.t('unknown key "{0}"; the file may hold {1}, {2} and {3}', key, '"severity"', '"files"', '"stateSchema"'));
    }
  }
  return config;
}

/** Reads a file's text, or `undefined` when there is no such file. Other failures throw. */
export type ReadIfExists = (path: string) => string | undefined;

/** The nearest `.quota-state.json` at or above `folder` (an absolute path), parsed. */
export function findProjectConfig(folder: string, readIfExists: ReadIfExists): ProjectConfig | undefined {
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  let current = folder.replace(/[\\/]+$/, '');
  for (;;) {
    const path = `${current}${separator}${PROJECT_CONFIG_FILE}`;
    const text = readIfExists(path);
    if (text !== undefined) return parseProjectConfig(path, text);
    const parent = current.replace(/[\\/][^\\/]*$/, '');
    if (parent === current || current === '') return undefined;
    current = parent;
  }
}

/** The file's path relative to the configuration folder, with `/` separators. */
function relativeToConfig(config: ProjectConfig, file: string): string {
  const normal = file.replace(/\\/g, '/');
  const folder = config.folder.replace(/\\/g, '/').replace(/\/+$/, '');
  return normal.startsWith(`${folder}/`) ? normal.slice(folder.length + 1) : normal;
}

/**
 * The kind a file name gives under a configuration: its globs (relative to its folder) decide
 * for the kinds they list; `fallback` (the editor's or the built-in patterns) for the others.
 */
export function kindFromConfiguredName(file: string, config: ProjectConfig | undefined, fallback: FilePatterns): DocumentKind | undefined {
  const relative = config ? relativeToConfig(config, file) : file;
  const quota = config?.files.quota;
  const state = config?.files.state;
  if (quota ? matchesAny(relative, quota) : matchesAny(file, fallback.quota)) return 'quota';
  if (state ? matchesAny(relative, state) : matchesAny(file, fallback.state)) return 'state';
  if (matchesAny(file, fallback.appIni ?? DEFAULT_FILE_PATTERNS.appIni ?? [])) return 'appIni';
  return undefined;
}

/** Later layers win code by code: defaults < editor setting < project file < command line. */
export function mergeSeverity(...layers: (SeverityOverrides | undefined)[]): SeverityOverrides {
  return Object.assign({}, ...layers.filter(Boolean));
}

/**
 * The state schema mode in force for one file, decided here for the language server and the CLI
 * alike: the command line's `--schema` wins over the project configuration's `stateSchema`, which wins
 * over the `quotaState.state.schema` setting; otherwise `pulumi`.
 */
export function resolveStateSchema(sources: { commandLine?: StateSchemaMode; projectConfig?: ProjectConfig; setting?: unknown }): StateSchemaMode {
  return sources.commandLine ?? sources.projectConfig?.stateSchema ?? stateSchemaModeOf(sources.setting);
}
