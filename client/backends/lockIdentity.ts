/** Who the editor is when it takes Pulumi's stack lock: this process, user and machine, as Pulumi's lock.go writes them. */
import { hostname, userInfo } from 'node:os';
import type { LockIdentity } from '../../shared/state/vocabulary';

export function lockIdentity(): LockIdentity {
  let username: string;
  try {
    username = userInfo().username;
  } catch {
    username = process.env.USER ?? process.env.USERNAME ?? 'vscode';
  }
  return { pid: process.pid, username, hostname: hostname() };
}
