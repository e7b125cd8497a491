/**
 * Node's reader of `.quota-state.json` files for ServerWorkspace: re-read when the file changes
 * on disk (one stat per folder level per lookup).
 */
import { readFileSync, statSync } from 'node:fs';

export function diskConfigReader(): (path: string) => string | undefined {
  const texts = new Map<string, { mtime: number; text: string }>();
  return (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile()) return undefined;
    const cached = texts.get(path);
    if (cached && cached.mtime === stat.mtimeMs) return cached.text;
    const text = readFileSync(path, 'utf8');
    texts.set(path, { mtime: stat.mtimeMs, text });
    return text;
  };
}
