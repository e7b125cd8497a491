/**
 * Node's lookup of `.quota-state.json` for ServerWorkspace: the nearest one above a file on disk,
 * re-read when it changes on disk (one stat per folder level per lookup).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { findProjectConfig, type ProjectConfig } from '../shared/projectConfig';
import { uriToPath } from './workspace';

export function diskConfigLookup(): (uri: string) => ProjectConfig | undefined {
  const texts = new Map<string, { mtime: number; text: string }>();
  const read = (path: string): string | undefined => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile()) return undefined;
    const cached = texts.get(path);
    if (cached && cached.mtime === stat.mtimeMs) return cached.text;
    const text = readFileSync(path, 'utf8');
    texts.set(path, { mtime: stat.mtimeMs, text });
    return text;
  };
  return (uri) => (uri.startsWith('file:') ? findProjectConfig(dirname(uriToPath(uri)), read) : undefined);
}
