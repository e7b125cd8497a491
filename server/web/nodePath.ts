/**
 * The few `node:path` functions the shared code calls, for the browser build only (esbuild.mjs
 * aliases `node:path` here): POSIX semantics, which is what workspace paths are in the browser.
 */
export function dirname(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const slash = trimmed.lastIndexOf('/');
  if (slash < 0) return '.';
  return slash === 0 ? '/' : trimmed.slice(0, slash);
}

export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

export function isAbsolute(path: string): boolean {
  return path.startsWith('/');
}

export function join(...parts: string[]): string {
  return normalize(parts.filter((part) => part !== '').join('/'));
}

export function resolve(...parts: string[]): string {
  let path = '';
  for (const part of parts) path = part.startsWith('/') ? part : path ? `${path}/${part}` : part;
  return normalize(path.startsWith('/') ? path : `/${path}`);
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `${path.startsWith('/') ? '/' : ''}${out.join('/')}` || '.';
}

export default { dirname, basename, isAbsolute, join, resolve };
