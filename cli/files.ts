/** Expands the file arguments of `quota-state check`: plain paths, or globs walked from their fixed prefix. */
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { compileGlob } from '../shared/glob';
import { UsageError } from './args';

const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

function hasGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

function walk(folder: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) walk(path, out);
    } else if (entry.isFile()) out.push(path);
  }
}

export function expandFileArguments(patterns: string[], cwd: string): string[] {
  const files: string[] = [];
  for (const pattern of patterns) {
    // An existing file is taken as named, even when its name has glob characters such as `[`.
    if (!hasGlob(pattern) || statSync(resolve(cwd, pattern), { throwIfNoEntry: false })) {
      files.push(isAbsolute(pattern) ? pattern : resolve(cwd, pattern));
      continue;
    }
    const normal = pattern.replace(/\\/g, '/');
    const segments = normal.split('/');
    const firstGlob = segments.findIndex(hasGlob);
    const prefix = segments.slice(0, firstGlob).join('/');
    const base = resolve(cwd, prefix === '' && normal.startsWith('/') ? '/' : prefix || '.');
    const matcher = compileGlob(resolve(cwd, normal).replace(/\\/g, '/'));
    const found: string[] = [];
    if (statSync(base, { throwIfNoEntry: false })?.isDirectory()) walk(base, found);
    const matched = found.filter((file) => matcher.test(file.replace(/\\/g, '/'))).sort();
    if (matched.length === 0) throw new UsageError(`no file matches ${pattern}`);
    files.push(...matched);
  }
  return [...new Set(files)];
}

export { FileRefusedError, MAX_FILE_BYTES, readRegularBytes, readRegularFile } from '../shared/node/regularFiles';
