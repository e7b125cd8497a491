/**
 * Which kind of document a file is: a resource-state file, a quota config or
 * instance file, or neither. File names decide first; content decides otherwise.
 */

import { compileGlob, type GlobMatcher } from './glob';

export type DocumentKind = 'state' | 'quota' | 'appIni';

export interface FilePatterns {
  state: string[];
  quota: string[];
  /** Forgejo server configuration files (`app.ini`), recognised by name only. */
  appIni?: string[];
}

export const DEFAULT_FILE_PATTERNS: FilePatterns = {
  state: ['**/*.state.json', '**/.pulumi/stacks/**/*.json'],
  quota: ['**/*.quota.json', '**/*.quota.jsonc', '**/quota.jsonc'],
  appIni: ['**/app.ini'],
};

function normalisePath(path: string): string {
  return path.replace(/\\/g, '/');
}

/** Compiled patterns, kept because every document open and settings change asks again. */
const compiledGlobs = new Map<string, GlobMatcher>();

function matcherOf(glob: string): GlobMatcher {
  let matcher = compiledGlobs.get(glob);
  if (!matcher) {
    if (compiledGlobs.size >= 1000) compiledGlobs.clear();
    matcher = compileGlob(glob.includes('/') ? glob : `**/${glob}`);
    compiledGlobs.set(glob, matcher);
  }
  return matcher;
}

/** Matches a path (absolute or relative) against globs; a glob without `/` matches the base name. */
export function matchesAny(path: string, globs: readonly string[]): boolean {
  const normal = normalisePath(path);
  const base = normal.slice(normal.lastIndexOf('/') + 1);
  const relative = normal.replace(/^\/+/, '');
  return globs.some((glob) => {
    const matcher = matcherOf(glob);
    return matcher.test(normal) || matcher.test(base) || matcher.test(relative);
  });
}

export function kindFromFileName(path: string, patterns: FilePatterns = DEFAULT_FILE_PATTERNS): DocumentKind | undefined {
  if (matchesAny(path, patterns.appIni ?? DEFAULT_FILE_PATTERNS.appIni!)) return 'appIni';
  if (matchesAny(path, patterns.quota)) return 'quota';
  if (matchesAny(path, patterns.state)) return 'state';
  return undefined;
}

/**
 * Looks only at the first top-level keys (a cheap scan, never a full parse), so it is safe
 * on 100 MB files. State: a record (`urn`), deployment (`manifest`/`resources`),
 * export (`deployment`), checkpoint (`checkpoint`, or `latest` for a legacy one). Quota: `rules`, `groups`, `defaultGroups`, …
 */
export function kindFromContent(text: string): DocumentKind | undefined {
  const head = text.slice(0, 64 * 1024);
  const keys = new Set<string>();
  // Top-level keys are those at brace depth 1; a light tokenizer that skips strings and comments.
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '"') {
      let j = i + 1;
      while (j < head.length && head[j] !== '"') j += head[j] === '\\' ? 2 : 1;
      if (depth === 1) {
        let k = j + 1;
        while (k < head.length && /\s/.test(head[k])) k++;
        if (head[k] === ':') keys.add(head.slice(i + 1, j));
      }
      i = j;
    } else if (c === '/' && head[i + 1] === '/') {
      const end = head.indexOf('\n', i);
      i = end === -1 ? head.length : end;
    } else if (c === '/' && head[i + 1] === '*') {
      const end = head.indexOf('*/', i + 2);
      i = end === -1 ? head.length : end + 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  if (['urn', 'checkpoint', 'deployment', 'manifest', 'resources', 'latest'].some((k) => keys.has(k))) return 'state';
  if (['rules', 'groups', 'defaultGroups', 'defaultTotal', 'assignments', 'usage', 'accounts'].some((k) => keys.has(k))) return 'quota';
  return undefined;
}

export function detectKind(path: string, text: string, patterns?: FilePatterns): DocumentKind | undefined {
  return kindFromFileName(path, patterns) ?? kindFromContent(text);
}
