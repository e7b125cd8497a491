/**
 * The browser's twin of shared/node/lockIdentity.ts: a web extension host has no process id,
 * user or host name, so its lock names the editor (pid 0, which no tool takes for a live process).
 */
import * as vscode from 'vscode';
import type { LockIdentity } from '../../shared/backend/vocabulary';

export function lockIdentity(): LockIdentity {
  return { pid: 0, username: 'vscode', hostname: vscode.env.appHost || 'web' };
}

/** The browser knows neither this machine's name nor its processes: only a lock's age decides there. */
export function lockHost(): { hostname?: string; pidAlive?: (pid: number) => boolean | undefined } {
  return {};
}
